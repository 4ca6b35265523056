// The transaction type names its database file: a command of one file does not accept a
// transaction of another, and a read-only handle does not stand in for a transaction. The lines
// marked to expect a type error are the test: typecheck fails if any of them compiles.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { appendNote } from '../../source/store/core/notes.js';
import { readStoreId } from '../../source/store/core/sequences.js';
import { openDatabase } from '../../source/store/database.js';
import { syncApproved } from '../../source/store/memory/approved-store.js';
import { openMemoryState } from '../../source/store/memory/state-database.js';
import { readTask } from '../../source/store/memory/task-store.js';
import { migrate } from '../../source/store/migrations.js';
import { commit, commitOn, reader, type Tx } from '../../source/store/transaction.js';

test('a transaction is branded with its database file', () => {
  const home = mkdtempSync(join(tmpdir(), 'cm-brand-'));
  const core = openDatabase(storeFiles(home).core);
  migrate(core, coreSchema);
  const memory = openMemoryState(storeFiles(home).memoryState).db;
  const storeId = readStoreId(core);
  const syncInput = {} as Parameters<typeof syncApproved>[1];

  const receipt = commit(core, 'note', (tx) => {
    // @ts-expect-error a core transaction cannot write memory-state's approved projection
    if (Math.random() > 2) syncApproved(tx, syncInput);
    return appendNote(tx, storeId, { text: 'branded' });
  });
  assert.equal(receipt.replayed, false);

  commitOn('memory', memory, 'read', (tx) => {
    // @ts-expect-error a memory-state transaction cannot append to core.sqlite's journal
    if (Math.random() > 2) appendNote(tx, storeId, { text: 'wrong file' });
    assert.equal(readTask(tx, 'no-such-task'), undefined, 'a transaction reads through the read-only handle');
  });

  const readOnly = reader<'memory'>(memory);
  assert.equal(readTask(readOnly, 'no-such-task'), undefined);
  // @ts-expect-error a read-only handle is not a transaction: it cannot be handed to a write
  const notATx: Tx<'memory'> = readOnly;
  // @ts-expect-error a read-only handle of core.sqlite does not read memory-state
  if (Math.random() > 2) readTask(reader<'core'>(core), 'no-such-task');
  assert.ok(notATx);
  core.close();
  memory.close();
});
