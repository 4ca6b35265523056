// Live capture: the real Codex CLI 0.171.0 and Claude Code 2.1.332 run plain, tool, failed and
// resumed conversations with common-memory's hook installed (fake model servers on loopback);
// then the inbox is drained and every user turn must be there exactly once with the right state.
// A corrupted transcript gives one recovery item while the other sessions flow; repaired, it is
// recovered with session-drain --recover.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import type { CaptureStatus, FlushReport } from '../../source/api/capture.js';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { BIN, runCli, tempHome } from '../support/cli.js';
import { SCENARIO_PROMPTS, runClaudeScenario, runCodexScenario, shellQuote, type ScenarioName } from './harness.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const home = tempHome('live-capture');
const hook = (client: 'codex' | 'claude') =>
  `${shellQuote(process.execPath)} ${shellQuote(BIN)} hook ${client} --home ${shellQuote(home)}`;
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const EXPECTED_STATE: Record<ScenarioName, { codex: string; claude: string }> = {
  plain: { codex: 'settled', claude: 'settled' },
  tool: { codex: 'settled', claude: 'settled' },
  // Codex records the HTTP 400 in task_complete.error. Claude writes no failure record (HOSTS.md
  // 2.5): its turn never settles and is incomplete when the session ends — not sealed, not lost.
  fail: { codex: 'failed', claude: 'incomplete' },
  resume: { codex: 'settled', claude: 'settled' },
};

function evidence(): Array<{ client: string; body: string; state: string; hostSessionId: string }> {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT a.client, m.body, t.state, a.host_session_id AS hostSessionId FROM capture_messages m
         JOIN capture_turns t USING (turn_id) JOIN capture_activations a ON a.activation_id = t.activation_id
         WHERE m.classification = 'evidence' ORDER BY m.message_id`,
      )
      .all() as Array<{ client: string; body: string; state: string; hostSessionId: string }>;
  } finally {
    db.close();
  }
}

async function cli<T>(args: string[]): Promise<{ code: number | null; json: T }> {
  const result = await runCli([...args, '--json', '--home', home]);
  return { code: result.code, json: JSON.parse(result.stdout || '{}') as T };
}

describe('live capture with the real clients', () => {
  const sessions: Array<{ client: 'codex' | 'claude'; scenario: ScenarioName; sessionId: string }> = [];

  for (const scenario of ['plain', 'tool', 'fail', 'resume'] as const) {
    it(`codex ${scenario}`, async () => {
      const result = await runCodexScenario(scenario, { hookCommand: hook('codex') });
      cleanups.push(() => result.cleanup());
      assert.ok(result.sessionId);
      sessions.push({ client: 'codex', scenario, sessionId: result.sessionId });
    });
    it(`claude ${scenario}`, async () => {
      const result = await runClaudeScenario(scenario, { hookCommand: hook('claude') });
      cleanups.push(() => result.cleanup());
      assert.ok(result.sessionId);
      sessions.push({ client: 'claude', scenario, sessionId: result.sessionId });
    });
  }

  it('flush: every user turn arrived exactly once with the right state', async () => {
    const { code, json } = await cli<FlushReport>(['flush']);
    assert.equal(json.remaining.isolated, 0, JSON.stringify(json));
    assert.equal(json.remaining.inbox, 0);
    assert.equal(code, json.complete ? 0 : 3);
    const rows = evidence();
    for (const { client, scenario, sessionId } of sessions) {
      const mine = rows.filter((row) => row.client === client && row.hostSessionId === sessionId);
      if (EXPECTED_STATE[scenario][client] === 'incomplete') {
        assert.deepEqual(mine, [], 'an incomplete turn is not sealed');
        const view = (await cli<CaptureStatus>(['status'])).json.sessions.find((s) => s.hostSessionId === sessionId)!;
        assert.deepEqual([view.state, view.turns.incomplete, view.turns.settled], ['incomplete', 1, 0]);
        continue;
      }
      assert.deepEqual(
        mine.map((row) => row.body),
        [...SCENARIO_PROMPTS[scenario]],
        `${client} ${scenario}`,
      );
      for (const row of mine)
        assert.equal(row.state, EXPECTED_STATE[scenario][client], `${client} ${scenario} turn state`);
    }
    const sealed = sessions.filter((s) => EXPECTED_STATE[s.scenario][s.client] !== 'incomplete');
    assert.equal(
      rows.length,
      sealed.reduce((n, s) => n + SCENARIO_PROMPTS[s.scenario].length, 0),
      'no turn twice, none from elsewhere',
    );
    const { json: status } = await cli<CaptureStatus>(['status']);
    const resumed = sessions.filter((s) => s.scenario === 'resume');
    for (const r of resumed)
      assert.equal(
        status.sessions.filter((s) => s.hostSessionId === r.sessionId).length,
        2,
        `${r.client} resume is a second activation`,
      );
  });

  it('a corrupted transcript: one recovery item while other sessions flow; repaired, --recover consumes it', async () => {
    const wrapper = `${shellQuote(process.execPath)} ${shellQuote(fileURLToPath(new URL('./corrupting-hook.mjs', import.meta.url)))} ${shellQuote(REPO)} codex ${shellQuote(home)}`;
    const bad = await runCodexScenario('plain', { hookCommand: wrapper });
    cleanups.push(() => bad.cleanup());
    const good = await runClaudeScenario('plain', { hookCommand: hook('claude') });
    cleanups.push(() => good.cleanup());
    const before = evidence().length;
    const { code, json } = await cli<FlushReport>(['flush']);
    assert.equal(code, 3);
    assert.equal(json.remaining.isolated, 1);
    const { json: status } = await cli<CaptureStatus>(['status']);
    assert.equal(status.recovery.total, 1);
    const item = status.recovery.items[0]!;
    assert.deepEqual([item.code, item.client], ['transcript_invalid_json', 'codex']);
    assert.equal(evidence().length, before + 1, 'the healthy Claude session flowed');

    const path = bad.transcriptPaths[0]!;
    writeFileSync(path, readFileSync(path, 'utf8').replace('{"corrupted": \n', ''));
    const recovered = await cli<{ recovered: boolean }>(['session-drain', '--recover', item.id]);
    assert.equal(recovered.code, 0);
    assert.equal(recovered.json.recovered, true);
    const rows = evidence().filter((row) => row.hostSessionId === bad.sessionId);
    assert.deepEqual(
      rows.map((row) => row.body),
      ['Say hello'],
    );
    const { json: after } = await cli<CaptureStatus>(['status']);
    assert.equal(after.recovery.total, 0);
  });
});
