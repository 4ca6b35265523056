// `node scripts/cli-code-cache.cjs`: the build's step that writes the code cache of each CLI bundle
// and of each worker thread (bin/code-cache.cjs): dist/cli/main.cjs.v8cache, read.cjs.v8cache,
// mcp.cjs.v8cache and dist/workers/<name>-thread.cjs.v8cache. It runs what clients and scripts call
// in loops — in main.cjs a note, status, a drain, an extraction, a sync and a serving host, in
// read.cjs the reads, in mcp.cjs an MCP server's first exchange (initialize, tools/list) — in a
// throwaway data home, with their output dropped, so that the functions they call are in the cache
// too. Each bundle runs only commands it has (scripts/bundle.mjs; the others would hand the run
// over to main.cjs). The threads those commands start write their own caches when this process is
// about to terminate them (threadCaches below), each adding to what the previous start of the same
// thread wrote: the serving host, last, starts all five (the agents thread for an agent stopped)
// and runs the same commands again through them (alone, a command writes on its own thread).
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Readable, Writable } = require('node:stream');
const { BroadcastChannel, Worker, setEnvironmentData } = require('node:worker_threads');
const { fromCache, THREAD_CACHE, writeCodeCache } = require('../bin/code-cache.cjs');

const CLI = join(__dirname, '..', 'dist', 'cli', 'main.cjs');
const READ = join(__dirname, '..', 'dist', 'cli', 'read.cjs');
const MCP = join(__dirname, '..', 'dist', 'cli', 'mcp.cjs');
const TUI = join(__dirname, '..', 'dist', 'cli', 'tui.cjs');
const THREADS = ['writer-thread', 'drain-thread', 'agents-thread', 'runners-thread', 'memory-files-thread'].map(
  (name) => join(__dirname, '..', 'dist', 'workers', `${name}.cjs`),
);
const dir = mkdtempSync(join(tmpdir(), 'cm-cli-cache-'));
const home = join(dir, 'home');
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const runs = [
  ['note', 'the code cache is made here', '--home', home],
  ['status', '--json', '--home', home],
  ['note', '--help'],
  ['session-drain', '--json', '--home', home],
  ['memory', 'extract', '--json', '--home', home],
  ['memory', 'sync', '--json', '--home', home],
];
const reads = [
  ['sessions', '--json', '--home', home],
  ['get', 'none', '--json', '--home', home],
  ['memory', 'review', '--json', '--home', home],
  ['search', 'cache', '--json', '--home', home],
  ['sessions', '--help'],
];

/**
 * The threads this process starts write their code caches: the environment data tells them it is
 * the build (bin/code-cache.cjs, runThread), and each is asked to write on the THREAD_CACHE channel
 * just before it is terminated — the hosts stop every thread with terminate(), which runs none of
 * the thread's code, not even its exit handlers.
 */
