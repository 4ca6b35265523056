// `node scripts/cli-code-cache.cjs`: the build's step that writes dist/cli/main.cjs.v8cache
// (bin/code-cache.cjs). It runs the reads that clients and scripts call in loops — in a throwaway
// data home, with their output dropped — so that the functions they call are in the cache too.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { writeCodeCache } = require('../bin/code-cache.cjs');

const CLI = join(__dirname, '..', 'dist', 'cli', 'main.cjs');
const dir = mkdtempSync(join(tmpdir(), 'cm-cli-cache-'));
const home = join(dir, 'home');
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const runs = [
  ['note', 'the code cache is made here', '--home', home],
  ['sessions', '--json', '--home', home],
  ['status', '--json', '--home', home],
  ['get', 'none', '--json', '--home', home],
  ['memory', 'review', '--json', '--home', home],
  ['search', 'cache', '--json', '--home', home],
  ['note', '--help'],
];

writeCodeCache(CLI, async (cli) => {
  for (const argv of runs) await cli.main(argv, quiet);
})
  .catch((error) => {
    process.exitCode = 1;
    console.error(`bundle: the CLI's code cache was not written: ${error.stack ?? error}`);
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
