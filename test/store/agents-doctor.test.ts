// Doctor's B5 assertions about driven agents (seed 003 B5, 5–8): a store built with the real
// writer commands — agent, generation, an admitted prompt, the recorded pi answer ingested record
// by record, settlement — passes; each corruption is named by its check.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { beginGeneration, createAgent, markGenerationRunning } from '../../source/store/core/agents.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { runDoctor } from '../../source/store/doctor.js';
import { migrate } from '../../source/store/migrations.js';
import { appendNote } from '../../source/store/core/notes.js';
import { ingestPiRecord } from '../../source/store/core/pi-ingest.js';
import { admitPrompt, markAttempted, requestAbort, settlePrompt } from '../../source/store/core/prompts.js';
import { readStoreId } from '../../source/store/core/sequences.js';
import { commit, type Tx } from '../../source/store/transaction.js';
import { tempHome } from '../support/cli.js';
import { promptSegments } from '../support/fake-pi.js';
import { fixturePath } from '../support/pi-transcript.js';

const HELLO = 'Say hello';

interface AgentStore {
  db: Db;
  storeId: string;
  agentId: string;
  generationId: string;
  run: <T>(name: string, body: (tx: Tx) => T) => T;
}

/** A store with one agent whose first prompt was answered from the recorded a-simple-prompt stream. */
function answeredStore(): AgentStore {
  const home = tempHome('doctor');
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  const storeId = readStoreId(db);
  const run = <T>(name: string, body: (tx: Tx) => T): T => commit(db, name, body);
  run('appendNote', (tx) => appendNote(tx, storeId, { text: 'a note', operationId: 'note-1' }));
  const agent = run('createAgent', (tx) => createAgent(tx, { name: 'a', operationId: 'create-a', agentsRoot: home }));
  const { generation } = run('beginGeneration', (tx) => beginGeneration(tx, 'a', 'host-1'));
  run('markGenerationRunning', (tx) => markGenerationRunning(tx, generation.generation_id, 4242));
  run('admitPrompt', (tx) =>
    admitPrompt(tx, storeId, { agent: 'a', text: HELLO, operationId: 'op-1', piRequestId: 'p1' }),
  );
  run('markAttempted', (tx) => markAttempted(tx, 'op-1'));
  const segment = promptSegments(readFileSync(fixturePath('a-simple-prompt', 'stdout'), 'utf8'))[0]!;
  const records = [JSON.stringify({ ...JSON.parse(segment[0]!), id: 'p1' }), ...segment.slice(1)];
  const ingest = (
    stream: 'stdout' | 'stderr',
    ordinal: number,
    text: string,
    settle?: { operationId: string; outcome: string; detail: unknown },
  ) =>
    run('ingestPiRecord', (tx) =>
      ingestPiRecord(tx, {
        generationId: generation.generation_id,
        stream,
        ordinal,
        frame: 'record',
        text,
        byteLength: Buffer.byteLength(text),
        ...(settle ? { settle } : {}),
      }),
    );
  for (const [index, text] of records.entries()) ingest('stdout', index + 1, text);
  ingest('stderr', 1, 'some noise on stderr');
  // The barrier's answer confirms settlement (pi 0.73.1 has no settle event).
  ingest('stdout', records.length + 1, '{"id":"b1","type":"response","command":"get_state","success":true}', {
    operationId: 'op-1',
    outcome: 'answered',
    detail: {},
  });
  return { db, storeId, agentId: agent.agentId, generationId: generation.generation_id, run };
}

const checks = (db: Db) => runDoctor(db).map((violation) => violation.check);

