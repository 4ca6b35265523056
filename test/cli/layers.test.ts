// Where two layers guard one rule, each layer is tested alone: with the other one taken out of the
// picture (its state cleared underneath, or by calling the lower layer directly), so that removing
// either layer fails a test instead of being masked by the other.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { applyInstall, planInstall } from '../../source/hosts/integrations.js';
import type { Application } from '../../source/api/application.js';
import { beginGeneration, createAgent, markGenerationRunning } from '../../source/store/core/agents.js';
import { applyStep } from '../../source/store/core/capture-sessions.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { admitPrompt } from '../../source/store/core/prompts.js';
import { readHeads, readStoreId } from '../../source/store/core/sequences.js';
import { commit } from '../../source/store/transaction.js';
import {
  ended,
  HELLO,
  heldAt,
  journal,
  SIMPLE,
  SIMPLE_LINES,
  timeline,
  withFakeHost,
} from '../support/agents-drill-kit.js';
import * as c from '../support/capture.js';
import { runCli, tempHome } from '../support/cli.js';
import { holdGate } from '../support/fake-pi.js';
import { codeOf } from '../support/results.js';

after(() => c.closeStores());

const TIMEOUT = { timeout: 60_000 };

function freshStore(): { db: Db; home: string } {
  const home = tempHome('layers');
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  return { db, home };
}

/** A store whose agent "a" has a running generation, as a host would leave it after `agent start`. */
function runningAgentStore(): { db: Db; storeId: string } {
  const { db, home } = freshStore();
  commit(db, 'createAgent', (tx) => createAgent(tx, { name: 'a', operationId: 'create-a', agentsRoot: home }));
  const { generation } = commit(db, 'beginGeneration', (tx) => beginGeneration(tx, 'a', 'host-1'));
  commit(db, 'markGenerationRunning', (tx) => markGenerationRunning(tx, generation.generation_id, 1));
  return { db, storeId: readStoreId(db) };
}

/** Starts agent `name` and admits HELLO under `operationId`; the fake holds its answer after the user echo. */
async function promptHeld(app: Application, name: string, operationId: string): Promise<string> {
  const agent = await app.createAgent({ name });
  await app.startAgent({ agent: name });
  await app.prompt({ agent: name, text: HELLO, operationId });
  await heldAt(app, agent.agentId, SIMPLE_LINES.throughUserEcho);
  return agent.agentId;
}

const activeOperation = async (app: Application, name: string) =>
  (await app.listAgents()).find((agent) => agent.name === name)?.activeOperationId ?? null;

describe('busy agent: the durable check in the store and the runtime check in the host, each alone', TIMEOUT, () => {
  it('the store alone refuses a second admission while the first prompt is active (no runtime involved)', () => {
    const { db, storeId } = runningAgentStore();
    commit(db, 'admitPrompt', (tx) =>
      admitPrompt(tx, storeId, { agent: 'a', text: HELLO, operationId: 'op-1', piRequestId: 'p1' }),
    );
    const heads = readHeads(db);
    assert.throws(
      () =>
        commit(db, 'admitPrompt', (tx) =>
          admitPrompt(tx, storeId, { agent: 'a', text: 'second', operationId: 'op-2', piRequestId: 'p2' }),
        ),
      // The refusal says how to abort, not only that one may.
      (error: { code?: string; message?: string }) =>
        error.code === 'agent_busy' && /common-memory abort a\b.*\ba on the Agents screen/.test(error.message ?? ''),
    );
    assert.deepEqual(readHeads(db), heads, 'nothing was written');
    assert.equal(db.prepare("SELECT count(*) FROM operations WHERE operation_id = 'op-2'").pluck().get(), 0);
  });

  it('the host runtime alone refuses while pi is answering, even when the store no longer says the agent is busy', async () => {
    const gate = holdGate();
    const script = {
      onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
    };
    const home = tempHome('layer-busy');
    await withFakeHost(
      script,
      async ({ app }) => {
        await promptHeld(app, 'a', 'op-first');
        // Take the durable layer out: the store's busy pointer is cleared underneath the host (a second
        // connection), so only the runtime knows pi is still answering. Put back before the answer goes on.
        const db = openDatabase(storeFiles(home).core);
        try {
          db.prepare('UPDATE agents SET active_operation_id = NULL').run();
          assert.equal(await activeOperation(app, 'a'), null);
          assert.equal(
            await codeOf(app.prompt({ agent: 'a', text: 'too soon', operationId: 'op-second' })),
            'agent_busy',
          );
          assert.equal(await codeOf(app.operation({ operationId: 'op-second' })), 'not_found', 'nothing was admitted');
          db.prepare("UPDATE agents SET active_operation_id = 'op-first'").run();
        } finally {
          db.close();
        }
        gate.release();
        assert.equal((await ended(app, 'op-first')).outcome, 'answered');
      },
      { home },
    );
  });
});

