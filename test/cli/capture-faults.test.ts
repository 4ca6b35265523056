// Fault injection for host capture: kill -9 of the hook and of the drain at each commit boundary,
// and 16 hooks racing on one store. Everything under test runs the real shipped bin.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULTS_ENV } from '../../source/ground/faults.js';
import { runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';

const count = (home: string, sql: string): number => {
  const db = c.readOnly(home);
  try {
    return db.prepare(sql).pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('kill -9 at the hook commit boundary', () => {
  for (const [boundary, kept] of [
    ['beforeCommit', 0],
    ['afterCommit', 1],
  ] as const) {
    it(`${boundary}: ${kept ? 'the envelope is committed (only the reply is lost)' : 'nothing is committed'}`, async () => {
      const home = tempHome('fault');
      const files = c.hookFiles('codex', 'b');
      // A first event creates the store, so the fault hits the event under test.
      assert.equal((await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'i')).code, 0);
      const result = await c.hookBin(home, 'codex', c.payloadFor(files[1]!, null), 'i', {
        [FAULTS_ENV]: `hookCapture.${boundary}=kill`,
      });
      assert.equal(result.signal, 'SIGKILL');
      assert.equal(count(home, 'SELECT count(*) FROM inbox'), 1 + kept);
      assert.equal(count(home, 'SELECT count(*) FROM prompt_candidates'), kept);
    });
  }
});

describe('kill -9 of session-drain at the commit boundary', () => {
  for (const boundary of ['beforeCommit', 'afterCommit'] as const) {
    it(`${boundary}: a rerun seals every turn exactly once`, async () => {
      const home = tempHome('fault');
      const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
      // The hooks' envelopes are what the drain under test starts from: the hook's transaction in this
      // process (six spawns less, about 0.4 s of CPU each; the hook's own kill is tested above), its
      // connection closed before the drain runs.
      c.replay(home, 'codex', c.hookFiles('codex', 'b'), t, 'i');
      c.closeStores();
      const killed = await runCli(['session-drain', '--home', home], {
        env: { [FAULTS_ENV]: `captureApplyStep.${boundary}=kill` },
      });
      assert.equal(killed.signal, 'SIGKILL');
      assert.equal(count(home, 'SELECT count(*) FROM capture_turns'), boundary === 'afterCommit' ? 1 : 0);
      const rerun = await runCli(['flush', '--json', '--home', home]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.equal(count(home, 'SELECT count(*) FROM capture_turns'), 1);
      assert.equal(count(home, "SELECT count(*) FROM capture_messages WHERE classification = 'evidence'"), 1);
      assert.equal(count(home, "SELECT count(*) FROM inbox WHERE state = 'pending'"), 0);
    });
  }
});

describe('16 hooks racing', () => {
  it('16 concurrent hook processes: every envelope kept once, no busy errors', async () => {
    const home = tempHome('race');
    const files = c.hookFiles('codex', 'b');
    await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'warm');
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        c.hookBin(
          home,
          'codex',
          c.payloadFor(files[1]!, null, { session_id: `race-${i % 4}`, turn_id: `turn-${i}` }),
          `proc-${i % 4}`,
        ),
      ),
    );
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    assert.equal(count(home, 'SELECT count(*) FROM inbox'), 17);
    assert.equal(count(home, 'SELECT count(*) FROM prompt_candidates'), 16);
    assert.equal(count(home, 'SELECT count(*) FROM capture_activations'), 5, 'one activation per process and session');
    const errors = await runCli(['status', '--json', '--home', home]);
    assert.equal((JSON.parse(errors.stdout) as { host: { hookErrors: number } }).host.hookErrors, 0);
  });

  it('a broken store never blocks the agent: exit 0, no context, the failure visible in status', async () => {
    const home = tempHome('broken');
    const files = c.hookFiles('codex', 'b');
    await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'i');
    const { writeFileSync } = await import('node:fs');
    const { storeFiles } = await import('../../source/home.js');
    writeFileSync(storeFiles(home).core, 'this is not a database at all, not at all, not at all, really not.');
    const result = await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'i');
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    const { readFileSync } = await import('node:fs');
    const failures = readFileSync(storeFiles(home).hookErrors, 'utf8').trim().split('\n');
    assert.equal(JSON.parse(failures.at(-1)!).code, 'store_corrupt');
  });
});
