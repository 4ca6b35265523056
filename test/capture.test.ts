// Host capture on recorded data: hooks → inbox → drain → sessions, turns, batches; delivery
// authentication; isolation and recovery; status paging; capacity.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { CAPACITY_ENV, RECOVERY_PAGE_SIZE } from '../source/limits.js';
import { tempHome } from './support/cli.js';
import * as c from './support/capture.js';

after(() => c.closeStores());

const prompts = (home: string) => {
  const db = c.readOnly(home);
  try {
    return db
      .prepare("SELECT m.body, t.state, t.turn_key AS turn FROM capture_messages m JOIN capture_turns t USING (turn_id) WHERE m.classification = 'evidence' ORDER BY m.message_id")
      .all() as Array<{ body: string; state: string; turn: string }>;
  } finally {
    db.close();
  }
};

describe('capture from recorded Codex and Claude data', () => {
  it('a Codex tool turn becomes one settled turn, one batch, its prompt delivered once; a second drain is a no-op', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), t, 'proc-b');
    const report = await c.flush(home);
    assert.equal(report.complete, true);
    assert.equal(report.sealedTurns, 1);
    assert.deepEqual(prompts(home), [{ body: 'TOOL: run echo hi', state: 'settled', turn: '01a22e40-371f-7d21-8c3b-bb3b52052117' }]);
    const db = c.readOnly(home);
    const kinds = db.prepare('SELECT kind FROM capture_messages ORDER BY message_id').pluck().all();
    const candidate = db.prepare('SELECT state, body FROM prompt_candidates').get();
    const batches = db.prepare('SELECT count(*) FROM capture_batches').pluck().get();
    db.close();
    assert.ok(kinds.includes('tool_call') && kinds.includes('tool_result') && kinds.includes('answer'), `kinds: ${kinds.join(',')}`);
    assert.deepEqual(candidate, { state: 'delivered', body: null }, 'the candidate body is cleared once delivered');
    assert.equal(batches, 1);
    const again = await c.drain(home);
    assert.equal(again.steps, 0);
    assert.deepEqual(prompts(home).length, 1);
  });

  it('a resumed Codex thread in a new process is a new activation; each turn arrives once in its own session', async () => {
    const home = tempHome('cap');
    const fixture = c.rolloutFixture('c-resumed-two-turns.jsonl');
    const t = c.copyTranscript(fixture, c.transcriptDir(home), c.offsetAfter(fixture, '"task_complete"'));
    c.replay(home, 'codex', c.hookFiles('codex', 'a'), t, 'proc-1');
    c.copyTranscript(fixture, c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'c'), t, 'proc-2');
    assert.equal((await c.flush(home)).complete, true);
    const s = await c.status(home);
    assert.equal(s.sessions.length, 2);
    assert.notEqual(s.sessions[0]!.sessionKey, s.sessions[1]!.sessionKey);
    assert.equal(s.sessions[0]!.hostSessionId, s.sessions[1]!.hostSessionId);
    assert.deepEqual(s.sessions.map((x) => x.turns.settled), [1, 1]);
    assert.deepEqual(prompts(home).map((p) => p.body), ['Say hello', 'Say hello again']);
  });

  it('a failed Codex turn (HTTP 400) is sealed as failed; no Stop hook was needed', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('d-failed-turn-http400.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'd'), t, 'proc-d');
    await c.flush(home);
    const s = await c.status(home);
    assert.deepEqual(s.sessions[0]!.turns, { settled: 0, failed: 1, interrupted: 0, buffered: 0, incomplete: 0 });
    assert.equal(prompts(home).length, 1);
  });

  it('Claude tool, resume and continue runs: three activations, every prompt exactly once', async () => {
    const home = tempHome('cap');
    const fixture = c.claudeTranscriptFixture('02-03-04-08-tool-resume-continue-compact');
    const t = c.copyTranscript(fixture, c.transcriptDir(home));
    for (const [scenario, instance] of [['02-tool', 'p1'], ['03-resume', 'p2'], ['04-continue', 'p3']] as const) c.replay(home, 'claude', c.hookFiles('claude', scenario), t, instance);
    assert.equal((await c.flush(home)).complete, true);
    const bodies = prompts(home).map((p) => p.body);
    assert.equal(bodies.length, 3);
    assert.equal(new Set(bodies).size, 3);
    const s = await c.status(home);
    assert.equal(s.sessions.length, 3);
    assert.equal(s.recovery.total, 0);
  });

  it('SessionStart returns the frozen snapshot; compact re-attaches the same one; other events print nothing', async () => {
    const home = tempHome('cap');
    const files = c.hookFiles('codex', 'b');
    const start = await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'inst');
    assert.equal(start.code, 0, start.stderr);
    const reply = JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(reply.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(reply.hookSpecificOutput.additionalContext, /^common-memory: /);
    const prompt = await c.hookBin(home, 'codex', c.payloadFor(files[1]!, null), 'inst');
    assert.equal(prompt.stdout, '');
    const compact = await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null, { source: 'compact' }), 'inst');
    assert.equal(compact.stdout, start.stdout, 'compact re-attaches the same snapshot');
  });
});