describe('replay and conflict: the host answers from the store before the runtime, the store decides', TIMEOUT, () => {
  it('while the agent is provably still busy with that prompt, a retry is a replay and other text is a conflict — never agent_busy, never resent', async () => {
    const gate = holdGate();
    const script = {
      onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
    };
    await withFakeHost(
      script,
      async ({ app }) => {
        const agentId = await promptHeld(app, 'a', 'op-1');
        const first = (await journal(app, agentId)).find((row) => row.kind === 'prompt.requested')!;
        assert.equal(await activeOperation(app, 'a'), 'op-1', 'the agent is busy with op-1 at the retry');
        const again = await app.prompt({ agent: 'a', text: HELLO, operationId: 'op-1' });
        assert.deepEqual([again.replayed, again.sequence, again.operationId], [true, first.sequence, 'op-1']);
        assert.equal(
          await codeOf(app.prompt({ agent: 'a', text: 'other text', operationId: 'op-1' })),
          'operation_conflict',
        );
        await heldAt(app, agentId, SIMPLE_LINES.throughUserEcho);
        gate.release();
        await ended(app, 'op-1');
        const rows = await journal(app, agentId);
        assert.equal(rows.filter((row) => row.kind === 'prompt.attempted').length, 1, 'pi got the prompt once');
        assert.equal((await timeline(app, agentId)).filter((row) => row.role === 'user').length, 1);
      },
      { home: tempHome('layer-replay') },
    );
  });

  it('in the store alone: the same text under the same ID is the original receipt, other text a conflict', () => {
    const { db, storeId } = runningAgentStore();
    const admit = (text: string) =>
      commit(db, 'admitPrompt', (tx) =>
        admitPrompt(tx, storeId, { agent: 'a', text, operationId: 'op-1', piRequestId: 'p1' }),
      );
    const first = admit(HELLO);
    const heads = readHeads(db);
    assert.deepEqual(admit(HELLO), { ...first, replayed: true });
    assert.throws(
      () => admit('other'),
      (error: { code?: string }) => error.code === 'operation_conflict',
    );
    assert.deepEqual(readHeads(db), heads);
  });
});

describe('recovery: the drain engine checks the item, the store step checks it again at commit', TIMEOUT, () => {
  /** One isolated Codex session: its corrupt transcript got recovery item rec-1. */
  async function isolated(): Promise<{
    home: string;
    activationId: number;
    envelopeIds: number[];
    recoveryId: number;
  }> {
    const home = tempHome('layer-rec');
    const t = c.copyTranscript(c.rolloutFixture('d-failed-turn-http400.jsonl'), c.transcriptDir(home));
    appendFileSync(t, 'not json\n');
    c.replay(home, 'codex', c.hookFiles('codex', 'd'), t, 'proc-1');
    await c.drain(home);
    const db = c.readOnly(home);
    try {
      const item = db
        .prepare(
          "SELECT recovery_id AS recoveryId, activation_id AS activationId FROM recovery_items WHERE state = 'open'",
        )
        .get() as { recoveryId: number; activationId: number };
      const envelopeIds = db
        .prepare("SELECT id FROM inbox WHERE activation_id = ? AND state = 'pending' ORDER BY id LIMIT 1")
        .pluck()
        .all(item.activationId) as number[];
      return { home, ...item, envelopeIds };
    } finally {
      db.close();
    }
  }
  const emptyStep = (activationId: number, envelopeIds: number[], recoveryId: number | null) => ({
    activationId,
    envelopeIds,
    recoveryId,
    watch: null,
    turns: [],
    incompleteKeys: [],
    bufferedTurns: null,
    messages: {
      key: [],
      role: [],
      classification: [],
      kind: [],
      bodies: new Uint8Array(0),
      bodyEnds: [],
      line: [],
      timestamp: [],
    },
  });

  it('the store step alone: a step for an isolated activation applies only under its open recovery item', async () => {
    const { home, activationId, envelopeIds, recoveryId } = await isolated();
    c.closeStores();
    const db = openDatabase(storeFiles(home).core);
    try {
      const apply = (id: number | null) =>
        commit(db, 'captureApplyStep', (tx) => applyStep(tx, emptyStep(activationId, envelopeIds, id)));
      assert.deepEqual(apply(null), { outcome: 'stale' }, 'an ordinary step never applies to an isolated activation');
      assert.deepEqual(apply(recoveryId + 1), { outcome: 'stale' }, 'nor a step under another recovery item');
      assert.equal(db.prepare('SELECT state FROM inbox WHERE id = ?').pluck().get(envelopeIds[0]), 'pending');
      assert.equal(
        apply(recoveryId).outcome,
        'applied',
        'the same step under the open item applies (so the refusals above are about the item)',
      );
      assert.equal(
        db.prepare('SELECT state FROM recovery_items WHERE recovery_id = ?').pluck().get(recoveryId),
        'resolved',
      );
      assert.deepEqual(
        apply(recoveryId),
        { outcome: 'applied', sealed: 0, replayed: true },
        'applying it again is a replay',
      );
    } finally {
      db.close();
    }
  });

  it('the engine alone: recovering an item that is no longer open is refused before any step is planned', async () => {
    const { home, recoveryId } = await isolated();
    c.closeStores();
    const db = openDatabase(storeFiles(home).core);
    db.prepare("UPDATE recovery_items SET state = 'resolved' WHERE recovery_id = ?").run(recoveryId);
    db.close();
    await assert.rejects(
      c.withLocalHost(home, (app) => app.sessionDrain({ recover: `rec-${recoveryId}` })),
      (error: { code?: string; message: string }) =>
        error.code === 'not_found' && /already recovered/.test(error.message),
    );
  });
});

