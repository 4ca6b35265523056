import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { BIN, collect, runCli, startCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const json = (text: string) =>
  JSON.parse(text) as Record<string, unknown> & {
    rows: { sequence: number; kind: string; payload: { text?: string } }[];
  };

// The first call of each command, the first refusal of each exit code, a terminal, signals and a
// host's own process go through the shipped bin; the calls after them (reads, the writes a test
// starts from, further refusals of the same kind) run the same main in this process.
describe('cli', () => {
  it('without a command and without a terminal prints help and exits 2', async () => {
    const result = await runCli([]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Usage/);
    assert.match(result.stderr, /needs a terminal/);
  });

  it('--help lists every command and exits 0', async () => {
    const result = await runCli(['--help']);
    assert.equal(result.code, 0);
    for (const command of ['host', 'note', 'log', 'timeline', 'message', 'operation', 'doctor', 'hook'])
      assert.match(result.stdout, new RegExp(`\\b${command}\\b`));
  });

  it('--help after a command, or with --home, prints the help and never reads the data home', async () => {
    let first = true;
    for (const args of [
      ['log', '--help'],
      ['sessions', '--help'],
      ['note', 'x', '--help'],
      ['--home', 'H', '--help'],
    ]) {
      const home = tempHome('help');
      const result = await (first ? runCli : runCliInProcess)(
        args.map((word) => (word === 'H' ? home : word)),
        {
          env: { COMMON_MEMORY_HOME: home },
        },
      );
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, /Usage/, args.join(' '));
      assert.equal(result.stderr, '', args.join(' '));
      assert.equal(existsSync(home), false, `${args.join(' ')} created the data home`);
      first = false;
    }
    const version = await runCliInProcess(['status', '--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  });

  it('unknown commands and flags are usage errors', async () => {
    assert.equal((await runCli(['frobnicate'])).code, 2);
    assert.equal((await runCliInProcess(['log', '--bogus'])).code, 2);
  });

  it('a note goes in without a host, is read back by log --json, and a replay returns the same receipt', async () => {
    const home = tempHome('cli');
    const first = await runCli(['note', 'remember', 'this', '--operation-id', 'op-1', '--json', '--home', home]);
    assert.equal(first.code, 0, first.stderr);
    const receipt = JSON.parse(first.stdout);
    assert.equal(receipt.replayed, false);
    const again = JSON.parse(
      (await runCliInProcess(['note', 'remember', 'this', '--operation-id', 'op-1', '--json', '--home', home])).stdout,
    );
    assert.deepEqual(again, { ...receipt, replayed: true });
    const conflict = await runCli(['note', 'something else', '--operation-id', 'op-1', '--home', home]);
    assert.equal(conflict.code, 5);
    assert.match(conflict.stderr, /already used/);

    const log = json((await runCli(['log', '--json', '--home', home])).stdout);
    const notes = log.rows.filter((row) => row.kind === 'client.note');
    assert.deepEqual(
      notes.map((row) => row.payload.text),
      ['remember this'],
    );
    assert.equal(notes[0]?.sequence, receipt.sequence);
    const timeline = json((await runCli(['timeline', '--json', '--home', home])).stdout);
    assert.deepEqual(timeline.rows, [], 'notes never reach the timeline');
  });

  it('a note through a running host, read back by log; operation shows it recorded', async () => {
    const home = tempHome('cli-host');
    const { child } = await startHost(home);
    const result = await runCli(['note', 'via host', '--json', '--home', home]);
    assert.equal(result.code, 0, result.stderr);
    const receipt = JSON.parse(result.stdout);
    const op = JSON.parse((await runCli(['operation', receipt.operationId, '--json', '--home', home])).stdout);
    assert.equal(op.state, 'recorded');
    assert.equal(op.journalSequence, receipt.sequence);
    const log = json((await runCliInProcess(['log', '--json', '--home', home])).stdout);
    assert.ok(log.rows.some((row) => row.payload.text === 'via host'));
    assert.equal(await stopHost(child), 0);
  });

  it('--limit prints one page and nextAfter; reading without it goes to the end', async () => {
    const home = tempHome('pages');
    for (let i = 0; i < 3; i++) await runCliInProcess(['note', `n${i}`, '--home', home]);
    const page = json((await runCliInProcess(['log', '--limit', '2', '--json', '--home', home])).stdout);
    assert.equal(page.rows.length, 2);
    assert.equal(page.nextAfter, page.rows[1]!.sequence);
    const rest = json(
      (await runCliInProcess(['log', '--after', String(page.nextAfter), '--json', '--home', home])).stdout,
    );
    assert.ok(rest.rows.length > 0);
    assert.equal(rest.rows[0]!.sequence, page.nextAfter + 1);
    assert.equal((await runCliInProcess(['log', '--limit', '0', '--home', home])).code, 2);
    assert.equal((await runCliInProcess(['log', '--limit', '101', '--home', home])).code, 2);
    assert.equal((await runCliInProcess(['log', '--after', '-3', '--home', home])).code, 2);
    const beyond = await runCliInProcess(['timeline', '--after', '5', '--home', home]);
    assert.equal(beyond.code, 2);
    assert.match(beyond.stderr, /beyond its head/);
  });

  it('cursor files: resumed, kept per stream, and refused when malformed, of the other stream or of another store', async () => {
    const home = tempHome('cursor');
    const dir = dirname(home);
    const journalCursor = join(dir, 'journal.cursor');
    await runCliInProcess(['note', 'one', '--home', home]);
    const first = json(
      (await runCliInProcess(['log', '--json', '--cursor-file', journalCursor, '--home', home])).stdout,
    );
    const saved = JSON.parse(readFileSync(journalCursor, 'utf8'));
    assert.equal(saved.stream, 'journal');
    assert.equal(saved.after, first.rows.at(-1)!.sequence);
    await runCliInProcess(['note', 'two', '--home', home]);
    const second = json(
      (await runCliInProcess(['log', '--json', '--cursor-file', journalCursor, '--home', home])).stdout,
    );
    assert.deepEqual(
      second.rows.filter((row) => row.kind === 'client.note').map((row) => row.payload.text),
      ['two'],
    );

    const wrongStream = await runCliInProcess(['timeline', '--cursor-file', journalCursor, '--home', home]);
    assert.equal(wrongStream.code, 2);
    assert.match(wrongStream.stderr, /journal cursor/);

    const malformed = join(dir, 'bad.cursor');
    writeFileSync(malformed, '{"after": "x"');
    const bad = await runCliInProcess(['log', '--cursor-file', malformed, '--home', home]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /not valid JSON/);

    const foreign = join(dir, 'foreign.cursor');
    writeFileSync(foreign, JSON.stringify({ storeId: randomUUID(), stream: 'journal', after: 0, agentId: null }));
    const other = await runCliInProcess(['log', '--cursor-file', foreign, '--home', home]);
    assert.equal(other.code, 5);
    assert.match(other.stderr, /belongs to store/);
    assert.equal(JSON.parse(readFileSync(foreign, 'utf8')).after, 0, 'a refused cursor is left as it was');
  });

  it('log --follow keeps reading across a host restart, without skipping or repeating a row', async () => {
    const home = tempHome('follow');
    const first = await startHost(home);
    const follower = startCli(['log', '--follow', '--json', '--home', home]);
    let output = '';
    follower.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const rows = () =>
      output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { sequence: number; kind: string; payload: { text?: string } });
    await runCliInProcess(['note', 'before restart', '--home', home]);
    await waitFor('first note', () => rows().some((row) => row.payload.text === 'before restart') || undefined);
    await stopHost(first.child);
    const second = await startHost(home);
    assert.equal(second.info.storeId, first.info.storeId);
    assert.notEqual(second.info.hostId, first.info.hostId);
    await runCliInProcess(['note', 'after restart', '--home', home]);
    await waitFor('second note', () => rows().some((row) => row.payload.text === 'after restart') || undefined);
    follower.kill('SIGINT');
    const exit = await new Promise<number | null>((resolve) => follower.once('exit', (code) => resolve(code)));
    assert.equal(exit, 130, 'Ctrl+C stops the client only');
    const sequences = rows().map((row) => row.sequence);
    assert.deepEqual(
      sequences,
      Array.from({ length: sequences.length }, (_, i) => i + 1),
      'every row exactly once, in order',
    );
    const status = await runCliInProcess(['note', 'host still serving', '--home', home]);
    assert.equal(status.code, 0);
    await stopHost(second.child);
  });

  it('a corrupted database file gets a clear error, exit 7, and is left untouched', async () => {
    const home = tempHome('corrupt');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const garbage = Buffer.from('this is not a sqlite database, just some bytes '.repeat(200));
    writeFileSync(storeFiles(home).core, garbage);
    const result = await runCli(['note', 'x', '--home', home]);
    assert.equal(result.code, 7);
    assert.match(result.stderr, /damaged or not a common-memory database/);
    assert.deepEqual(readFileSync(storeFiles(home).core), garbage);
  });

  it('a data home without permission gets a clear error and exit 7', async () => {
    const home = tempHome('noperm');
    const parent = dirname(home);
    if (process.getuid?.() === 0) {
      // root ignores permissions: run the command as an unprivileged user, whom the 0700 parent refuses.
      const child = spawn(process.execPath, [BIN, 'note', 'x', '--home', home], {
        uid: 65534,
        gid: 65534,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const result = await collect(child);
      assert.equal(result.code, 7, result.stderr);
      assert.match(result.stderr, /permission denied/);
      return;
    }
    chmodSync(parent, 0o500);
    try {
      const result = await runCli(['note', 'x', '--home', home]);
      assert.equal(result.code, 7);
      assert.match(result.stderr, /permission denied/);
    } finally {
      chmodSync(parent, 0o700);
    }
  });
});
