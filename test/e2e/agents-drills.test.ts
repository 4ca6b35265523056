// Driven agents: seed 003 fault drills B3 2, 4, 5, 6, bad input from the child, and the
// acceptance groups B–D of seed 003 §8, against a real host (writer thread, agents thread, pi
// children) whose pi is the fake-pi double replaying recorded pi 0.73.1 output. Every assertion
// is about committed facts read back through the application API (or the CLI with --json);
// doctor runs after every drill. Drills that kill the host itself live in agents-faults.test.ts.
// The CLI's calls are made in-process (support/cli-in-process.ts), to the host's API as the bin's
// would be; `log --follow`, which is stopped with a signal, and calls made at once are the real bin.
// Its acceptance groups are suites with a 60 s budget each, driving a host and several pi children
// at once. It ran alone after the pool (marked serial) while it took about 140 s of CPU and ran out
// of that budget beside other e2e files; at about 20 s of CPU it runs in the pool: beside five
// other heavy files at load 8-9 on two cores its longest suite took 13-15 s, and alone 12 s.
// The CLI parts need the build: npm run build
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import type { Application } from '../../source/api/application.js';
import type { JournalRow } from '../../source/api/history.js';
import type { PromptReceipt } from '../../source/api/agents.js';
import { beginGeneration, createAgent, markGenerationRunning } from '../../source/store/core/agents.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { runDoctor } from '../../source/store/doctor.js';
import { migrate } from '../../source/store/migrations.js';
import { ingestPiRecord, type IngestInput } from '../../source/store/core/pi-ingest.js';
import { admitPrompt, markAttempted } from '../../source/store/core/prompts.js';
import { readHeads, readStoreId } from '../../source/store/core/sequences.js';
import { commit } from '../../source/store/transaction.js';
import {
  assertIntent,
  assertProvenance,
  childHost,
  doctorCli,
  ended,
  generationState,
  heldAt,
  HELLO,
  journal,
  piEnv,
  SIMPLE,
  SIMPLE_LINES,
  simpleLine,
  stopHost,
  timeline,
  withFakeHost,
} from '../support/agents-drill-kit.js';
import { collect, runCli, startCli, tempHome, waitFor } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { holdGate, type FakePiScript } from '../support/fake-pi.js';
import { fixturePath } from '../support/pi-transcript.js';
import { codeOf } from '../support/results.js';

const TIMEOUT = { timeout: 60_000 };
const ANSWERS: FakePiScript = { onPrompt: { replay: SIMPLE } };
const NEVER_ANSWERS: FakePiScript = { answerCommands: false };

const kinds = (rows: JournalRow[]) => rows.map((row) => row.kind);
const payload = <T>(row: JournalRow | undefined) => row?.payload as T;

/** Starts agent `name` on the fake and admits HELLO under `operationId`. */
async function startAndPrompt(
  app: Application,
  name: string,
  operationId: string,
  text = HELLO,
): Promise<{ agentId: string; receipt: PromptReceipt }> {
  const agent = await app.createAgent({ name });
  await app.startAgent({ agent: name });
  const receipt = await app.prompt({ agent: name, text, operationId });
  return { agentId: agent.agentId, receipt };
}

