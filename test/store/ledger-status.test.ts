// The ledger's health as status, the Dashboard and memory_status read it, while hooks make the
// file. A hook creates ledger.sqlite in place and migrates it in one transaction; until that
// commits, the file is there at schema version 0. A reader in that window was told "schema version
// 0; a hook migrates it on its next event" (unavailable), where nothing had been recorded yet.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../source/store/database.js';
import { ledgerSchema } from '../../source/store/ledger/ledger-schema.js';
import { ledgerStatusAt } from '../../source/store/ledger/ledger-status.js';
import { openLedger } from '../../source/store/ledger/ledger.js';

const ROOT = join(import.meta.dirname, '../..');
const freshDir = () => mkdtempSync(join(tmpdir(), 'cm-ledger-status-'));

describe('the ledger read while a hook makes it', () => {
  it('a file a hook has created but not yet migrated reads as empty, not unavailable', () => {
    const dir = freshDir();
    const path = join(dir, 'ledger.sqlite');
    // What a hook's openLedger holds between creating the file and committing its one step.
    openDatabase(path).close();
    const status = ledgerStatusAt(path, join(dir, 'ledger-health.json'));
    assert.equal(status.state, 'empty', `read as ${status.state}: ${status.reason}`);
    assert.equal(status.entries, 0);
  });

  it('a newer ledger reads as unavailable, naming the upgrade', () => {
    const dir = freshDir();
    const path = join(dir, 'ledger.sqlite');
    const db = openLedger(path);
    db.pragma(`user_version = ${ledgerSchema.steps.length + 1}`);
    db.close();
    const status = ledgerStatusAt(path, join(dir, 'ledger-health.json'));
    assert.equal(status.state, 'unavailable');
    assert.match(status.reason ?? '', /Upgrade common-memory/);
  });

  it('a reader polling while hooks make ledgers sees empty or ready, never unavailable', async () => {
    const dirs = Array.from({ length: 30 }, freshDir);
    const paths = dirs.map((dir) => join(dir, 'ledger.sqlite'));
    const stop = join(dirs[0]!, 'stop');
    // The hooks' side in another process, through the built module a hook runs.
    const maker = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { openLedger } = await import('./dist/store/ledger/ledger.js');
        const { writeFileSync } = await import('node:fs');
        const [stop, ...paths] = process.argv.slice(1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        for (const path of paths) {
          openLedger(path).close();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        writeFileSync(stop, '');`,
        stop,
        ...paths,
      ],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const ended = new Promise((resolve) => maker.on('exit', resolve));
    const seen = new Map<string, string>();
    // Polled here, synchronously, so nothing of this process runs between reads.
    for (let i = 0; !existsSync(stop) && i < 5_000_000; i++) {
      const dir = dirs[i % dirs.length]!;
      const status = ledgerStatusAt(join(dir, 'ledger.sqlite'), join(dir, 'ledger-health.json'));
      if (!seen.has(status.state)) seen.set(status.state, status.reason ?? '');
    }
    assert.equal(await ended, 0, 'the maker ended well');
    assert.ok(existsSync(stop), 'the maker finished before the reader gave up');
    assert.deepEqual(
      [...seen.keys()].filter((state) => state !== 'empty' && state !== 'ready'),
      [],
      [...seen].join('; '),
    );
    assert.ok(seen.has('ready'), 'the reader saw a made ledger');
  });
});