describe('isolation and recovery', () => {
  it('a corrupted line isolates that activation only; repairing the transcript and --recover consumes the same item once', async () => {
    const home = tempHome('cap');
    const bad = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    const original = readFileSync(bad);
    appendFileSync(bad, '{"timestamp":"x", broken\n');
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), bad, 'proc-bad');
    const good = c.copyTranscript(c.rolloutFixture('d-failed-turn-http400.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'd'), good, 'proc-good');
    const first = await c.flush(home);
    assert.equal(first.complete, false);
    assert.equal(first.isolated.length, 1);
    let s = await c.status(home);
    assert.equal(s.recovery.total, 1);
    const item = s.recovery.items[0]!;
    assert.equal(item.code, 'transcript_invalid_json');
    assert.equal(s.sessions.find((x) => x.state !== 'isolated')!.turns.failed, 1, 'the healthy session flowed');

    // Still broken: the retry fails and keeps the same ID.
    const retry = await c.withLocalHost(home, (app) => app.sessionDrain({ recover: item.id }));
    assert.equal(retry.recovered, false);
    s = await c.status(home);
    assert.deepEqual([s.recovery.total, s.recovery.items[0]!.id, s.recovery.items[0]!.attempts], [1, item.id, 2]);

    writeFileSync(bad, original);
    const fixed = await c.withLocalHost(home, (app) => app.sessionDrain({ recover: item.id }));
    assert.equal(fixed.recovered, true);
    s = await c.status(home);
    assert.equal(s.recovery.total, 0);
    assert.deepEqual(prompts(home).map((p) => p.body).sort(), ['FAIL please', 'TOOL: run echo hi'].sort());
    await assert.rejects(c.withLocalHost(home, (app) => app.sessionDrain({ recover: item.id })), /already recovered/);
    assert.equal(prompts(home).length, 2, 'no duplicate after a second retry');
  });

  it('an unknown discriminator fails closed with transcript_unknown_record and keeps every envelope', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    appendFileSync(t, `${JSON.stringify({ timestamp: '2026-11-30T20:58:20.000Z', type: 'brand_new_record', payload: {} })}\n`);
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), t, 'proc');
    await c.drain(home);
    const s = await c.status(home);
    assert.equal(s.recovery.items[0]!.code, 'transcript_unknown_record');
    assert.equal(s.queue.inboxPending, c.hookFiles('codex', 'b').length);
    assert.equal(prompts(home).length, 0, 'the failing transaction rolled back whole');
  });

  it('a transcript deleted before the drain loses nothing: the hooks kept its bytes', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), t, 'proc');
    rmSync(t);
    assert.equal((await c.flush(home)).complete, true);
    assert.equal(prompts(home).length, 1);
  });

  it('a transcript prompt no UserPromptSubmit recorded is unconfirmed delivery, not evidence', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'b').filter((f) => !f.includes('UserPromptSubmit')), t, 'proc');
    await c.drain(home);
    const s = await c.status(home);
    assert.equal(s.recovery.items[0]!.code, 'delivery_unconfirmed');
    assert.equal(prompts(home).length, 0);
  });

  it('45 isolated sessions page 20 at a time: each exactly once, total never truncated', async () => {
    const home = tempHome('cap');
    const fixture = c.rolloutFixture('d-failed-turn-http400.jsonl');
    for (let i = 0; i < 45; i++) {
      const t = c.copyTranscript(fixture, `${c.transcriptDir(home)}/${i}`);
      appendFileSync(t, 'not json\n');
      c.replay(home, 'codex', c.hookFiles('codex', 'd'), t, `proc-${i}`, { session_id: `session-${i}` });
    }
    await c.drain(home);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const s = await c.status(home, cursor);
      assert.equal(s.recovery.total, 45);
      assert.ok(s.recovery.items.length <= RECOVERY_PAGE_SIZE);
      seen.push(...s.recovery.items.map((item) => item.id));
      pages += 1;
      if (!s.recovery.nextRecoveryId) break;
      cursor = s.recovery.nextRecoveryId;
    }
    assert.equal(pages, 3);
    assert.equal(seen.length, 45);
    assert.equal(new Set(seen).size, 45);
  });
});

describe('capacity', () => {
  it('over the session capacity the whole step rolls back and is raised as limit_exceeded, never filed as a bad session', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), t, 'proc');
    process.env[CAPACITY_ENV] = '1000:100000000';
    try {
      await assert.rejects(c.drain(home), (error: Error & { code?: string }) => error.code === 'limit_exceeded');
    } finally {
      delete process.env[CAPACITY_ENV];
    }
    const s = await c.status(home);
    assert.equal(s.recovery.total, 0);
    assert.equal(s.host.inbox, c.hookFiles('codex', 'b').length, 'every envelope stays queued');
    assert.equal(prompts(home).length, 0);
    assert.equal((await c.flush(home)).complete, true, 'with the default capacity it flows');
  });
});