describe('B3 drills with the fake pi', TIMEOUT, () => {
  it('B3.2 the child is killed with SIGKILL mid-answer: what it wrote is kept, the prompt and generation are interrupted, no answer is invented', async () => {
    const script: FakePiScript = {
      onPrompt: { replay: SIMPLE, maxLines: SIMPLE_LINES.throughUpdates, then: 'sigkill' },
    };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'victim', 'op-kill');
        const op = await ended(app, 'op-kill');
        assert.equal(op.state, 'interrupted');
        const view = await generationState(app, 'victim', ['interrupted']);
        assert.match(view.generation!.endReason!, /pi exited unexpectedly/);
        const rows = await journal(app, agentId);
        const stdout = rows.filter((row) => row.wireStream === 'stdout');
        assert.deepEqual(
          stdout.map((row) => row.wireOrdinal),
          Array.from({ length: SIMPLE_LINES.throughUpdates }, (_, i) => i + 1),
          'every record the child wrote before dying is in the journal',
        );
        assert.equal(
          payload<{ signal: string }>(rows.find((row) => row.kind === 'generation.interrupted')).signal,
          'SIGKILL',
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user'],
          'no assistant row is invented from the partial stream',
        );
        // The agent starts again as a new generation (a fresh pi, ordinals from 1 again).
        const again = await app.startAgent({ agent: 'victim' });
        assert.deepEqual(
          [again.generation!.number, again.generation!.state, again.activeOperationId],
          [2, 'running', null],
        );
      },
      { home: tempHome('b32') },
    );
  });

  it('B3.4 an oversized record: a bounded pi.oversized event, the generation stops, polls do not hang, the error is visible in agent list', async () => {
    const limit = 4096;
    const script: FakePiScript = { onPrompt: { replay: SIMPLE, maxLines: 3, oversizedBytes: 50_000 } };
    const home = tempHome('b34');
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'big', 'op-big');
        const op = await ended(app, 'op-big');
        assert.equal(op.state, 'interrupted');
        await generationState(app, 'big', ['interrupted']);
        const rows = await journal(app, agentId);
        const oversized = rows.filter((row) => row.kind === 'pi.oversized');
        assert.equal(oversized.length, 1);
        assert.deepEqual(
          oversized[0]!.payload,
          { stream: 'stdout', byteLength: 50_000, limit },
          'only the size and the limit, never the content',
        );
        assert.equal(oversized[0]!.wireOrdinal, 4);
        assert.ok(JSON.stringify(oversized[0]!.payload).length < 100);
        assert.match(
          payload<{ reason: string }>(rows.find((row) => row.kind === 'generation.stopping')).reason,
          /oversized stdout line/,
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user'],
        );
        // Later polls: every page comes back promptly, and an empty page at the head.
        const started = Date.now();
        const head = (await app.status()).heads.journal;
        for (let after = 0; after < head; after += 1) await app.journal({ after, limit: 1 });
        assert.equal((await app.journal({ after: head, limit: 100 })).rows.length, 0);
        assert.ok(Date.now() - started < 5_000, 'paging over the oversized event does not stall');
        const listed = await runCliInProcess(['agent', 'list', '--home', home]);
        assert.equal(listed.code, 0, listed.stderr);
        assert.match(listed.stdout, /big .*generation 1 interrupted.*oversized stdout line/);
      },
      { home, env: { COMMON_MEMORY_DRILL_RECORD_BYTES: String(limit) } },
    );
  });

  it('B3.5 malformed JSON from the child: raw wrapper + history.projection_failed + stopping, then journal-only draining', async () => {
    const malformed = '{"type":"message_update", oops';
    const script: FakePiScript = {
      onPrompt: {
        replay: SIMPLE,
        maxLines: SIMPLE_LINES.throughUpdates,
        rawLines: [malformed, simpleLine(13), simpleLine(15)],
      },
    };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId, receipt } = await startAndPrompt(app, 'garbled', 'op-garbled');
        const op = await ended(app, 'op-garbled');
        assert.equal(op.state, 'interrupted');
        const view = await generationState(app, 'garbled', ['interrupted']);
        assert.match(view.generation!.projectionError!, /invalid-json/);
        const rows = await journal(app, agentId);
        const unparsed = rows.find((row) => row.kind === 'pi.unparsed')!;
        assert.equal(payload<{ raw: string }>(unparsed).raw, malformed, 'the line is kept as delivered');
        assert.match(payload<{ parseError: string }>(unparsed).parseError, /JSON/);
        const failed = rows.find((row) => row.kind === 'history.projection_failed')!;
        assert.equal(failed.sequence, unparsed.sequence + 1, 'in the same transaction as the raw row');
        assert.deepEqual(
          payload<{ journalSequence: number; operationId: string }>(failed).journalSequence,
          unparsed.sequence,
        );
        assert.equal(payload<{ operationId: string }>(failed).operationId, 'op-garbled');
        assert.deepEqual(
          kinds(rows.filter((row) => row.sequence > failed.sequence && row.sequence <= failed.sequence + 2)),
          ['generation.stopping', 'prompt.interrupted'],
        );
        // Journal-only drain: the complete answer that came after the fault is evidence, never a timeline row.
        const later = rows.filter((row) => row.sequence > failed.sequence && row.wireStream === 'stdout');
        assert.deepEqual(kinds(later).slice(0, 2), ['pi.message_end', 'pi.agent_end']);
        assert.ok(later.every((row) => row.canonicalMessageId === null));
        assert.deepEqual(
          (await timeline(app)).map((row) => row.messageId),
          [receipt.messageId],
        );
        // A fresh generation projects again.
        const again = await app.startAgent({ agent: 'garbled' });
        assert.equal(again.generation!.projectionError, null);
      },
      { home: tempHome('b35') },
    );
  });

  it('B3.6 a lost reply: the admitted prompt goes on, the retry with the same ID gets the original receipt; closing log --follow leaves the host alone', async () => {
    // The fake holds its answer after the user echo until the retry below is done.
    const gate = holdGate();
    const script: FakePiScript = {
      onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
    };
    const home = tempHome('b36');
    await withFakeHost(
      script,
      async ({ app, host }) => {
        const agent = await app.createAgent({ name: 'a' });
        await app.startAgent({ agent: 'a' });
        // A client sends the prompt and goes away without reading the reply.
        const body = JSON.stringify({ text: HELLO, operationId: 'op-lost' });
        const sent = request({
          host: '127.0.0.1',
          port: host.info.port!,
          method: 'POST',
          path: '/v1/agents/a/prompts',
          headers: {
            authorization: `Bearer ${host.info.token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        });
        sent.on('error', () => undefined);
        sent.end(body, () => sent.destroy());
        const admitted = await waitFor('the admission', async () =>
          (await codeOf(app.operation({ operationId: 'op-lost' }))) === 'no error'
            ? app.operation({ operationId: 'op-lost' })
            : undefined,
        );
        // A follower comes and goes (Ctrl+C), while the prompt is still being answered.
        const follower = startCli(['log', '--follow', '--json', '--home', home]);
        let followed = '';
        follower.stdout!.setEncoding('utf8').on('data', (chunk: string) => (followed += chunk));
        await waitFor('the follower to print', () => (followed.includes('op-lost') ? true : undefined));
        follower.kill('SIGINT');
        const closed = await collect(follower);
        assert.notEqual(closed.signal, 'SIGKILL');
        // The retry, while the agent is still busy with that very prompt (held mid-answer), is a replay.
        await heldAt(app, agent.agentId, SIMPLE_LINES.throughUserEcho);
        assert.equal(
          (await app.listAgents()).find((view) => view.name === 'a')?.activeOperationId,
          'op-lost',
          'still busy with op-lost',
        );
        const retry = await app.prompt({ agent: 'a', text: HELLO, operationId: 'op-lost' });
        assert.deepEqual(retry, {
          storeId: (await app.status()).storeId,
          operationId: 'op-lost',
          sequence: admitted.journalSequence,
          replayed: true,
          messageId: admitted.userMessageId!,
        });
        await heldAt(app, agent.agentId, SIMPLE_LINES.throughUserEcho);
        gate.release();
        const op = await ended(app, 'op-lost');
        assert.equal(op.outcome, 'answered', 'the disconnect did not cancel admitted work');
        const rows = await timeline(app);
        assert.deepEqual(
          rows.map((row) => [row.role, row.operationId]),
          [
            ['user', 'op-lost'],
            ['assistant', 'op-lost'],
          ],
          'no duplicate user row',
        );
        const all = await journal(app);
        assert.equal(all.filter((row) => row.kind === 'prompt.requested').length, 1);
        assert.equal(all.filter((row) => row.kind === 'prompt.attempted').length, 1, 'sent to pi exactly once');
        // A new client reads the whole history from the start.
        const fresh = await runCliInProcess(['timeline', '--json', '--home', home]);
        assert.deepEqual(
          JSON.parse(fresh.stdout).rows.map((row: { messageId: string }) => row.messageId),
          rows.map((row) => row.messageId),
        );
      },
      { home },
    );
  });
});

describe('bad input from the child: kept as evidence where it can be, reported, never a timeline row', TIMEOUT, () => {
  it('an unknown event type is kept verbatim and is a projection failure', async () => {
    const unknown = '{"type":"brand_new_event","detail":{"x":1}}';
    const script: FakePiScript = {
      onPrompt: { replay: SIMPLE, maxLines: SIMPLE_LINES.throughUpdates, rawLines: [unknown] },
    };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-unknown');
        assert.equal((await ended(app, 'op-unknown')).state, 'interrupted');
        await generationState(app, 'a', ['interrupted']);
        const rows = await journal(app, agentId);
        const raw = rows.find((row) => row.kind === 'pi.brand_new_event')!;
        assert.deepEqual(raw.payload, JSON.parse(unknown));
        assert.match(
          payload<{ reason: string }>(rows.find((row) => row.kind === 'history.projection_failed')).reason,
          /unknown-type/,
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user'],
        );
      },
      { home: tempHome('unknown') },
    );
  });

  it('a message_end with no active operation: the prompt before it stays answered, the orphan is journal evidence and a projection failure', async () => {
    const script: FakePiScript = { onPrompt: { replay: SIMPLE, rawLines: [simpleLine(13)] } };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-first');
        const op = await ended(app, 'op-first');
        assert.equal(op.state, 'settled');
        assert.equal(op.outcome, 'answered');
        await generationState(app, 'a', ['interrupted']);
        const rows = await journal(app, agentId);
        const settled = rows.find((row) => row.kind === 'prompt.settled')!;
        const orphan = rows.find((row) => row.sequence > settled.sequence && row.kind === 'pi.message_end')!;
        assert.equal(orphan.operationId, null, 'attributed to no operation');
        assert.equal(orphan.canonicalMessageId, null);
        assert.match(
          payload<{ reason: string }>(rows.find((row) => row.kind === 'history.projection_failed')).reason,
          /unowned-message/,
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user', 'assistant'],
        );
      },
      { home: tempHome('orphan') },
    );
  });

  it('stderr noise is kept as pi.stderr, in order, and makes no timeline row', async () => {
    const noise = ['warning: something odd', 'Could not parse message into JSON: {x'];
    const script: FakePiScript = { startupStderr: noise, onPrompt: { replay: SIMPLE, stderr: ['during the prompt'] } };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-noise');
        assert.equal((await ended(app, 'op-noise')).outcome, 'answered');
        const stderr = (await journal(app, agentId)).filter((row) => row.wireStream === 'stderr');
        assert.deepEqual(
          stderr.map((row) => [row.kind, row.wireOrdinal, payload<{ text: string }>(row).text]),
          [
            ['pi.stderr', 1, noise[0]],
            ['pi.stderr', 2, noise[1]],
            ['pi.stderr', 3, 'during the prompt'],
          ],
        );
        assert.ok(stderr.every((row) => row.canonicalMessageId === null));
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user', 'assistant'],
        );
        assert.equal((await app.listAgents())[0]!.generation!.state, 'running', 'stderr is no fault');
      },
      { home: tempHome('stderr') },
    );
  });

  it('a child that exits at once: the generation is interrupted with its exit code and stderr; a prompt gets a clear error', async () => {
    const script: FakePiScript = { startupStderr: ['fatal: no model configured'], exitAtOnce: 3 };
    await withFakeHost(
      script,
      async ({ app }) => {
        const agent = await app.createAgent({ name: 'a' });
        await app.startAgent({ agent: 'a' });
        const view = await generationState(app, 'a', ['interrupted']);
        assert.match(view.generation!.endReason!, /pi exited unexpectedly/);
        const rows = await journal(app, agent.agentId);
        assert.equal(
          payload<{ exitCode: number }>(rows.find((row) => row.kind === 'generation.interrupted')).exitCode,
          3,
        );
        assert.equal(
          payload<{ text: string }>(rows.find((row) => row.kind === 'pi.stderr')).text,
          'fatal: no model configured',
        );
        assert.equal(
          await codeOf(app.prompt({ agent: 'a', text: HELLO, operationId: 'op-dead' })),
          'agent_not_running',
        );
        assert.equal(await codeOf(app.operation({ operationId: 'op-dead' })), 'not_found');
        assert.deepEqual(await timeline(app), []);
      },
      { home: tempHome('exits') },
    );
  });

  it('a child that never answers: the prompt is given up after the accept timeout, interrupted, never resent', async () => {
    await withFakeHost(
      NEVER_ANSWERS,
      async ({ app }) => {
        const { agentId, receipt } = await startAndPrompt(app, 'mute', 'op-mute');
        assert.equal((await app.operation({ operationId: 'op-mute' })).state, 'attempted');
        const op = await ended(app, 'op-mute', 15_000);
        assert.equal(op.state, 'interrupted');
        const view = await generationState(app, 'mute', ['interrupted']);
        assert.match(view.generation!.endReason!, /did not accept the prompt in time/);
        const rows = await journal(app, agentId);
        assert.equal(rows.filter((row) => row.kind === 'prompt.attempted').length, 1);
        assert.ok(!rows.some((row) => row.wireStream !== null), 'nothing came back, nothing was made up');
        assert.deepEqual(
          (await timeline(app)).map((row) => row.messageId),
          [receipt.messageId],
        );
      },
      { home: tempHome('mute'), env: { COMMON_MEMORY_DRILL_ACCEPT_MS: '1500' } },
    );
  });
});

describe('acceptance B: one agent', TIMEOUT, () => {
  it('B1 admission: a canonical user row at once, from the intent; the operation is attempted', async () => {
    await withFakeHost(
      NEVER_ANSWERS,
      async ({ app }) => {
        const { agentId, receipt } = await startAndPrompt(app, 'a', 'op-b1');
        const rows = await timeline(app);
        assert.equal(rows.length, 1);
        assert.deepEqual(
          [rows[0]!.role, rows[0]!.messageId, rows[0]!.sourceJournalSequence, rows[0]!.operationId],
          ['user', receipt.messageId, receipt.sequence, 'op-b1'],
        );
        const agentRows = await journal(app, agentId);
        const intent = agentRows.find((row) => row.sequence === receipt.sequence)!;
        assert.equal(intent.kind, 'prompt.requested');
        assert.equal(intent.canonicalMessageId, receipt.messageId);
        assert.equal(
          agentRows.find((row) => row.sequence > receipt.sequence)?.kind,
          'prompt.attempted',
          'prepared, then attempted, in separate commits',
        );
        const op = await app.operation({ operationId: 'op-b1' });
        assert.equal(op.state, 'attempted');
        assertIntent(agentRows, op);
        assertProvenance(agentRows, rows);
        // The mute fake never accepts: given up after the (drill-short) accept timeout, and the user row stays.
        assert.equal((await ended(app, 'op-b1')).state, 'interrupted');
        assert.deepEqual(await timeline(app), rows);
      },
      { home: tempHome('acc-b1'), env: { COMMON_MEMORY_DRILL_ACCEPT_MS: '2000' } },
    );
  });

  it('B2 user echo: the journal grows, the timeline does not; the echo links to the admitted user row', async () => {
    const script: FakePiScript = { onPrompt: { replay: SIMPLE, maxLines: SIMPLE_LINES.throughUserEcho } };
    await withFakeHost(
      script,
      async ({ app }) => {
        const { receipt } = await startAndPrompt(app, 'a', 'op-b2');
        const echo = await waitFor('the echo', async () =>
          (await journal(app)).find((row) => row.kind === 'pi.message_end'),
        );
        assert.equal(echo.canonicalMessageId, receipt.messageId);
        assert.equal((await app.status()).heads.timeline, 1);
        const view = await app.message({ messageId: receipt.messageId });
        assert.deepEqual(kinds(view.observations), ['prompt.requested', 'pi.message_end']);
        assert.equal(view.message.sourceJournalSequence, receipt.sequence, 'the echo never rewrites the source');
        assert.equal((await app.operation({ operationId: 'op-b2' })).state, 'accepted');
      },
      { home: tempHome('acc-b2') },
    );
  });

  it('B3 the answer: raw row and canonical row committed together; partial records never reach the timeline', async () => {
    await withFakeHost(
      ANSWERS,
      async ({ app }) => {
        const { receipt } = await startAndPrompt(app, 'a', 'op-b3');
        await ended(app, 'op-b3');
        const rows = await timeline(app);
        assert.deepEqual(
          rows.map((row) => row.role),
          ['user', 'assistant'],
        );
        const view = await app.message({ messageId: rows[1]!.messageId });
        assert.equal(view.source.kind, 'pi.message_end');
        assert.equal(view.source.sequence, rows[1]!.sourceJournalSequence);
        assert.deepEqual(
          rows[1]!.payload,
          payload<{ message: unknown }>(view.source).message,
          'the canonical row is the message pi wrote',
        );
        assert.equal(view.operation?.operationId, 'op-b3');
        const all = await journal(app);
        for (const row of all.filter(
          (r) =>
            r.kind === 'pi.message_start' ||
            r.kind === 'pi.message_update' ||
            r.kind === 'pi.turn_end' ||
            r.kind === 'pi.agent_end',
        )) {
          assert.equal(row.canonicalMessageId, null, `${row.kind} J#${row.sequence} is journal-only`);
        }
        assert.equal(rows[0]!.messageId, receipt.messageId);
        assertProvenance(all, rows);
      },
      { home: tempHome('acc-b3') },
    );
  });

  it('B4 the same raw record ingested again is a replay: no row, no second transition; other content under its identity is refused', () => {
    const home = tempHome('acc-b4');
    const db = openDatabase(`${home}.core.sqlite`);
    migrate(db, coreSchema);
    const storeId = readStoreId(db);
    commit(db, 'createAgent', (tx) => createAgent(tx, { name: 'a', operationId: 'create-a', agentsRoot: home }));
    const { generation } = commit(db, 'beginGeneration', (tx) => beginGeneration(tx, 'a', 'host-1'));
    commit(db, 'markGenerationRunning', (tx) => markGenerationRunning(tx, generation.generation_id, 1));
    commit(db, 'admitPrompt', (tx) =>
      admitPrompt(tx, storeId, { agent: 'a', text: HELLO, operationId: 'op-b4', piRequestId: 'p1' }),
    );
    commit(db, 'markAttempted', (tx) => markAttempted(tx, 'op-b4'));
    const ingest = (ordinal: number, text: string) => {
      const input: IngestInput = {
        generationId: generation.generation_id,
        stream: 'stdout',
        ordinal,
        frame: 'record',
        text,
        byteLength: Buffer.byteLength(text),
      };
      return commit(db, 'ingestPiRecord', (tx) => ingestPiRecord(tx, input));
    };
    const accepted = '{"id":"p1","type":"response","command":"prompt","success":true}';
    const first = ingest(1, accepted);
    const state = () =>
      db.prepare("SELECT state, last_journal_sequence AS last FROM operations WHERE operation_id = 'op-b4'").get();
    const after = { heads: readHeads(db), op: state() };
    assert.deepEqual(after.op, { state: 'accepted', last: first.journalSequence });
    assert.deepEqual(ingest(1, accepted), { ...first, wasReplay: true });
    assert.deepEqual({ heads: readHeads(db), op: state() }, after, 'a replay changes nothing');
    for (let ordinal = 2; ordinal <= 14; ordinal++) ingest(ordinal, simpleLine(ordinal - 1));
    const answer = ingest(14, simpleLine(13));
    assert.equal(answer.wasReplay, true);
    assert.ok(
      answer.canonicalMessageId && answer.timelineSequence === 2,
      'the replay reports the row the first ingestion created',
    );
    const heads = readHeads(db);
    assert.throws(
      () => ingest(14, simpleLine(12)),
      (error: { code?: string }) => error.code === 'operation_conflict',
    );
    assert.deepEqual(readHeads(db), heads);
    assert.deepEqual(runDoctor(db), []);
    db.close();
  });

  it('B5 a semantically invalid record (an echo that is not what was admitted): raw + projection_failed + stopping; journal-only after', async () => {
    await withFakeHost(
      ANSWERS,
      async ({ app }) => {
        // The fake echoes "Say hello" whatever it was sent.
        const { agentId, receipt } = await startAndPrompt(app, 'a', 'op-b5', 'Say goodbye');
        assert.equal((await ended(app, 'op-b5')).state, 'interrupted');
        await generationState(app, 'a', ['interrupted']);
        const rows = await journal(app, agentId);
        const failed = rows.find((row) => row.kind === 'history.projection_failed')!;
        assert.match(payload<{ reason: string }>(failed).reason, /user echo does not match/);
        const echo = rows.find((row) => row.sequence === payload<{ journalSequence: number }>(failed).journalSequence)!;
        assert.equal(echo.kind, 'pi.message_end');
        assert.equal(echo.canonicalMessageId, null, 'the mismatching echo is linked to nothing');
        assert.ok(
          rows
            .filter((row) => row.sequence > failed.sequence && row.kind === 'pi.message_end')
            .every((row) => row.canonicalMessageId === null),
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.messageId),
          [receipt.messageId],
        );
      },
      { home: tempHome('acc-b5') },
    );
  });

  it('B6 accepted and settled are separate evidence; a settlement without a final assistant message is interrupted, not an answer', async () => {
    await withFakeHost(
      ANSWERS,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-b6');
        assert.equal((await ended(app, 'op-b6')).outcome, 'answered');
        const rows = await journal(app, agentId);
        const accepted = rows.find(
          (row) => row.kind === 'pi.response' && payload<{ command: string }>(row).command === 'prompt',
        )!;
        const settled = rows.find((row) => row.kind === 'prompt.settled')!;
        assert.ok(accepted.sequence < settled.sequence);
        assert.ok(
          rows.some(
            (row) =>
              row.kind === 'pi.message_end' && row.sequence > accepted.sequence && row.sequence < settled.sequence,
          ),
        );
      },
      { home: tempHome('acc-b6a') },
    );
    const noAnswer: FakePiScript = {
      onPrompt: {
        replay: SIMPLE,
        maxLines: SIMPLE_LINES.throughUserEcho,
        rawLines: ['{"type":"agent_end","messages":[]}'],
      },
    };
    await withFakeHost(
      noAnswer,
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-b6n');
        const op = await ended(app, 'op-b6n');
        assert.deepEqual([op.state, op.outcome], ['interrupted', 'no-answer']);
        assert.equal(
          payload<{ outcome: string }>((await journal(app, agentId)).find((row) => row.kind === 'prompt.interrupted'))
            .outcome,
          'no-answer',
        );
        assert.deepEqual(
          (await timeline(app)).map((row) => row.role),
          ['user'],
        );
        assert.equal(
          (await app.listAgents())[0]!.generation!.state,
          'running',
          'an unanswered prompt is no fault of the generation',
        );
      },
      { home: tempHome('acc-b6b') },
    );
  });
});

