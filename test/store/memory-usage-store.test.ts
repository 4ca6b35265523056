// The usefulness counts in memory-state (source/store/memory/usage-store.ts) on real SQLite files:
// the collector folds each activation's snapshot once and each ledger batch once (its cursors move
// in the same commit, so a repeat adds nothing), waits before a young activation that has no
// snapshot yet, starts over when core.sqlite was made anew; a re-teach is one event per entry and
// turn, and a turn of the session the entry was promoted from is never one.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';
import { readEntryUsage } from '../../source/store/memory/usage-reads.js';
import { recordReteach, usageCommands } from '../../source/store/memory/usage-store.js';
import { migrate } from '../../source/store/migrations.js';
import { commitOn } from '../../source/store/transaction.js';

function stores() {
  const dir = mkdtempSync(join(tmpdir(), 'cm-usage-'));
  const core = openDatabase(join(dir, 'core.sqlite'));
  migrate(core, coreSchema);
  const memory = openDatabase(join(dir, 'memory-state.sqlite'));
  migrate(memory, memoryStateSchema);
  return { core, memory };
}

let sessions = 0;
function activation(core: Db, snapshot: string | null, startedAtMs: number, state: 'active' | 'ended' = 'ended') {
  const n = ++sessions;
  core
    .prepare(
      `INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, snapshot, started_at_ms)
       VALUES (?, 'claude', 'p', ?, 1, ?, ?, ?)`,
    )
    .run(`key-${n}`, `session-${n}`, state, snapshot, startedAtMs);
}

const given = (...ids: string[]) =>
  [
    '<common-memory-notes>',
    ...ids.map((id) => `- [${id}] (project, priority 50) title: "t"\n  > body`),
    '</common-memory-notes>',
  ].join('\n');

type CollectInput = Parameters<(typeof usageCommands)['memoryCollectUsage']['run']>[2];

function collect(core: Db, memory: Db, input: CollectInput = { ledger: null }) {
  return commitOn('memory', memory, 'collect', (tx) =>
    usageCommands.memoryCollectUsage.run(tx, { storeId: 's', memoryStateUuid: 'u', core }, input),
  );
}

const usage = (memory: Db, id: string) => {
  const read = readEntryUsage(memory, [id]);
  assert.ok(read.available);
  return read.value.get(id)!;
};

describe('usefulness counts in memory-state', () => {
  it('counts each snapshot once, waits before a young activation without one, and starts over after a reset', () => {
    const { core, memory } = stores();
    const now = Date.now();
    activation(core, given('a', 'b'), now - 1000);
    activation(core, '', now - 900);
    activation(core, given('a'), now - 800);
    assert.deepEqual(collect(core, memory), { snapshots: 2, reads: 0, ledgerMoved: false, more: false });
    assert.deepEqual([usage(memory, 'a').given, usage(memory, 'b').given], [2, 1]);
    assert.equal(usage(memory, 'a').lastGivenMs, now - 800);
    assert.equal(collect(core, memory).snapshots, 0, 'a repeat counts nothing');

    // A session whose SessionStart has not come yet holds the cursor; once it has its snapshot, it counts.
    activation(core, null, now - 100, 'active');
    activation(core, given('b'), now - 50);
    assert.equal(collect(core, memory).snapshots, 0);
    core.prepare('UPDATE capture_activations SET snapshot = ? WHERE snapshot IS NULL').run(given('c'));
    assert.equal(collect(core, memory).snapshots, 2);
    assert.deepEqual([usage(memory, 'b').given, usage(memory, 'c').given], [2, 1]);

    // core.sqlite made anew: its first activation is below the cursor, and counts.
    core.exec('DELETE FROM capture_activations');
    activation(core, given('d'), now);
    core.prepare('UPDATE capture_activations SET activation_id = 1').run();
    assert.equal(collect(core, memory).snapshots, 1);
    assert.equal(usage(memory, 'd').given, 1);
  });

  it('counts a ledger batch once: a batch read from a cursor that moved adds nothing', () => {
    const { core, memory } = stores();
    const reads = [
      { entryId: 'a', observedAtMs: 10 },
      { entryId: 'a', observedAtMs: 20 },
    ];
    assert.equal(collect(core, memory, { ledger: { from: 0, to: 7, reads } }).reads, 2);
    const again = collect(core, memory, { ledger: { from: 0, to: 7, reads } });
    assert.deepEqual([again.reads, again.ledgerMoved], [0, true]);
    assert.deepEqual([usage(memory, 'a').read, usage(memory, 'a').lastReadMs], [2, 20]);
    assert.equal(
      collect(core, memory, { ledger: { from: 7, to: 8, reads: [{ entryId: 'a', observedAtMs: 30 }] } }).reads,
      1,
    );
    assert.equal(usage(memory, 'a').read, 3);
  });

  it('records a re-teach once per entry and turn, never from the session the entry was promoted from', () => {
    const { memory } = stores();
    const owner = { repositoryKey: 'r', worktreeKey: 'w' };
    // Only the rows the re-teach reads: the candidates and the plan they belong to are not needed here.
    memory.pragma('foreign_keys = OFF');
    const ref = memory.prepare(
      `INSERT INTO evidence_refs (candidate_id, statement_id, evidence_id, pointer_digest, session_key, turn_key, client, strength, task_id)
       VALUES (?, 's1', ?, 'p', ?, ?, 'claude', 'direct', 't')`,
    );
    // The entry m-1 was promoted from candidate c-0, taught in session S1.
    ref.run('c-0', 'e1', 'S1', 'T1');
    memory
      .prepare(
        `INSERT INTO promotion_files (plan_id, target_path, entry_id, action, candidate_ids_json, sanitized_content, sanitized_digest)
         VALUES ('plan', 'work_method/m-1.md', 'm-1', 'create', '["c-0"]', x'00', 'd')`,
      )
      .run();
    // A draft citing a later turn of S1 (its own source session) and two turns of session S2.
    ref.run('c-1', 'e1', 'S1', 'T2');
    ref.run('c-1', 'e2', 'S2', 'T1');
    ref.run('c-1', 'e3', 'S2', 'T2');
    const record = () => commitOn('memory', memory, 'reteach', (tx) => recordReteach(tx, 'c-1', 'm-1', owner));
    assert.equal(record(), 2);
    assert.equal(record(), 0, 'extraction again: nothing new');
    assert.deepEqual(memory.prepare('SELECT session_key, turn_key FROM entry_reteach ORDER BY turn_key').all(), [
      { session_key: 'S2', turn_key: 'T1' },
      { session_key: 'S2', turn_key: 'T2' },
    ]);
    assert.equal(usage(memory, 'm-1').reteach, 2);
  });

  it('a table that cannot be read is unavailable with the reason, not zero', () => {
    const { memory } = stores();
    memory.exec('DROP TABLE entry_usage');
    const read = readEntryUsage(memory, ['a']);
    assert.equal(read.available, false);
    assert.match((read as { reason: string }).reason, /entry_usage/);
  });
});
