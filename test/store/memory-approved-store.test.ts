// The approved projection's writer command on a real memory-state file, over real scans of a real
// memory root: a scan that began before another sync committed is refused (raced) and changes
// nothing; revisions grow only with content; the FTS rows follow the entries one for one.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scanApprovedRoot } from '../../source/effects/approved-projection.js';
import { scanInput } from '../../source/store/memory/approved-follow.js';
import {
  approvedCommands,
  type ApprovedOwner,
  readProjection,
  type SyncApprovedInput,
} from '../../source/store/memory/approved-store.js';
import { searchApproved } from '../../source/store/memory/approved-reads.js';
import { memoryRoot } from '../../source/effects/safe-files.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import { commitOn } from '../../source/store/transaction.js';
import { tempHome } from '../support/cli.js';

const owner: ApprovedOwner = { scope: 'user', repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };

const entryText = (id: string, body: string) => `---\nid: ${id}\ntype: work_fact\ntitle: ${id}\n---\n${body}\n`;

describe('memorySyncApproved', () => {
  it('refuses a scan that raced another sync, keeps revisions for unchanged content, and keeps FTS rows one per entry', () => {
    const home = tempHome('approved-store');
    mkdirSync(join(home, 'memory', 'work_fact'), { recursive: true });
    const state = openMemoryState(join(home, 'memory-state.sqlite'));
    const root = memoryRoot(home, 'memory');
    const write = (id: string, body: string) =>
      writeFileSync(join(home, 'memory', 'work_fact', `${id}.md`), entryText(id, body));
    const inputOf = (expectedGeneration: number | null): SyncApprovedInput => {
      const scan = scanApprovedRoot(root, 'user');
      assert.equal(scan.coverage, 'complete', JSON.stringify(scan.problems));
      return scanInput(owner, expectedGeneration, scan);
    };
    const store = (input: SyncApprovedInput) =>
      commitOn('memory', state.db, 'memorySyncApproved', (tx) =>
        approvedCommands.memorySyncApproved.run(
          tx,
          {} as never,
          approvedCommands.memorySyncApproved.schema.parse(input),
        ),
      );
    const revisions = () =>
      Object.fromEntries(
        (
          state.db.prepare('SELECT entry_id, revision FROM approved_entries ORDER BY entry_id').all() as Array<{
            entry_id: string;
            revision: number;
          }>
        ).map((r) => [r.entry_id, r.revision]),
      );
    const ftsRows = () =>
      state.db.prepare("SELECT count(*) FROM approved_fts WHERE approved_fts MATCH 'body'").pluck().get();

    write('alpha', 'alpha body one');
    write('beta', 'beta body');
    assert.equal(store(inputOf(null)).outcome, 'replaced');
    const stale = inputOf(1); // scanned now, stored after another sync
    write('alpha', 'alpha body two');
    assert.deepEqual(store(inputOf(1)), { outcome: 'replaced', generation: 2, coverage: 'complete', entries: 2 });
    assert.equal(store(stale).outcome, 'raced', 'a scan older than the committed generation is refused');
    assert.equal(readProjection(state.db, owner)!.generation, 2);
    assert.deepEqual(revisions(), { alpha: 2, beta: 1 }, 'only the changed entry got a new revision');
    assert.equal(ftsRows(), 2);
    assert.deepEqual(
      searchApproved(state.db, [owner], 'two', 10).map((hit) => hit.entryId),
      ['alpha'],
    );
    assert.deepEqual(searchApproved(state.db, [owner], 'one', 10), [], 'the old text is out of the index');
    assert.deepEqual(
      searchApproved(state.db, [{ ...owner, worktreeKey: 'c'.repeat(64) }], 'two', 10),
      [],
      'another owner sees nothing',
    );
    assert.equal(store(inputOf(2)).outcome, 'unchanged');
    assert.equal(readProjection(state.db, owner)!.generation, 2);
    state.db.close();
  });
});