describe('acceptance C: several agents and recovery', TIMEOUT, () => {
  it('C1 two agents at once: journal and timeline interleave; provenance explains every row', async () => {
    // Both fakes hold after the user echo; a is released and answers while b still holds, then b:
    // the journal interleaves by construction, not by how fast either child happens to be.
    const gate = holdGate();
    await withFakeHost(
      {
        onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
      },
      async ({ app }) => {
        const a = await app.createAgent({ name: 'a' });
        const b = await app.createAgent({ name: 'b' });
        const [startedA, startedB] = await Promise.all([
          app.startAgent({ agent: 'a' }),
          app.startAgent({ agent: 'b' }),
        ]);
        await Promise.all([
          app.prompt({ agent: 'a', text: HELLO, operationId: 'op-a' }),
          app.prompt({ agent: 'b', text: HELLO, operationId: 'op-b' }),
        ]);
        await Promise.all([
          heldAt(app, a.agentId, SIMPLE_LINES.throughUserEcho),
          heldAt(app, b.agentId, SIMPLE_LINES.throughUserEcho),
        ]);
        gate.releasePid(startedA.generation!.pid!);
        await ended(app, 'op-a');
        await heldAt(app, b.agentId, SIMPLE_LINES.throughUserEcho);
        gate.releasePid(startedB.generation!.pid!);
        await ended(app, 'op-b');
        const rows = await timeline(app);
        assert.deepEqual(
          rows.slice(0, 2).map((row) => row.role),
          ['user', 'user'],
          'both intents come before either answer: not grouped by agent',
        );
        const all = await journal(app);
        const owners = all.filter((row) => row.wireStream === 'stdout').map((row) => row.agentId);
        assert.ok(
          owners.some((owner, i) => i > 0 && owner !== owners[i - 1] && owners.slice(0, i).includes(owner!)),
          'the journal interleaves the two agents',
        );
        for (const [agent, op] of [
          [a, 'op-a'],
          [b, 'op-b'],
        ] as const) {
          const own = await timeline(app, agent.agentId);
          assert.deepEqual(
            own.map((row) => [row.role, row.operationId]),
            [
              ['user', op],
              ['assistant', op],
            ],
          );
          assert.equal((await app.operation({ operationId: op })).outcome, 'answered');
        }
        assertProvenance(all, rows);
      },
      { home: tempHome('acc-c1') },
    );
  });

  it('C2 a busy agent refuses a prompt with a clear error and queues nothing', async () => {
    const gate = holdGate();
    await withFakeHost(
      {
        onPrompt: { replay: SIMPLE, hold: { afterLines: SIMPLE_LINES.throughUserEcho, releaseFile: gate.releaseFile } },
      },
      async ({ app }) => {
        const { agentId } = await startAndPrompt(app, 'a', 'op-first');
        await heldAt(app, agentId, SIMPLE_LINES.throughUserEcho);
        assert.equal(await codeOf(app.prompt({ agent: 'a', text: HELLO, operationId: 'op-second' })), 'agent_busy');
        gate.release();
        assert.equal((await ended(app, 'op-first')).outcome, 'answered');
        assert.equal(await codeOf(app.operation({ operationId: 'op-second' })), 'not_found', 'nothing was queued');
        assert.ok(!(await journal(app)).some((row) => row.operationId === 'op-second'));
        assert.equal((await timeline(app)).filter((row) => row.role === 'user').length, 1);
      },
      { home: tempHome('acc-c2') },
    );
  });

  it('C4 abort is pinned to the prompt active at its admission and never reaches later work', async () => {
    // Two prompts in one pi: the recorded two-prompt session; the first answer is held after three
    // lines until the abort was requested, so the abort provably meets the prompt in flight.
    const twoPrompts = fixturePath('b-two-prompts-sequential', 'stdout');
    const gate = holdGate();
    await withFakeHost(
      { onPrompt: { replay: twoPrompts, hold: { afterLines: 3, releaseFile: gate.releaseFile } } },
      async ({ app }) => {
        assert.equal(await codeOf(app.abort({ agent: 'ghost' })), 'not_found');
        const { agentId } = await startAndPrompt(app, 'a', 'op-1', 'first prompt');
        await heldAt(app, agentId, 3);
        const abort = await app.abort({ agent: 'a', operationId: 'abort-1' });
        assert.deepEqual([abort.targetOperationId, abort.replayed], ['op-1', false]);
        await heldAt(app, agentId, 3);
        gate.release();
        await ended(app, 'op-1');
        assert.equal(
          await codeOf(app.abort({ agent: 'a', operationId: 'abort-idle' })),
          'agent_state',
          'nothing to abort while idle',
        );
        await app.prompt({ agent: 'a', text: 'second prompt', operationId: 'op-2' });
        const again = await app.abort({ agent: 'a', operationId: 'abort-1' });
        assert.deepEqual(
          [again.targetOperationId, again.replayed, again.sequence],
          ['op-1', true, abort.sequence],
          'the replay names the pinned prompt, not the current one',
        );
        assert.equal((await ended(app, 'op-2')).outcome, 'answered', 'the later prompt was not aborted');
        const aborts = (await journal(app)).filter((row) => row.kind === 'prompt.abort_requested');
        assert.deepEqual(
          aborts.map((row) => payload<{ targetOperationId: string }>(row).targetOperationId),
          ['op-1'],
        );
      },
      { home: tempHome('acc-c4') },
    );
  });

  it('C5–C7 orderly stop and restart: same rows, same store ID, new host ID, cursors go on; no replay, no rebuild; unfinished work interrupted and abandoned', async () => {
    const home = tempHome('acc-c5');
    let before:
      | { journal: JournalRow[]; timeline: Awaited<ReturnType<typeof timeline>>; storeId: string; hostId: string }
      | undefined;
    await withFakeHost(
      ANSWERS,
      async ({ app }) => {
        await startAndPrompt(app, 'a', 'op-1');
        await ended(app, 'op-1');
        const status = await app.status();
        before = {
          journal: await journal(app),
          timeline: await timeline(app),
          storeId: status.storeId,
          hostId: status.hostId,
        };
      },
      { home },
    );
    await withFakeHost(
      NEVER_ANSWERS,
      async ({ app }) => {
        const status = await app.status();
        assert.equal(status.storeId, before!.storeId);
        assert.notEqual(status.hostId, before!.hostId);
        const journalNow = await journal(app);
        const head = before!.journal.at(-1)!.sequence;
        assert.deepEqual(
          journalNow.slice(0, before!.journal.length),
          before!.journal,
          'the journal is read back as it was',
        );
        // The first host's orderly shutdown stopped its agent; the new host's start-up adds host.started and nothing else.
        assert.deepEqual(
          kinds(journalNow.slice(before!.journal.length)),
          ['generation.stopping', 'generation.stopped', 'host.stopped', 'host.started'],
          'start-up replays nothing',
        );
        assert.deepEqual(await timeline(app), before!.timeline, 'the timeline is not rebuilt');
        // A cursor from the old host goes on from where it was.
        const page = await app.journal({ after: head, limit: 100, storeId: before!.storeId });
        assert.deepEqual(kinds(page.rows), [
          'generation.stopping',
          'generation.stopped',
          'host.stopped',
          'host.started',
        ]);
        const timelinePage = await app.timeline({
          after: before!.timeline.at(-1)!.sequence,
          limit: 100,
          storeId: before!.storeId,
        });
        assert.deepEqual(timelinePage.rows, []);
        // A fresh generation; its unfinished work is interrupted and can be abandoned: the decision is recorded, every message kept, nothing replayed.
        await app.startAgent({ agent: 'a' });
        const receipt = await app.prompt({ agent: 'a', text: HELLO, operationId: 'op-2' });
        assert.equal((await ended(app, 'op-2')).state, 'interrupted');
        const rowsBefore = await timeline(app);
        const abandoned = await app.abandon({ operationId: 'op-2' });
        assert.equal(abandoned.state, 'abandoned');
        assert.deepEqual(await timeline(app), rowsBefore, 'every message is kept');
        assert.equal((await app.abandon({ operationId: 'op-2' })).state, 'abandoned', 'abandoning again is a replay');
        const tail = (await journal(app)).filter((row) => row.operationId === 'op-2');
        assert.deepEqual(
          kinds(tail).filter((kind) => kind.startsWith('prompt.')),
          ['prompt.requested', 'prompt.attempted', 'prompt.interrupted', 'prompt.abandoned'],
        );
        assert.deepEqual(
          await app.prompt({ agent: 'a', text: HELLO, operationId: 'op-2' }),
          { ...receipt, replayed: true },
          'a retry is a replay, never a resend',
        );
      },
      { home, env: { COMMON_MEMORY_DRILL_ACCEPT_MS: '1000' } },
    );
  });
});

