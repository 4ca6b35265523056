// The agent manager and pi runtime in process, over a store port of the test's own and the stand-in
// pi (test/bench/stub-pi.mjs): a prompt sent the moment the store has settled the previous one is
// admitted, though the store's reply to the settlement has not reached the runtime yet. The person
// sees "answered" (the store's word) and prompts again; "busy" then would be a refusal the store
// no longer backs.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { AgentManager } from '../../source/hosts/pi/agent-manager.js';
import type { PiStoreCalls, PiStorePort } from '../../source/hosts/pi/store-port.js';
import { waitFor } from '../support/cli.js';

const stub = new URL('../bench/stub-pi.mjs', import.meta.url).pathname;

/** Just enough of the store: one agent, its active prompt, the settled ones; settlement replies held on demand. */
class Store implements PiStorePort {
  active: string | undefined;
  readonly settled = new Set<string>();
  holdSettlements = false;
  private held: Array<() => void> = [];
  private sequence = 0;

  constructor(private readonly agentDir: string) {}

  release(): void {
    for (const go of this.held.splice(0)) go();
  }

  private async settle(operationId: string): Promise<void> {
    // Committed here; the reply may be held, as a busy writer thread's would be.
    this.settled.add(operationId);
    if (this.active === operationId) this.active = undefined;
    if (this.holdSettlements) await new Promise<void>((resolve) => this.held.push(resolve));
  }

  async call<K extends keyof PiStoreCalls>(
    name: K,
    input: PiStoreCalls[K]['input'],
  ): Promise<PiStoreCalls[K]['result']> {
    const answer = await this.answer(name, input as never);
    return answer as PiStoreCalls[K]['result'];
  }

  private async answer(name: keyof PiStoreCalls, input: Record<string, unknown>): Promise<unknown> {
    switch (name) {
      case 'beginGeneration':
        return { generationId: 'g-1', agentId: 'a-1', agentDir: this.agentDir, piConfigDir: null, model: null };
      case 'admitPrompt': {
        if (this.active) throw new CmError('agent_busy', `busy with ${this.active}`);
        this.active = input['operationId'] as string;
        return {
          storeId: 's-1',
          operationId: input['operationId'],
          sequence: ++this.sequence,
          replayed: false,
          messageId: `m-${this.sequence}`,
        };
      }
      case 'ingestPiRecord': {
        const settle = input['settle'] as { operationId: string } | undefined;
        if (settle) await this.settle(settle.operationId);
        return { stopGeneration: false, projectionFailure: null };
      }
      case 'settlePrompt':
        await this.settle(input['operationId'] as string);
        return {};
      default:
        return {};
    }
  }
}

describe('a prompt right after the store settled the previous one', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('is admitted once the settlement reaches the runtime, not refused as busy', async () => {
    const agentDir = await mkdtemp(join(tmpdir(), 'cm-settling-'));
    dirs.push(agentDir);
    const store = new Store(agentDir);
    const manager = new AgentManager({
      writer: store,
      hostId: 'h-1',
      pi: () => ({ command: process.execPath, args: [stub] }),
    });
    try {
      await manager.start('solo');
      store.holdSettlements = true;
      await manager.prompt('solo', 'first question', 'op-1');
      await waitFor('the store to settle the first prompt', async () => (store.settled.has('op-1') ? true : undefined));
      // The store says op-1 is settled; its reply to the runtime is still held.
      let outcome: 'admitted' | Error | undefined;
      const second = manager.prompt('solo', 'second question', 'op-2').then(
        () => (outcome = 'admitted'),
        (error: Error) => (outcome = error),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(outcome, undefined, `decided before the settlement reached the runtime: ${String(outcome)}`);
      store.holdSettlements = false;
      store.release();
      await second;
      assert.equal(outcome, 'admitted', String(outcome));
      await waitFor('the second prompt to settle', async () => (store.settled.has('op-2') ? true : undefined));
      // A prompt while one is really being answered is still refused.
      store.holdSettlements = false;
      await manager.prompt('solo', 'third question', 'op-3');
      await assert.rejects(manager.prompt('solo', 'too soon', 'op-4'), (error: CmError) => error.code === 'agent_busy');
    } finally {
      store.release();
      await manager.shutdown();
    }
  });
});
