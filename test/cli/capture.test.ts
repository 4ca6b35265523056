// Host capture on recorded data: hooks → inbox → drain → sessions, turns, batches; delivery
// authentication; isolation and recovery; status paging; capacity. Status, a read, is taken the
// way `common-memory status` takes it (support/capture.ts status; the paging through the CLI
// in-process, support/cli-in-process.ts); the hook is the real bin.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, describe, it } from 'node:test';
import type { CaptureStatus } from '../../source/api/capture.js';
import { storeFiles } from '../../source/home.js';
import { storeTail } from '../../source/store/core/inbox-writes.js';
import { textDigest } from '../../source/ground/digests.js';
import {
  CAPACITY_ENV,
  DRAIN_FIRST_STEP_MAX_BYTES,
  DRAIN_STEP_MAX_BYTES,
  DRAIN_STEP_MAX_ENVELOPES,
  HOOK_TAIL_CHUNK_BYTES,
  RECOVERY_PAGE_SIZE,
  STATUS_SESSIONS_MAX,
} from '../../source/limits.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import * as c from '../support/capture.js';

after(() => c.closeStores());

const prompts = (home: string) => {
  const db = c.readOnly(home);
  try {
    return db
      .prepare(
        "SELECT m.body, t.state, t.turn_key AS turn FROM capture_messages m JOIN capture_turns t USING (turn_id) WHERE m.classification = 'evidence' ORDER BY m.message_id",
      )
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
    assert.deepEqual(prompts(home), [
      { body: 'TOOL: run echo hi', state: 'settled', turn: '01a22e40-371f-7d21-8c3b-bb3b52052117' },
    ]);
    const db = c.readOnly(home);
    const kinds = db.prepare('SELECT kind FROM capture_messages ORDER BY message_id').pluck().all();
    const candidate = db.prepare('SELECT state, body FROM prompt_candidates').get();
    const batches = db.prepare('SELECT count(*) FROM capture_batches').pluck().get();
    db.close();
    assert.ok(
      kinds.includes('tool_call') && kinds.includes('tool_result') && kinds.includes('answer'),
      `kinds: ${kinds.join(',')}`,
    );
    assert.deepEqual(candidate, { state: 'delivered', body: null }, 'the candidate body is cleared once delivered');
    assert.equal(batches, 1);
    const again = await c.drain(home);
    assert.equal(again.steps, 0);
    assert.deepEqual(prompts(home).length, 1);
  });

  it('a prompt with multi-byte characters and a newline is delivered and stored byte for byte', async () => {
    const home = tempHome('cap');
    const typed = 'TOOL: run echo h\u00e9llo \u{1F600}\nsecond line';
    const swap = (text: string) => text.split('TOOL: run echo hi').join(JSON.stringify(typed).slice(1, -1));
    const dir = join(dirname(home), 'utf8');
    mkdirSync(dir, { recursive: true });
    const hooks = c.hookFiles('codex', 'b').map((file) => {
      const copy = join(dir, basename(file));
      writeFileSync(copy, swap(readFileSync(file, 'utf8')));
      return copy;
    });
    const fixture = join(dir, basename(c.rolloutFixture('b-tool-call-exec-command.jsonl')));
    writeFileSync(fixture, swap(readFileSync(c.rolloutFixture('b-tool-call-exec-command.jsonl'), 'utf8')));
    const t = c.copyTranscript(fixture, c.transcriptDir(home));
    c.replay(home, 'codex', hooks, t, 'proc-u');
    assert.equal((await c.flush(home)).complete, true);
    assert.deepEqual(prompts(home), [{ body: typed, state: 'settled', turn: '01a22e40-371f-7d21-8c3b-bb3b52052117' }]);
    const db = c.readOnly(home);
    const stored = db
      .prepare(
        "SELECT typeof(body) AS type, digest, hex(body) AS hex FROM capture_messages WHERE classification = 'evidence'",
      )
      .get();
    db.close();
    assert.deepEqual(stored, {
      type: 'text',
      digest: textDigest(typed),
      hex: Buffer.from(typed, 'utf8').toString('hex').toUpperCase(),
    });
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
    assert.deepEqual(
      s.sessions.map((x) => x.turns.settled),
      [1, 1],
    );
    assert.deepEqual(
      prompts(home).map((p) => p.body),
      ['Say hello', 'Say hello again'],
    );
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
    for (const [scenario, instance] of [
      ['02-tool', 'p1'],
      ['03-resume', 'p2'],
      ['04-continue', 'p3'],
    ] as const)
      c.replay(home, 'claude', c.hookFiles('claude', scenario), t, instance);
    assert.equal((await c.flush(home)).complete, true);
    const bodies = prompts(home).map((p) => p.body);
    assert.equal(bodies.length, 3);
    assert.equal(new Set(bodies).size, 3);
    const s = await c.status(home);
    assert.equal(s.sessions.length, 3);
    assert.equal(s.recovery.total, 0);
  });

  it('a Claude subagent transcript is captured at SubagentStop as its own session: all context, sealed, a broken one isolates only itself', async () => {
    const home = tempHome('cap');
    const session = '5d09d7e7-e79b-4377-a984-1912cce194df';
    const fixture = `${c.FIXTURES}transcripts/claude-subagent/${session}/subagents/agent-a1b2c3d4e5f6.jsonl`;
    const dir = `${c.transcriptDir(home)}/${session}/subagents`;
    const subagent = c.copyTranscript(fixture, dir);
    const main = c.copyTranscript(c.claudeTranscriptFixture('01-plain'), c.transcriptDir(home));
    const stop = (agentPath: string) =>
      JSON.stringify({
        session_id: session,
        transcript_path: main,
        cwd: '/home/user/project',
        hook_event_name: 'SubagentStop',
        prompt_id: 'p-agent',
        agent_id: 'a1b2c3d4e5f6',
        agent_type: 'general-purpose',
        agent_transcript_path: agentPath,
        stop_hook_active: false,
        last_assistant_message: 'done',
      });
    c.hookInProcess(home, 'claude', stop(subagent), 'p1');
    await c.drain(home);
    const sealedRows = () => {
      const db = c.readOnly(home);
      try {
        return db
          .prepare(
            `SELECT a.host_session_id AS session, t.state, t.batch_id IS NOT NULL AS inBatch, m.classification FROM capture_messages m JOIN capture_turns t USING (turn_id)
             JOIN capture_activations a ON a.activation_id = t.activation_id ORDER BY m.message_id`,
          )
          .all() as Array<{ session: string; state: string; inBatch: number; classification: string }>;
      } finally {
        db.close();
      }
    };
    const rows = sealedRows();
    assert.ok(rows.length > 0, 'the subagent transcript has messages');
    assert.deepEqual(
      [...new Set(rows.map((row) => [row.state, row.inBatch].join(':')))],
      ['settled:1'],
      'every turn of it is sealed: settled, in a batch',
    );
    assert.ok(rows.every((row) => row.session === `${session}:agent-a1b2c3d4e5f6`));
    assert.ok(
      rows.every((row) => row.classification === 'context'),
      'nothing a subagent wrote counts as user evidence',
    );
    const s = await c.status(home);
    assert.equal(s.recovery.total, 0);

    // A second subagent whose file is corrupt: one recovery item for it; the first stays sealed.
    const brokenDir = `${c.transcriptDir(home)}/${session}/subagents`;
    const broken = `${brokenDir}/agent-b2.jsonl`;
    writeFileSync(
      broken,
      readFileSync(fixture, 'utf8').replaceAll('a1b2c3d4e5f6', 'b2').replace('"type":"user"', '"type":"user" oops'),
    );
    c.hookInProcess(home, 'claude', stop(broken).replaceAll('a1b2c3d4e5f6', 'b2'), 'p1');
    await c.drain(home);
    const after = await c.status(home);
    assert.equal(after.recovery.total, 1);
    assert.equal(after.recovery.items[0]!.code, 'transcript_invalid_json');
    assert.deepEqual(sealedRows(), rows, 'the first subagent stays sealed, unchanged');
  });

  it('SessionStart returns the frozen snapshot; compact re-attaches the same one; other events print nothing', async () => {
    const home = tempHome('cap');
    const files = c.hookFiles('codex', 'b');
    // A user-scope note, so there is something to give (hook-snapshot.test.ts covers the selection).
    mkdirSync(join(home, 'memory', 'work_fact'), { recursive: true });
    writeFileSync(
      join(home, 'memory', 'work_fact', 'note.md'),
      '---\nid: note\ntype: work_fact\ntitle: A note\n---\nThe body.\n',
    );
    assert.equal((await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: tmpdir() })).code, 0);
    const start = await c.hookBin(home, 'codex', c.payloadFor(files[0]!, null), 'inst');
    assert.equal(start.code, 0, start.stderr);
    const reply = JSON.parse(start.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    assert.equal(reply.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.match(reply.hookSpecificOutput.additionalContext, /^<common-memory-notes>\n[\s\S]*\[note\] \(user/);
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
    assert.deepEqual(
      prompts(home)
        .map((p) => p.body)
        .sort(),
      ['FAIL please', 'TOOL: run echo hi'].sort(),
    );
    await assert.rejects(
      c.withLocalHost(home, (app) => app.sessionDrain({ recover: item.id })),
      /already recovered/,
    );
    assert.equal(prompts(home).length, 2, 'no duplicate after a second retry');
    // The host checks the form too (a caller other than the CLI): a usage error, not "no such item".
    await assert.rejects(
      c.withLocalHost(home, (app) => app.sessionDrain({ recover: 'x!' })),
      (error: Error & { code?: string }) =>
        error.code === 'invalid_input' && /"x!" is not a recovery ID \(rec-<n>\)/.test(error.message),
    );
  });

  it('an unknown discriminator fails closed with transcript_unknown_record and keeps every envelope', async () => {
    const home = tempHome('cap');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
    appendFileSync(
      t,
      `${JSON.stringify({ timestamp: '2026-11-30T20:58:20.000Z', type: 'brand_new_record', payload: {} })}\n`,
    );
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
    c.replay(
      home,
      'codex',
      c.hookFiles('codex', 'b').filter((f) => !f.includes('UserPromptSubmit')),
      t,
      'proc',
    );
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

  it('a <task-notification> prompt is matched as context and consumed; an unmatched prompt is reported as unconfirmed', async () => {
    const home = tempHome('cap');
    const fixture = join(c.FIXTURES, 'transcripts', 'claude-notification-interrupt-open.jsonl');
    const t = c.copyTranscript(fixture, c.transcriptDir(home));
    const session = '5d09d7e7-e79b-4377-a984-1912cce194df';
    const [start, submit] = c.hookFiles('claude', '02-tool');
    const ups = (prompt: string) => c.payloadFor(submit!, t, { session_id: session, prompt });
    c.hookInProcess(home, 'claude', c.payloadFor(start!, t, { session_id: session }), 'p');
    c.hookInProcess(home, 'claude', ups('USE_BASH please run echo hi'), 'p');
    const notification =
      '<task-notification>\n<task-id>a1b2c3</task-id>\n<status>completed</status>\n</task-notification>';
    c.hookInProcess(home, 'claude', ups(notification), 'p');
    c.hookInProcess(home, 'claude', ups('delete the build dir'), 'p');
    c.hookInProcess(home, 'claude', ups('never mind, just list it'), 'p');
    c.hookInProcess(home, 'claude', ups('a prompt the transcript never shows'), 'p');
    c.hookInProcess(
      home,
      'claude',
      c.payloadFor(start!, t, { session_id: session, hook_event_name: 'SessionEnd', reason: 'other' }),
      'p',
    );
    c.closeStores();
    await c.drain(home);
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    const candidates = db
      .prepare('SELECT digest, state, body FROM prompt_candidates ORDER BY candidate_id')
      .all() as Array<{ digest: string; state: string; body: string | null }>;
    db.close();
    const byDigest = (text: string) => candidates.find((row) => row.digest === textDigest(text));
    assert.deepEqual(
      byDigest(notification),
      { digest: textDigest(notification), state: 'delivered', body: null },
      'matched as context, body freed',
    );
    assert.equal(byDigest('a prompt the transcript never shows')?.state, 'pending');
    const s = await c.status(home);
    assert.equal(s.queue.candidatesAsContext, 1);
    // The prompt no transcript shows, and the last one, whose turn never settled (incomplete).
    assert.equal(
      s.queue.candidatesUnconfirmed,
      2,
      'reported as unconfirmed delivery once its session has ended and drained',
    );
    assert.equal(s.sessions[0]!.turns.incomplete, 1);
  });

  it('status pages every session with --after-session: each once, newest first, then nextSessionKey null', async () => {
    const home = tempHome('cap');
    const count = STATUS_SESSIONS_MAX * 2 + 7;
    const start = c.hookFiles('codex', 'a').filter((f) => f.includes('SessionStart'));
    for (let i = 0; i < count; i++) c.replay(home, 'codex', start, null, `proc-${i}`, { session_id: `session-${i}` });
    c.closeStores();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const result = await runCliInProcess([
        'status',
        '--json',
        '--home',
        home,
        ...(cursor ? ['--after-session', cursor] : []),
      ]);
      assert.equal(result.code, 0, result.stderr);
      const page = JSON.parse(result.stdout) as CaptureStatus;
      assert.equal(page.sessionsTotal, count);
      seen.push(...page.sessions.map((s) => s.hostSessionId));
      if (page.nextSessionKey === null) break;
      assert.ok(pages < 3, 'three pages: 50, 50 and 7');
      cursor = page.nextSessionKey;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: count }, (_, i) => `session-${count - 1 - i}`),
    );
    const bad = await runCliInProcess(['status', '--json', '--home', home, '--after-session', 'no-such-session']);
    assert.equal(bad.code, 2);
    assert.match(JSON.parse(bad.stderr).error.message, /not a session key/);
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

/** The tails of longSession: `sizes[i]` recorded tool turns (about 15 KB each) per envelope. */
function sessionTails(sizes: number[]): { tails: string[]; turns: number; session: string } {
  const lines = readFileSync(c.rolloutFixture('b-tool-call-exec-command.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const first = lines.findIndex((line) => line.includes('"task_started"'));
  const block = lines.slice(first, lines.findIndex((line) => line.includes('"task_complete"')) + 1);
  const turnId = (JSON.parse(block[0]!) as { payload: { turn_id: string } }).payload.turn_id;
  const session = (JSON.parse(lines[0]!) as { payload: { id: string } }).payload.id;
  let ordinal = 1;
  let turn = 0;
  const turnText = () => {
    const id = `long-${turn}`;
    const text = block
      .map((line) =>
        line
          .split(turnId)
          .join(id)
          .replace(/"ordinal":\d+/, `"ordinal":${ordinal++}`)
          .replace(/"id":"(msg|rs|fc)_[^"]*"/g, (_m, p: string) => `"id":"${p}_${turn}_${ordinal}"`),
      )
      .join('\n');
    turn += 1;
    return `${text}\n`;
  };
  const tails = sizes.map(
    (count, i) => (i === 0 ? `${lines[0]}\n` : '') + Array.from({ length: count }, turnText).join(''),
  );
  return { tails, turns: turn, session };
}

/**
 * The drain's steps over tails of these byte lengths (readPendingEnvelopes): up to
 * DRAIN_STEP_MAX_ENVELOPES envelopes and at least one, stopping before the step's bytes would pass
 * DRAIN_FIRST_STEP_MAX_BYTES for a run's first step and DRAIN_STEP_MAX_BYTES after it.
 */
function planSteps(bytes: number[]): number[] {
  const steps: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const max = steps.length === 0 ? DRAIN_FIRST_STEP_MAX_BYTES : DRAIN_STEP_MAX_BYTES;
    let taken = 0;
    let sum = 0;
    while (
      i + taken < bytes.length &&
      taken < DRAIN_STEP_MAX_ENVELOPES &&
      (taken === 0 || sum + bytes[i + taken]! <= max)
    )
      sum += bytes[i + taken++]!;
    steps.push(taken);
    i += taken;
  }
  return steps;
}

// The drain plans step N+1 while the writer applies step N, and reads tails in bounded rows:
// a session longer than one step, with tails spanning many rows, must come out exactly as a
// sequential drain would make it — and a fault in a later step must leave the earlier ones committed.
describe('drain steps of a long session', () => {
  /**
   * One activation whose rollout arrives in `sizes[i]` turns per Stop envelope; `corrupt` breaks
   * envelope i; `unrecorded` is a turn whose UserPromptSubmit candidate was never written.
   */
  function longSession(
    sizes: number[],
    corrupt?: number,
    unrecorded?: number,
  ): { home: string; turns: number; steps: number[]; envelopes: number[] } {
    const { tails, turns: turn, session } = sessionTails(sizes);
    if (corrupt !== undefined) tails[corrupt] = tails[corrupt]!.replace('"ordinal":', '"ordinal"!'); // same length, not JSON
    const home = tempHome('cap-long');
    mkdirSync(home, { recursive: true });
    const db = openDatabase(storeFiles(home).core);
    migrate(db, coreSchema);
    const prompt = 'TOOL: run echo hi';
    db.transaction(() => {
      const watch = db
        .prepare(
          "INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('codex', '/gone/rollout.jsonl', ?)",
        )
        .run(session).lastInsertRowid;
      const activation = db
        .prepare(
          "INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, watch_id, started_at_ms) VALUES ('long', 'codex', 'p', ?, 1, 'ended', ?, 0)",
        )
        .run(session, watch).lastInsertRowid;
      const inbox = db.prepare(
        "INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id, process_instance, watch_id, tail_state, tail_from, tail_to) VALUES ('codex', 'Stop', 0, '{}', 'pending', ?, ?, 'p', ?, 'captured', ?, ?)",
      );
      const candidate = db.prepare(
        "INSERT INTO prompt_candidates (activation_id, client, host_session_id, turn_ref, digest, body, inbox_id, state) VALUES (?, 'codex', ?, ?, ?, ?, ?, 'pending')",
      );
      let from = 0;
      let done = 0;
      tails.forEach((tail, i) => {
        const bytes = Buffer.from(tail);
        const inboxId = Number(inbox.run(activation, session, watch, from, from + bytes.length).lastInsertRowid);
        storeTail(db, inboxId, bytes);
        for (let k = 0; k < sizes[i]!; k++)
          if (done + k !== unrecorded)
            candidate.run(activation, session, `long-${done + k}`, textDigest(prompt), prompt, inboxId);
        done += sizes[i]!;
        from += bytes.length;
      });
      db.prepare('UPDATE capture_watches SET captured_bytes = ? WHERE watch_id = ?').run(from, watch);
    })();
    db.close();
    const envelopes = planSteps(tails.map((tail) => Buffer.byteLength(tail)));
    let at = 0;
    const steps = envelopes.map((n) => sizes.slice(at, (at += n)).reduce((a, b) => a + b, 0));
    return { home, turns: turn, steps, envelopes };
  }

  const sizes = Array.from({ length: 2 * DRAIN_STEP_MAX_ENVELOPES + 3 }, (_, i) => (i % 40 === 3 ? 40 : 1)); // 40 turns ≈ 600 KB: a tail of several rows
  const count = (home: string, sql: string) => {
    const db = c.readOnly(home);
    try {
      return db.prepare(sql).pluck().get() as number;
    } finally {
      db.close();
    }
  };

  it('every turn sealed once, in order, across several steps and multi-row tails; tails deleted', async () => {
    const { home, turns, steps } = longSession(sizes);
    assert.ok(steps.length >= 3 && HOOK_TAIL_CHUNK_BYTES < 40 * 15_000);
    const report = await c.drain(home);
    assert.deepEqual(report.isolated, []);
    assert.equal(report.steps, steps.length);
    assert.equal(report.sealedTurns, turns);
    assert.deepEqual(
      prompts(home).map((p) => p.turn),
      Array.from({ length: turns }, (_, i) => `long-${i}`),
    );
    assert.equal(count(home, "SELECT count(*) FROM prompt_candidates WHERE state = 'pending'"), 0);
    assert.equal(count(home, "SELECT count(*) FROM inbox WHERE state = 'pending'"), 0);
    assert.equal(count(home, 'SELECT count(*) FROM inbox_tails'), 0);
  });

  it('a fault in a later step isolates at that step; the steps before it stay committed, nothing after', async () => {
    const first = planSteps(sessionTails(sizes).tails.map((tail) => Buffer.byteLength(tail)))[0]!;
    const bad = first + 5; // in the second step
    const { home, steps, envelopes } = longSession(sizes, bad);
    assert.ok(envelopes.length >= 3 && bad < envelopes[0]! + envelopes[1]!);
    const report = await c.drain(home);
    assert.equal(report.isolated.length, 1);
    assert.equal(report.sealedTurns, steps[0]);
    assert.equal(prompts(home).length, steps[0]);
    const item = (await c.status(home)).recovery.items[0]!;
    assert.equal(item.code, 'transcript_invalid_json');
    // The item names the first envelope of the failing step: everything from there stays queued with its bytes.
    assert.equal(count(home, "SELECT count(*) FROM inbox WHERE state = 'pending'"), sizes.length - envelopes[0]!);
    assert.equal(
      count(home, "SELECT min(id) FROM inbox WHERE state = 'pending'"),
      count(home, 'SELECT inbox_id FROM recovery_items'),
    );
    assert.ok(count(home, 'SELECT count(*) FROM inbox_tails') > 0);
  });

  it('a prompt without a candidate in a later step is rejected by the writer in that step: earlier steps stay committed', async () => {
    const { home, steps, envelopes } = longSession(sizes, undefined, steps0(sizes) + 2);
    const report = await c.drain(home);
    assert.equal(report.isolated.length, 1);
    assert.equal(report.sealedTurns, steps[0]);
    const item = (await c.status(home)).recovery.items[0]!;
    assert.equal(item.code, 'delivery_unconfirmed');
    assert.match(item.detail, /turn long-\d+: the user message at line \d+ matches no prompt/);
    assert.equal(count(home, "SELECT count(*) FROM inbox WHERE state = 'pending'"), sizes.length - envelopes[0]!);
    assert.equal(
      count(home, "SELECT min(id) FROM inbox WHERE state = 'pending'"),
      count(home, 'SELECT inbox_id FROM recovery_items'),
    );
    // The candidates of the rejected step are still there, waiting for a retry.
    assert.equal(count(home, "SELECT count(*) FROM prompt_candidates WHERE state = 'delivered'"), steps[0]);
  });
});

/** Turns in the first drain step of longSession(sizes). */
const steps0 = (sizes: number[]): number => {
  const first = planSteps(sessionTails(sizes).tails.map((tail) => Buffer.byteLength(tail)))[0]!;
  return sizes.slice(0, first).reduce((a, b) => a + b, 0);
};
