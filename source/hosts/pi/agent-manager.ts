// The AgentManager owns every running agent of this host: one slot per agent, reserved before any
// await so two prompts can never both pass the busy check (seed 003 §9 rule 4), an admission
// barrier closed at shutdown, and the runtimes' ends awaited before the host releases the store.
import { CmError } from '../../errors.js';
import { type AbortReceipt, abortHint, type PromptReceipt } from '../../api/agents.js';
import { PiRuntime, type RuntimeDeps } from './pi-runtime.js';

interface Slot {
  runtime?: PiRuntime;
  /** A start, stop or prompt admission in progress: held from before its first await. */
  reservation?: symbol;
}

export class AgentManager {
  private readonly slots = new Map<string, Slot>();
  private admissionOpen = true;

  constructor(private readonly deps: RuntimeDeps) {}

  private slot(agent: string): Slot {
    let slot = this.slots.get(agent);
    if (!slot) this.slots.set(agent, (slot = {}));
    return slot;
  }

  /** The slot of a running agent, by the name or ID it was started with. */
  private running(agent: string): Slot & { runtime: PiRuntime } {
    for (const [key, slot] of this.slots) {
      if ((key === agent || slot.runtime?.agentId === agent) && slot.runtime && !slot.runtime.stopping)
        return slot as Slot & { runtime: PiRuntime };
    }
    throw new CmError(
      'agent_not_running',
      `Agent ${agent} is not running in this host. Start it with: common-memory agent start ${agent}`,
    );
  }

  private reserve(slot: Slot, agent: string, what: string): symbol {
    if (!this.admissionOpen) throw new CmError('agent_state', 'The host is shutting down; no new work is admitted.');
    if (slot.reservation)
      throw new CmError(
        'agent_busy',
        `Agent ${agent} is busy (${what} refused while another request is being admitted).`,
      );
    const token = Symbol(what);
    slot.reservation = token;
    return token;
  }

  /** Releases only the reservation that was taken — never a later one. */
  private release(slot: Slot, token: symbol): void {
    if (slot.reservation === token) slot.reservation = undefined;
  }

  async start(agent: string): Promise<void> {
    const slot = this.slot(agent);
    const token = this.reserve(slot, agent, 'start');
    try {
      if (slot.runtime && !slot.runtime.stopping)
        throw new CmError('agent_state', `Agent ${agent} is already running.`);
      if (slot.runtime) await slot.runtime.whenEnded();
      slot.runtime = await PiRuntime.start(this.deps, agent);
      const runtime = slot.runtime;
      void runtime.whenEnded().then(
        () => {
          if (slot.runtime === runtime) slot.runtime = undefined;
        },
        // Retiring failed (storage): the slot keeps the ended runtime, so a later start reports
        // that failure, and the rejection never escapes to take the whole agents worker down.
        () => undefined,
      );
    } finally {
      this.release(slot, token);
    }
  }

  async stop(agent: string): Promise<void> {
    const slot = this.running(agent);
    await slot.runtime.stop();
  }

  async prompt(agent: string, text: string, operationId: string): Promise<PromptReceipt> {
    const slot = this.running(agent);
    const token = this.reserve(slot, agent, 'prompt');
    try {
      // The previous prompt's settlement on its way to the store, which may have settled it already
      // (a person saw it answered and prompts again): wait for it to reach the runtime, not refuse.
      await slot.runtime.settling();
      const { runtime } = this.running(agent);
      if (runtime.busy)
        throw new CmError(
          'agent_busy',
          `Agent ${agent} is answering another prompt; prompts are not queued. Wait for it to settle, or abort it: ${abortHint(agent)}.`,
        );
      return await runtime.prompt(operationId, text);
    } finally {
      this.release(slot, token);
    }
  }

  abort(agent: string, operationId: string | undefined): Promise<AbortReceipt> {
    return this.running(agent).runtime.abort(operationId);
  }

  /** Closes admission, stops every agent in order, and waits until each generation is retired. */
  async shutdown(): Promise<void> {
    this.admissionOpen = false;
    // Every runtime is stopped and awaited even when one of them fails to retire; then the first failure is reported.
    const ends = await Promise.allSettled(
      [...this.slots.values()].map((slot) => slot.runtime?.stop('host shutting down')),
    );
    const failed = ends.find((end): end is PromiseRejectedResult => end.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