describe('install ownership: the command checks the plan, the apply step checks it again', TIMEOUT, () => {
  const modifiedSettings = async (): Promise<{ dir: string; path: string; text: string }> => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-layer-install-'));
    const env = { COMMON_MEMORY_HOME: '', CODEX_HOME: '', CLAUDE_CONFIG_DIR: '' };
    assert.equal((await runCli(['install', 'claude', '--claude-dir', dir], { env })).code, 0);
    const path = join(dir, 'settings.json');
    const value = JSON.parse(readFileSync(path, 'utf8'));
    value.hooks.Stop[0].hooks[0].timeout = 30;
    const text = `${JSON.stringify(value, null, 2)}\n`;
    writeFileSync(path, text);
    return { dir, path, text };
  };

  it('the command alone: --dry-run (which never applies) refuses a modified entry with exit 5', async () => {
    const { dir, path, text } = await modifiedSettings();
    const before = readdirSync(dir).sort();
    const result = await runCli(['install', 'claude', '--claude-dir', dir, '--dry-run', '--json'], {
      env: { COMMON_MEMORY_HOME: '', CLAUDE_CONFIG_DIR: '' },
    });
    assert.equal(result.code, 5, result.stderr);
    assert.equal(JSON.parse(result.stderr).error.code, 'config_conflict');
    assert.equal(readFileSync(path, 'utf8'), text);
    assert.deepEqual(readdirSync(dir).sort(), before);
  });

  it('the apply step alone: a refused plan handed straight to apply throws and writes nothing', async () => {
    const { dir, path, text } = await modifiedSettings();
    const plan = planInstall('claude', { configDir: dir });
    assert.ok(plan.refusals.some((refusal) => refusal.code === 'modified'));
    const before = readdirSync(dir).sort();
    assert.throws(
      () => applyInstall(plan),
      (error: { code?: string }) => error.code === 'config_conflict',
    );
    assert.equal(readFileSync(path, 'utf8'), text);
    assert.deepEqual(readdirSync(dir).sort(), before);
  });

  it('the apply step alone: a refused plan whose MCP part would add our server writes neither file', async () => {
    // The hooks step refuses a refused plan by itself; only applyInstall's own check keeps the MCP
    // config (written first) from being written and then put back, leaving backups behind.
    const { dir, path, text } = await modifiedSettings();
    const mcpPath = join(dir, '.claude.json');
    const mcpText = '{\n  "numStartups": 3,\n  "mcpServers": {}\n}\n';
    writeFileSync(mcpPath, mcpText);
    const plan = planInstall('claude', { configDir: dir });
    assert.ok(plan.refusals.some((refusal) => refusal.code === 'modified'));
    assert.equal(plan.mcp.change, 'add', 'the MCP part on its own would be written');
    const before = readdirSync(dir).sort();
    const steps: string[] = [];
    assert.throws(
      () => applyInstall(plan, { fault: (step) => steps.push(step) }),
      (error: { code?: string }) => error.code === 'config_conflict',
    );
    assert.deepEqual(steps, [], 'no write began');
    assert.equal(readFileSync(mcpPath, 'utf8'), mcpText);
    assert.equal(readFileSync(path, 'utf8'), text);
    assert.deepEqual(readdirSync(dir).sort(), before);
  });
});
