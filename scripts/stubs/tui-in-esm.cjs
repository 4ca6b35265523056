// In the CommonJS CLI bundles (dist/cli/*.cjs, built by scripts/bundle.mjs) in place of
// commands/tui.js: the TUI (ink, react, yoga) is in the ES module bundle only. The shim sends a
// TUI run there directly; a run that reaches this anyway is handed over whole, so no object of one
// bundle ever meets the other's code.
'use strict';
const { join } = require('node:path');

exports.runTuiCommand = async () => {
  // Through bin/code-cache.cjs, which loaded this bundle: import() here has no loader in Node 20.
  const { importFile } = require(join(__dirname, '..', '..', 'bin', 'code-cache.cjs'));
  const esm = await importFile(join(__dirname, 'bundle.mjs'));
  return esm.main(process.argv.slice(2));
};