describe('doctor: driven agents (B5 5–8)', () => {
  it('passes on a store with an agent, a generation and an answered prompt', () => {
    const { db } = answeredStore();
    assert.deepEqual(runDoctor(db), []);
    const op = db.prepare("SELECT state, outcome FROM operations WHERE operation_id = 'op-1'").get();
    assert.deepEqual(op, { state: 'settled', outcome: 'answered' }, 'the fixture really settled the prompt');
  });

  it('(5) two prompts in flight for one agent, and a busy pointer at a finished prompt', () => {
    const { db, storeId, run } = answeredStore();
    run('admitPrompt', (tx) =>
      admitPrompt(tx, storeId, { agent: 'a', text: 'again', operationId: 'op-2', piRequestId: 'p2' }),
    );
    assert.deepEqual(runDoctor(db), []);
    db.prepare("UPDATE operations SET state = 'accepted' WHERE operation_id = 'op-1'").run();
    assert.ok(checks(db).includes('agent.one_prompt'));
    db.prepare("UPDATE operations SET state = 'settled' WHERE operation_id = 'op-1'").run();
    db.prepare(
      "UPDATE operations SET state = 'interrupted', outcome = 'interrupted' WHERE operation_id = 'op-2'",
    ).run();
    assert.ok(checks(db).includes('agent.active'), 'the agent still claims to be busy with op-2');
  });

  it('(6) a generation head that is not the largest stored ordinal, and a hole in the ordinals', () => {
    const { db, generationId } = answeredStore();
    db.prepare('UPDATE generations SET stderr_head = 2 WHERE generation_id = ?').run(generationId);
    const violations = runDoctor(db);
    assert.deepEqual(
      violations.map((v) => v.check),
      ['generation.ordinals'],
    );
    assert.match(violations[0]!.detail, /stderr: head 2, max stored ordinal 1/);
    db.prepare('UPDATE generations SET stderr_head = 1 WHERE generation_id = ?').run(generationId);
    db.prepare(
      "UPDATE journal SET wire_ordinal = 99 WHERE generation_id = ? AND wire_stream = 'stdout' AND wire_ordinal = 3",
    ).run(generationId);
    db.prepare('UPDATE generations SET stdout_head = 99 WHERE generation_id = ?').run(generationId);
    assert.match(
      runDoctor(db).find((v) => v.check === 'generation.ordinals')!.detail,
      /stdout: head 99, max stored ordinal 99, 17 records/,
    );
  });

  it("(7) a timeline row naming a missing agent or another agent's generation, and a prompt whose user message is not a user row", () => {
    const { db } = answeredStore();
    const assistant = db.prepare("SELECT message_id AS id FROM timeline WHERE role = 'assistant'").get() as {
      id: string;
    };
    db.prepare("UPDATE timeline SET agent_id = '00000000-0000-4000-8000-000000000000' WHERE message_id = ?").run(
      assistant.id,
    );
    assert.ok(checks(db).includes('timeline.agent'));
    const { db: other } = answeredStore();
    other
      .prepare(
        "UPDATE operations SET user_message_id = (SELECT message_id FROM timeline WHERE role = 'assistant') WHERE operation_id = 'op-1'",
      )
      .run();
    const violation = runDoctor(other).find((v) => v.check === 'operation.user_message');
    assert.match(violation!.detail, /prompt op-1 names message .* with role assistant/);
  });

  it('(8) states outside the lifecycle, a settled prompt without an outcome, an interrupted one claiming an answer', () => {
    const { db } = answeredStore();
    db.prepare("UPDATE operations SET state = 'finished' WHERE operation_id = 'op-1'").run();
    db.prepare("UPDATE operations SET state = 'settled' WHERE operation_id = 'note-1'").run();
    const states = runDoctor(db)
      .filter((v) => v.check === 'operation.state')
      .map((v) => v.detail);
    assert.equal(states.length, 2);
    assert.ok(states.some((d) => /prompt op-1 is in state "finished"/.test(d)));
    assert.ok(states.some((d) => /note note-1 is in state "settled"/.test(d)));

    const { db: unsettled } = answeredStore();
    unsettled.prepare("UPDATE operations SET outcome = NULL WHERE operation_id = 'op-1'").run();
    assert.match(
      runDoctor(unsettled).find((v) => v.check === 'operation.outcome')!.detail,
      /settled without an outcome/,
    );

    const { db: invented } = answeredStore();
    invented.prepare("UPDATE operations SET state = 'interrupted' WHERE operation_id = 'op-1'").run();
    assert.match(
      runDoctor(invented).find((v) => v.check === 'operation.outcome')!.detail,
      /interrupted but claims the outcome answered/,
    );
  });

  it('(8) an answer verdict with no assistant message behind it (what settling on uncommitted records produced)', () => {
    const { db, storeId, run } = answeredStore();
    run('admitPrompt', (tx) =>
      admitPrompt(tx, storeId, { agent: 'a', text: 'no answer came', operationId: 'op-2', piRequestId: 'p2' }),
    );
    run('markAttempted', (tx) => markAttempted(tx, 'op-2'));
    run('settlePrompt', (tx) => settlePrompt(tx, 'op-2', 'answered', {}));
    const violations = runDoctor(db);
    assert.deepEqual(
      violations.map((v) => v.check),
      ['operation.outcome'],
    );
    assert.match(violations[0]!.detail, /op-2 .*claims the outcome answered without any assistant message/);
  });

  it('(8) an abort is only ever recorded', () => {
    const { db, storeId, run } = answeredStore();
    run('admitPrompt', (tx) =>
      admitPrompt(tx, storeId, { agent: 'a', text: 'to abort', operationId: 'op-2', piRequestId: 'p2' }),
    );
    run('requestAbort', (tx) => requestAbort(tx, storeId, 'a', 'abort-1'));
    assert.deepEqual(runDoctor(db), []);
    db.prepare("UPDATE operations SET state = 'settled' WHERE operation_id = 'abort-1'").run();
    assert.match(
      runDoctor(db).find((v) => v.check === 'operation.state')!.detail,
      /abort abort-1 is in state "settled"/,
    );
  });
});
