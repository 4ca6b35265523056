// The writer as a command working alone runs it (source/workers/writer-inline.ts: on the command's
// own thread) and as a serving host runs it (writer-thread.ts) answer alike: the same contract is
// run against each, so a difference in either is caught on its own. A whole `note`, `memory sync`
// or `memory extract` process with no host running starts no thread at all (its CPU profiles: one
// per thread); an import keeps its writer on a thread, since it parses on its own meanwhile.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import { gitRepo, tempHome } from '../support/cli.js';

const BIN = join(import.meta.dirname, '../../bin/common-memory.cjs');

function freshHome(): string {
  const home = tempHome('writer-inline');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

const isCode = (code: string) => (error: unknown) => error instanceof CmError && error.code === code;

const WRITERS = {
  inline: (corePath: string) => startInlineWriter(corePath),
  thread: (corePath: string) => WriterClient.start(corePath),
};

for (const [kind, start] of Object.entries(WRITERS)) {
  describe(`the ${kind} writer`, () => {
    const open: WriterClient[] = [];
    after(async () => {
      for (const writer of open) await writer.close();
    });
    const started = async (home: string) => {
      const writer = await start(storeFiles(home).core);
      open.push(writer);
      return writer;
    };

    it('commits each command and answers with its result; bad input and unknown names are refused', async () => {
      const home = freshHome();
      const writer = await started(home);
      assert.match(writer.storeId, /^[0-9a-f-]{36}$/);
      const first = await writer.call('appendNote', { text: 'one' });
      const second = await writer.call('appendNote', { text: 'two' });
      assert.deepEqual([first.sequence, second.sequence], [1, 2]);
      assert.equal(first.storeId, writer.storeId);
      await assert.rejects(writer.call('appendNote', { text: 7 } as never), isCode('invalid_input'));
      await assert.rejects(writer.call('noSuchCommand' as never, {} as never), isCode('internal'));
      // Committed: another connection reads both notes.
      const reader = openDatabase(storeFiles(home).core, { readonly: true });
      try {
        const count = reader.prepare('SELECT count(*) AS n FROM journal').get() as { n: number };
        assert.equal(count.n, 2);
      } finally {
        reader.close();
      }
    });

    it('serves a port opened for another thread, one command at a time in arrival order', async () => {
      const writer = await started(freshHome());
      const other = WriterClient.overPort(writer.openPort(), writer.storeId);
      const receipts = await Promise.all([
        writer.call('appendNote', { text: 'a' }),
        other.call('appendNote', { text: 'b' }),
        writer.call('appendNote', { text: 'c' }),
        other.call('appendNote', { text: 'd' }),
      ]);
      assert.deepEqual(receipts.map((r) => r.sequence).sort(), [1, 2, 3, 4]);
      await other.close();
      // The other side's port closed; the writer still answers its own.
      assert.equal((await writer.call('appendNote', { text: 'e' })).sequence, 5);
    });

    it('fails memory commands alone when memory-state is damaged; capture goes on', async () => {
      const home = freshHome();
      writeFileSync(storeFiles(home).memoryState, 'garbage'.repeat(1000), { mode: 0o600 });
      const writer = await started(home);
      await assert.rejects(writer.call('memoryOpen', {}), isCode('memory_unavailable'));
      assert.equal((await writer.call('appendNote', { text: 'still captured' })).sequence, 1);
    });

    it('refuses a damaged core.sqlite at start, names it, and leaves its bytes as they were', async () => {
      const home = freshHome();
      const bytes = Buffer.alloc(8192, 7);
      writeFileSync(storeFiles(home).core, bytes, { mode: 0o600 });
      await assert.rejects(start(storeFiles(home).core), (error: unknown) => {
        assert.ok(error instanceof CmError);
        assert.equal(error.code, 'store_corrupt');
        assert.ok(error.message.includes(storeFiles(home).core));
        return true;
      });
      assert.deepEqual(readFileSync(storeFiles(home).core), bytes);
    });

    it('once closed, refuses calls clearly and lets the next writer open the same store', async () => {
      const home = freshHome();
      const writer = await start(storeFiles(home).core);
      await writer.call('appendNote', { text: 'before' });
      await writer.close();
      await assert.rejects(writer.call('appendNote', { text: 'after' }), isCode('storage_failed'));
      const next = await started(home);
      assert.equal(next.storeId, writer.storeId);
      assert.equal((await next.call('appendNote', { text: 'next' })).sequence, 2);
    });
  });
}

/** Runs the bin with a CPU profile per thread; returns the run and how many threads wrote one. */
function profiled(home: string, args: string[], cwd?: string) {
  const profiles = join(home, '..', `profiles-${args[0]}`);
  const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, BIN, ...args, '--home', home], {
    encoding: 'utf8',
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(run.status, 0, run.stderr);
  return { run, threads: readdirSync(profiles).filter((name) => name.endsWith('.cpuprofile')).length };
}

describe('a write with no host running', () => {
  it('runs its writer on the command thread: one CPU profile, the note committed', () => {
    const { run, threads } = profiled(freshHome(), ['note', 'alone']);
    assert.match(run.stdout, /noted: journal #1/);
    assert.equal(threads, 1, 'a thread beside the command thread wrote its own profile');
  });

  it('runs its memory files work on the command thread too: a sync, one CPU profile', () => {
    const home = freshHome();
    const { run, threads } = profiled(home, ['memory', 'sync'], gitRepo(home, 'repo'));
    assert.match(run.stdout, /approved memory: generation/);
    assert.equal(threads, 1, 'a thread beside the command thread wrote its own profile');
  });

  it('runs an extraction on the command thread too: memory extract, one CPU profile', () => {
    const home = freshHome();
    const { run, threads } = profiled(home, ['memory', 'extract'], gitRepo(home, 'repo'));
    assert.match(run.stdout, /tasks: 0 planned/);
    assert.equal(threads, 1, 'a thread beside the command thread wrote its own profile');
  });

  it('keeps the writer on a thread for an import, which parses on the command thread meanwhile', () => {
    const home = freshHome();
    const codexHome = join(home, '..', 'codex');
    mkdirSync(join(codexHome, 'sessions'), { recursive: true });
    const { run, threads } = profiled(home, ['import', 'codex', '--yes', '--codex-home', codexHome]);
    assert.match(run.stdout, /0 session/);
    assert.equal(threads, 2, 'the command thread and the writer thread');
  });
});
