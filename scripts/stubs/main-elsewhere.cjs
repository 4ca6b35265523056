// In a CommonJS CLI bundle cut to some commands (dist/cli/read.cjs, dist/cli/mcp.cjs, built by
// scripts/bundle.mjs) in place of each other command's module: every export is this function. The
// shim sends each command to the bundle that has it; a run that reaches this anyway (a flag before
// the command word) is handed over whole to dist/cli/main.cjs, the CLI with every command, so no
// object of one bundle ever meets another's code.
'use strict';
const { join } = require('node:path');

exports.handOver = () => {
  // Through bin/code-cache.cjs, as the shim loads every CLI bundle.
  const { loadCached } = require(join(__dirname, '..', '..', 'bin', 'code-cache.cjs'));
  return loadCached(join(__dirname, 'main.cjs')).main(process.argv.slice(2));
};
