// `node scripts/cli-code-cache.cjs`: the build's step that writes the code cache of each CLI bundle
// (bin/code-cache.cjs): dist/cli/main.cjs.v8cache, read.cjs.v8cache and mcp.cjs.v8cache. It runs
// what clients and scripts call in loops — in main.cjs a note and status, in read.cjs the reads, in
// mcp.cjs an MCP server's first exchange (initialize, tools/list) — in a throwaway data home, with
// their output dropped, so that the functions they call are in the cache too. Each bundle runs
// only commands it has (scripts/bundle.mjs; the others would hand the run over to main.cjs).
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Readable, Writable } = require('node:stream');
const { writeCodeCache } = require('../bin/code-cache.cjs');

const CLI = join(__dirname, '..', 'dist', 'cli', 'main.cjs');
const READ = join(__dirname, '..', 'dist', 'cli', 'read.cjs');
const MCP = join(__dirname, '..', 'dist', 'cli', 'mcp.cjs');
const dir = mkdtempSync(join(tmpdir(), 'cm-cli-cache-'));
const home = join(dir, 'home');
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const runs = [
  ['note', 'the code cache is made here', '--home', home],
  ['status', '--json', '--home', home],
  ['note', '--help'],
];
const reads = [
  ['sessions', '--json', '--home', home],
  ['get', 'none', '--json', '--home', home],
  ['memory', 'review', '--json', '--home', home],
  ['search', 'cache', '--json', '--home', home],
  ['sessions', '--help'],
];

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

writeCodeCache(CLI, async (cli) => {
  for (const argv of runs) await cli.main(argv, quiet);
})
  .then(() =>
    writeCodeCache(READ, async (cli) => {
      for (const argv of reads) await cli.main(argv, quiet);
    }),
  )
  .then(() => writeCodeCache(MCP, serveFirstExchange))
  .catch((error) => {
    process.exitCode = 1;
    console.error(`bundle: the CLI's code cache was not written: ${error.stack ?? error}`);
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