function threadCaches() {
  setEnvironmentData(THREAD_CACHE, true);
  const channel = new BroadcastChannel(THREAD_CACHE);
  channel.unref();
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function terminateAfterItsCache() {
    const threadId = this.threadId;
    if (threadId < 0) return terminate.call(this);
    const written = new Promise((resolve, reject) => {
      const done = (error) => {
        clearTimeout(timer);
        channel.removeEventListener('message', onMessage);
        this.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      const onMessage = ({ data }) => {
        if (data?.written === threadId) done();
      };
      // A thread gone by itself writes nothing; the check at the end names the thread without a cache.
      const onExit = () => done();
      const timer = setTimeout(() => done(new Error(`thread ${threadId} did not write its code cache`)), 30_000);
      channel.addEventListener('message', onMessage);
      this.once('exit', onExit);
      channel.postMessage({ write: threadId });
    });
    return written.then(() => terminate.call(this));
  };
}

/** Something for the drain thread to drain: a session's start, as a Codex hook delivers it. */
function hookEvent() {
  const event = {
    session_id: 'build',
    transcript_path: null,
    cwd: dir,
    hook_event_name: 'SessionStart',
    source: 'startup',
  };
  execFileSync(process.execPath, [join(__dirname, '..', 'bin', 'common-memory.cjs'), 'hook', 'codex', '--home', home], {
    input: JSON.stringify(event),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
}

/** A small repository for `memory sync` (git's absence leaves a plain directory, synced all the same). */
function repository() {
  const repo = join(dir, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'README.md'), 'A repository for the build.\n');
  try {
    execFileSync('git', ['init', '-q'], { cwd: repo, stdio: 'ignore' });
  } catch {
    // no git: the sync runs outside a repository
  }
  return repo;
}

/** `host` as the TUI starts its host (serving), with every thread started, stopped once it has served. */
async function serveBriefly(cli) {
  let served;
  const ready = new Promise((resolve) => {
    served = resolve;
  });
  const io = { stdout: { write: () => served() ?? true }, stderr: { write: () => true } };
  const running = cli.main(['host', '--json', '--home', home], io);
  await Promise.race([ready, running]);
  try {
    // The agents thread starts with the first call that needs it: an agent created, then stopped
    // through the serving host, loads it (the stop is refused, exit 13: the agent never ran).
    if ((await cli.main(['agent', 'create', 'code-cache', '--home', home], quiet)) !== 0)
      throw new Error("`agent create` failed beside the build's host");
    if ((await cli.main(['agent', 'stop', 'code-cache', '--home', home], quiet)) !== 13)
      throw new Error('`agent stop` of an agent that never ran was not refused as not running');
    // The writes of the runs above, now through the host: a command working alone writes on its
    // own thread (main.cjs's cache has those), a serving host on its writer thread, whose cache
    // should hold them too. A hook's event first, for its drain to have a step to commit.
    hookEvent();
    await runAll(cli, runs);
    // What a host does in its first moments (a drain pass, the start's sync) before it is stopped.
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    // Stopped even when a step failed: a host left serving would keep the build from ending.
    process.emit('SIGINT');
  }
  const code = await running;
  if (code !== 0) throw new Error(`the build's host exited ${code}`);
}

/** Fails the build when a thread's cache is missing or not accepted for its bundle. */
function checkThreadCaches() {
  for (const file of THREADS) {
    const script = fromCache(file);
    if (script === null || script.cachedDataRejected) throw new Error(`${file} has no code cache V8 accepts`);
  }
}

/** What a client sends first, as the server reads it from stdin. */
const FIRST_EXCHANGE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
];

/** Runs `mcp` with the first exchange on a stand-in stdin and its answers dropped. */
async function serveFirstExchange(cli) {
  const saved = { stdin: process.stdin, stdout: process.stdout };
  const stdin = Readable.from(FIRST_EXCHANGE.map((message) => `${JSON.stringify(message)}\n`));
  const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
  Object.defineProperty(process, 'stdin', { value: stdin, configurable: true });
  Object.defineProperty(process, 'stdout', { value: stdout, configurable: true });
  try {
    await cli.main(['mcp', '--home', home], quiet);
  } finally {
    Object.defineProperty(process, 'stdin', { value: saved.stdin, configurable: true });
    Object.defineProperty(process, 'stdout', { value: saved.stdout, configurable: true });
  }
}

/**
 * The TUI as a person starts it, on a stand-in terminal (stdin and stdout that say they are one):
 * its first frame, then the host it starts in this process, stopped by SIGTERM as a terminal's
 * close stops it once the dashboard has the host's data.
 */
async function drawFirstFrames(cli) {
  // React's production build, as the shim runs it (the cache holds the functions it calls).
  process.env.NODE_ENV = 'production';
  const { PassThrough } = require('node:stream');
  const saved = { stdin: process.stdin, stdout: process.stdout };
  let output = '';
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  const stdout = Object.assign(
    new Writable({
      write: (chunk, _encoding, done) => {
        output += chunk.toString('utf8');
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  Object.defineProperty(process, 'stdin', { value: stdin, configurable: true });
  Object.defineProperty(process, 'stdout', { value: stdout, configurable: true });
  try {
    const running = cli.main(['--home', home]);
    const shown = (text) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const timer = setInterval(() => {
          if (output.includes(text)) resolve(clearInterval(timer));
          else if (Date.now() - started > 30_000)
            reject(new Error(`the TUI never showed ${text}`, clearInterval(timer)));
        }, 20);
      });
    await Promise.race([shown('Dashboard'), running]);
    await Promise.race([shown('mode host'), running]);
    process.emit('SIGTERM');
    const code = await running;
    if (code !== 0) throw new Error(`the build's TUI exited ${code}`);
  } finally {
    Object.defineProperty(process, 'stdin', { value: saved.stdin, configurable: true });
    Object.defineProperty(process, 'stdout', { value: saved.stdout, configurable: true });
  }
}

threadCaches();
hookEvent();
const repo = repository();
const cwd = process.cwd();
async function runAll(cli, argvs) {
  for (const argv of argvs) {
    if (argv[1] === 'sync') process.chdir(repo);
    const code = await cli.main(argv, quiet);
    process.chdir(cwd);
    // A run that failed ran less than it should have: the caches would say nothing of it.
    if (code !== 0 && !argv.includes('--help')) throw new Error(`\`${argv.slice(0, 2).join(' ')}\` exited ${code}`);
  }
}
writeCodeCache(CLI, async (cli) => {
  await runAll(cli, runs);
  await serveBriefly(cli);
})
  .then(checkThreadCaches)
  .then(() =>
    writeCodeCache(READ, async (cli) => {
      for (const argv of reads) await cli.main(argv, quiet);
    }),
  )
  .then(() => writeCodeCache(MCP, serveFirstExchange))
  .then(() => writeCodeCache(TUI, drawFirstFrames))
  .catch((error) => {
    process.exitCode = 1;
    console.error(`bundle: the CLI's code cache was not written: ${error.stack ?? error}`);
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