describe('acceptance D: six everyday milestones through the CLI', { timeout: 120_000 }, () => {
  it('note → journal only; prompt → one user row; echo → no new row; answer → raw + one canonical row; stop/reopen → same rows; two agents → rules hold', async () => {
    const home = tempHome('acc-d');
    const env = piEnv({ onPrompt: { replay: SIMPLE } });
    /** In-process (one call at a time); `bin` is the shipped bin, for the calls made at once. */
    const cli = async (...args: string[]) => {
      const result = await runCliInProcess([...args, '--json', '--home', home]);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    const bin = async (...args: string[]) => {
      const result = await runCli([...args, '--json', '--home', home]);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    const rowsOf = async (stream: 'log' | 'timeline') =>
      (await cli(stream)).rows as {
        sequence: number;
        kind?: string;
        role?: string;
        messageId?: string;
        operationId: string | null;
      }[];
    let host = await childHost(home, env);
    try {
      // 1. A note goes to the journal only.
      const note = await cli('note', 'remember this', '--operation-id', 'd-note');
      assert.equal((await rowsOf('log')).find((row) => row.sequence === note.sequence)?.kind, 'client.note');
      assert.deepEqual(await rowsOf('timeline'), []);
      // 2. A prompt gives exactly one canonical user row.
      await cli('agent', 'create', 'a');
      await cli('agent', 'start', 'a');
      const prompt = await cli('prompt', 'a', HELLO, '--operation-id', 'd-1');
      const afterPrompt = await rowsOf('timeline');
      assert.deepEqual(
        afterPrompt.slice(0, 1).map((row) => [row.role, row.messageId]),
        [['user', prompt.messageId]],
      );
      // 3. The echo adds no row; 4. the answer adds exactly one, with its raw evidence.
      await waitFor('d-1 to settle', async () =>
        (await cli('operation', 'd-1')).state === 'settled' ? true : undefined,
      );
      const user = await cli('message', prompt.messageId);
      assert.deepEqual(
        user.observations.map((row: JournalRow) => row.kind),
        ['prompt.requested', 'pi.message_end'],
      );
      const rows = await rowsOf('timeline');
      assert.deepEqual(
        rows.map((row) => row.role),
        ['user', 'assistant'],
      );
      const answer = await cli('message', rows[1]!.messageId!);
      assert.equal(answer.source.kind, 'pi.message_end');
      assert.equal(answer.source.canonicalMessageId, rows[1]!.messageId);
      // 5. Stop and reopen: the same rows and the same provenance.
      const journalBefore = await rowsOf('log');
      await stopHost(host.child);
      host = await childHost(home, env);
      assert.deepEqual(await rowsOf('timeline'), rows);
      assert.deepEqual((await rowsOf('log')).slice(0, journalBefore.length), journalBefore);
      assert.deepEqual(await cli('message', rows[1]!.messageId!), answer);
      // 6. Two agents at once: the rules still hold.
      await cli('agent', 'create', 'b');
      await Promise.all([bin('agent', 'start', 'a'), bin('agent', 'start', 'b')]);
      await Promise.all([
        bin('prompt', 'a', HELLO, '--operation-id', 'd-a'),
        bin('prompt', 'b', HELLO, '--operation-id', 'd-b'),
      ]);
      for (const op of ['d-a', 'd-b'])
        await waitFor(`${op} to settle`, async () =>
          (await cli('operation', op)).state === 'settled' ? true : undefined,
        );
      const final = await rowsOf('timeline');
      assert.deepEqual(
        final
          .slice(2)
          .map((row) => row.role)
          .sort(),
        ['assistant', 'assistant', 'user', 'user'],
      );
      for (const op of ['d-a', 'd-b'])
        assert.deepEqual(
          final.filter((row) => row.operationId === op).map((row) => row.role),
          ['user', 'assistant'],
        );
      assertProvenance((await rowsOf('log')) as JournalRow[], final as never);
      await doctorCli(home);
    } finally {
      await stopHost(host.child);
    }
    await doctorCli(home);
  });
});
