// Hostile input to the real hook process (issue 26, items 1, 2 and 7): a transcript path that is
// not a regular file, or a link out of the client's transcript directory; stdin of any size; a
// session id that is not valid UTF-8. Each is run as installed hooks run it (the shipped bin, a
// pipe on stdin) and must leave the agent alone (exit 0) with the event kept or the reason recorded.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { StdinOverLimit } from '../../source/hook/failures.js';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { readTail } from '../../source/hook/transcript-tail.js';
import { HOOK_STDIN_MAX_BYTES } from '../../source/limits.js';
import { openDatabase } from '../../source/store/database.js';
import { BIN, runCli, tempHome } from '../support/cli.js';

const hook = (home: string, client: 'claude' | 'codex', input: string | Buffer, env: NodeJS.ProcessEnv = {}) =>
  runCli(['hook', client, '--home', home], { input, env: { [INSTANCE_ENV]: 'hostile-1', ...env }, timeoutMs: 20_000 });

const stop = (sessionId: string, transcriptPath: string) =>
  JSON.stringify({
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: '/tmp',
    hook_event_name: 'Stop',
    stop_hook_active: false,
  });

function hookErrors(home: string): Array<Record<string, unknown>> {
  try {
    return readFileSync(storeFiles(home).hookErrors, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
}

function query<T>(home: string, sql: string): T[] {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const inbox = (home: string) =>
  query<{ event: string; tail_state: string; host_session_id: string; payload: string }>(
    home,
    'SELECT event, tail_state, host_session_id, payload FROM inbox ORDER BY id',
  );

describe('hook: transcript paths that are not plain files of the client', () => {
  it('a FIFO as transcript_path: the hook neither opens nor waits on it; the event is kept and the reason recorded', async () => {
    const home = tempHome('hostile-fifo');
    const fifo = join(dirname(home), 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const result = await hook(home, 'claude', stop('s-fifo', fifo));
    assert.equal(result.code, 0, result.stderr);
    assert.ok(Date.now() - started < 10_000, 'well inside the host deadline');
    assert.deepEqual(
      inbox(home).map((row) => [row.event, row.tail_state]),
      [['Stop', 'unreadable']],
      'the event is kept, without a tail',
    );
    const [line] = hookErrors(home);
    assert.equal(line?.['code'], 'transcript_refused');
    assert.match(String(line?.['message']), /not a regular file/);
    assert.match(String(line?.['message']), /transcript\.fifo/);
  });

  it('the FIFO session is isolated by the drain, and retrying it does not hang on the FIFO either', async () => {
    const home = tempHome('hostile-fifo-drain');
    const fifo = join(dirname(home), 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const event of ['UserPromptSubmit', 'Stop']) {
      const payload = JSON.parse(stop('s-fifo-drain', fifo)) as Record<string, unknown>;
      const result = await hook(home, 'claude', JSON.stringify({ ...payload, hook_event_name: event, prompt: 'hi' }));
      assert.equal(result.code, 0, result.stderr);
    }
    const drained = await runCli(['--json', '--home', home, 'session-drain'], { timeoutMs: 20_000 });
    assert.equal(drained.code, 0, drained.stderr);
    const status = JSON.parse((await runCli(['--json', '--home', home, 'status'])).stdout) as {
      recovery: { items: Array<{ id: string; code: string }> };
    };
    const item = status.recovery.items[0];
    assert.equal(item?.code, 'transcript_unreadable');
    const retried = await runCli(['--json', '--home', home, 'session-drain', '--recover', item!.id], {
      timeoutMs: 20_000,
    });
    assert.equal(retried.code, 3, 'incomplete: the session stays isolated');
    assert.equal((JSON.parse(retried.stdout) as { recovered: boolean }).recovered, false);
    const after = JSON.parse((await runCli(['--json', '--home', home, 'status'])).stdout) as {
      recovery: { items: Array<{ id: string; detail: string }> };
    };
    assert.match(after.recovery.items[0]?.detail ?? '', /not a regular file/);
  });

  it('a symlink is followed only into the client transcript directory ($CLAUDE_CONFIG_DIR/projects); one pointing elsewhere is refused, the event kept', async () => {
    const home = tempHome('hostile-link');
    const root = dirname(home);
    const claudeDir = join(root, 'claude-config');
    const real = join(claudeDir, 'projects', '-tmp', 's-link.jsonl');
    mkdirSync(dirname(real), { recursive: true });
    writeFileSync(real, '{"type":"user","n":1}\n');
    const outside = join(root, 'elsewhere', 'secret.jsonl');
    mkdirSync(dirname(outside), { recursive: true });
    writeFileSync(outside, '{"type":"user","secret":true}\n');
    const links = join(root, 'links');
    mkdirSync(links);
    symlinkSync(real, join(links, 'inside.jsonl'));
    symlinkSync(outside, join(links, 'outside.jsonl'));
    const env = { CLAUDE_CONFIG_DIR: claudeDir };

    const inside = await hook(home, 'claude', stop('s-in', join(links, 'inside.jsonl')), env);
    assert.equal(inside.code, 0, inside.stderr);
    const away = await hook(home, 'claude', stop('s-out', join(links, 'outside.jsonl')), env);
    assert.equal(away.code, 0, away.stderr);

    assert.deepEqual(
      inbox(home).map((row) => [row.host_session_id, row.tail_state]),
      [
        ['s-in', 'captured'],
        ['s-out', 'unreadable'],
      ],
    );
    const tails = query<{ bytes: Buffer }>(home, 'SELECT bytes FROM inbox_tails ORDER BY inbox_id, seq');
    assert.equal(Buffer.concat(tails.map((t) => t.bytes)).toString('utf8'), '{"type":"user","n":1}\n');
    const lines = hookErrors(home);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]?.['code'], 'transcript_refused');
    assert.match(String(lines[0]?.['message']), /outside\.jsonl/);
    assert.match(String(lines[0]?.['message']), /outside .*projects/);
  });

  it("a read not done by the host's deadline is given up with the reason (the tail reader, by itself)", () => {
    const file = join(dirname(tempHome('hostile-deadline')), 'transcript.jsonl');
    writeFileSync(file, '{"type":"user"}\n');
    assert.equal(readTail(file, 0, { deadlineMs: Number.POSITIVE_INFINITY }).state, 'captured');
    const late = readTail(file, 0, { deadlineMs: 0 });
    assert.equal(late.state, 'unreadable');
    assert.match(late.reason ?? '', /deadline/);
  });

  it('Codex: a link into $CODEX_HOME/sessions is followed', async () => {
    const home = tempHome('hostile-codex-link');
    const root = dirname(home);
    const codexHome = join(root, 'codex-home');
    const real = join(codexHome, 'sessions', '2026', '12', '02', 'rollout-x.jsonl');
    mkdirSync(dirname(real), { recursive: true });
    writeFileSync(real, '{"type":"session_meta"}\n');
    const link = join(root, 'rollout-link.jsonl');
    symlinkSync(real, link);
    const result = await hook(home, 'codex', stop('s-codex', link), { CODEX_HOME: codexHome });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      inbox(home).map((row) => row.tail_state),
      ['captured'],
    );
    assert.deepEqual(hookErrors(home), []);
  });
});

/** Peak resident memory (VmHWM, KiB) of the hook process, written by a preload at its exit. */
function rssRecorder(dir: string): { env: NodeJS.ProcessEnv; peakKiB: () => number } {
  const recorder = join(dir, 'record-rss.cjs');
  const out = join(dir, 'rss.txt');
  writeFileSync(
    recorder,
    `process.on('exit', () => {
       const status = require('node:fs').readFileSync('/proc/self/status', 'utf8');
       require('node:fs').writeFileSync(${JSON.stringify(out)}, /VmHWM:\\s+(\\d+)/.exec(status)[1]);
     });`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${recorder}` },
    peakKiB: () => Number(readFileSync(out, 'utf8')),
  };
}

/** Runs the hook with `bytes` of generated stdin (written as fast as the hook reads it). */
function hookWithFlood(
  home: string,
  bytes: number,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; ms: number; written: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'hook', 'codex', '--home', home], {
    env: { ...process.env, NODE_ENV: 'production', [INSTANCE_ENV]: 'flood-1', ...env },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // Valid JSON so far: an object opened and a string that never ends.
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  let written = 0;
  let closed = false;
  child.stdin.on('error', () => {
    closed = true; // EPIPE: the hook stopped reading, as it should
  });
  const pump = () => {
    while (!closed && written < bytes) {
      const piece = written === 0 ? Buffer.concat([Buffer.from('{"session_id":"'), chunk]) : chunk;
      written += piece.length;
      if (!child.stdin.write(piece)) return void child.stdin.once('drain', pump);
    }
    if (!closed) child.stdin.end();
  };
  pump();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the hook did not finish within 60 s'));
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      closed = true;
      resolve({ code, ms: Date.now() - started, written });
    });
  });
}

describe('hook: stdin of any size', () => {
  it('96 MiB on stdin: reads at most the bound + 1 byte, records the over-limit event with its first bytes, exits 0 in bounded time and memory', async () => {
    const home = tempHome('hostile-stdin');
    const rss = rssRecorder(dirname(home));
    // The floor: one ordinary event, measured the same way.
    const normal = await runCli(['hook', 'codex', '--home', home], {
      input: JSON.stringify({ session_id: 's0', cwd: '/tmp', hook_event_name: 'SessionStart', source: 'startup' }),
      env: { ...rss.env, [INSTANCE_ENV]: 'flood-0' },
    });
    assert.equal(normal.code, 0, normal.stderr);
    const floorKiB = rss.peakKiB();

    const flood = await hookWithFlood(home, 96 * 1024 * 1024, rss.env);
    assert.equal(flood.code, 0);
    const peakKiB = rss.peakKiB();
    assert.ok(
      // Reading stops at the bound (4 MiB); reading everything made it 200+ MiB over the floor.
      peakKiB < floorKiB + (4 * HOOK_STDIN_MAX_BYTES) / 1024,
      `peak RSS ${peakKiB} KiB against ${floorKiB} KiB for an ordinary event: stdin is read only up to its bound`,
    );
    assert.ok(flood.ms < 15_000, `took ${flood.ms} ms`);
    assert.ok(flood.written < 96 * 1024 * 1024, 'the hook stopped reading: the writer saw the pipe close');

    const [line] = hookErrors(home);
    assert.equal(line?.['code'], 'limit_exceeded');
    assert.equal(line?.['payloadBytesAtLeast'], HOOK_STDIN_MAX_BYTES + 1);
    assert.equal(line?.['quarantined'], undefined, 'nothing to replay: the event is cut');
    const head = readFileSync(join(home, String(line?.['head'])));
    assert.ok(head.length > 0 && head.length < HOOK_STDIN_MAX_BYTES);
    assert.equal(head.subarray(0, 15).toString('latin1'), '{"session_id":"', 'the first bytes are kept');
    assert.deepEqual(
      inbox(home).map((row) => row.event),
      ['SessionStart'],
    );
  });

  it('a regular file over the bound on stdin: its size is known and recorded', async () => {
    const home = tempHome('hostile-stdin-file');
    const file = join(dirname(home), 'big.json');
    writeFileSync(file, Buffer.alloc(HOOK_STDIN_MAX_BYTES + 4096, 0x20));
    const result = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'hook', 'codex', '--home', home], {
        env: { ...process.env, [INSTANCE_ENV]: 'file-1' },
        stdio: [openSync(file, 'r'), 'ignore', 'ignore'],
      });
      child.on('close', resolve);
    });
    assert.equal(result, 0);
    const [line] = hookErrors(home);
    assert.equal(line?.['code'], 'limit_exceeded');
    assert.equal(line?.['payloadBytes'], HOOK_STDIN_MAX_BYTES + 4096);
    assert.equal(
      line?.['message'],
      `hook payload of ${HOOK_STDIN_MAX_BYTES + 4096} bytes is over the ${HOOK_STDIN_MAX_BYTES}-byte bound of an event: reading stopped there; its first 65536 bytes are kept (head) and it cannot be replayed`,
    );
    // A pipe's size is unknown: not "more than N bytes is over N".
    assert.equal(
      new StdinOverLimit(Buffer.alloc(10), null, 100).message,
      'hook payload is over the 100-byte bound of an event: reading stopped there; its first 10 bytes are kept (head) and it cannot be replayed',
    );
  });
});

describe('hook: a payload that is not an event', () => {
  it('bad JSON: the hook exits 0 quietly, and status says where the failure went', async () => {
    const home = tempHome('hostile-bad-json');
    // An event first, so that there is a store (without one, status says where hooks failed, exit 6).
    assert.equal((await hook(home, 'claude', stop('s-ok', join(home, 'none.jsonl')))).code, 0);
    const result = await hook(home, 'claude', '{"hook_event_name": "Stop", "session_');
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '', 'no reply the client would read as context');
    assert.equal(hookErrors(home)[0]?.['code'], 'invalid_input');
    const status = await runCli(['status', '--home', home]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /hook errors 1 \(last invalid_input at [^)]+\)/);
    // Where to read what failed, and the command that replays it.
    assert.ok(status.stdout.includes(storeFiles(home).hookErrors), status.stdout);
  });
});

describe('hook: the global flags before the command', () => {
  it('--home DIR before `hook` (as every other command takes it) records the event in DIR and exits 0', async () => {
    const home = tempHome('hostile-home-first');
    const result = await runCli(['--home', home, 'hook', 'claude'], {
      input: stop('s-home-first', join(home, 'none.jsonl')),
      env: { [INSTANCE_ENV]: 'home-first-1' },
    });
    // Exit 2 of a Claude Code hook is a blocking error: at UserPromptSubmit it would erase the prompt.
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(
      inbox(home).map((row) => row.event),
      ['Stop'],
    );
    const json = await runCli([`--home=${home}`, '--json', 'hook', 'claude'], {
      input: stop('s-home-first-2', join(home, 'none.jsonl')),
      env: { [INSTANCE_ENV]: 'home-first-1' },
    });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(inbox(home).length, 2);
  });

  it('a usage error of the hook is JSON under --json, as every command says its errors', async () => {
    for (const args of [
      ['hook', '--json'],
      ['--json', 'hook', 'vim'],
    ]) {
      const refused = await runCli(args, { input: '{}' });
      assert.equal(refused.code, 2, args.join(' '));
      const error = (JSON.parse(refused.stderr) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'usage');
      assert.match(error.message, /^usage: common-memory hook codex\|claude\|pi/);
    }
    const plain = await runCli(['hook'], { input: '{}' });
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /^usage: common-memory hook/);
  });
});

describe('hook: session ids that are not valid UTF-8', () => {
  it('two ids that differ only in invalid bytes are two sessions; the inbox keeps the bytes, the id is shown escaped', async () => {
    const home = tempHome('hostile-utf8');
    const start = (idBytes: Buffer) =>
      Buffer.concat([
        Buffer.from('{"hook_event_name":"SessionStart","source":"startup","cwd":"/tmp","session_id":"s-'),
        idBytes,
        Buffer.from('"}'),
      ]);
    for (const bytes of [Buffer.from([0xff]), Buffer.from([0xfe]), Buffer.from([0xc3, 0xa9])]) {
      const result = await hook(home, 'claude', start(bytes));
      assert.equal(result.code, 0, result.stderr);
    }
    assert.deepEqual(hookErrors(home), []);
    const sessions = query<{ host_session_id: string }>(
      home,
      'SELECT host_session_id FROM capture_activations ORDER BY activation_id',
    ).map((row) => row.host_session_id);
    assert.equal(new Set(sessions).size, 3, `three sessions: ${JSON.stringify(sessions)}`);
    assert.equal(sessions[2], 's-\u00e9', 'a valid id is kept as it is');
    assert.match(sessions[0]!, /^s-\\xFF /, 'shown escaped');
    assert.match(sessions[1]!, /^s-\\xFE /);
    assert.ok(!sessions.some((id) => id.includes('\uFFFD')), 'never the replacement character');
    const payloads = inbox(home).map((row) => JSON.parse(row.payload) as { session_id: string });
    assert.equal(payloads[0]?.session_id, 's-\udcff', 'the byte is recoverable from the inbox (one escape per byte)');
    assert.equal(payloads[1]?.session_id, 's-\udcfe');
  });
});
