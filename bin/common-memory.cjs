#!/usr/bin/env node
// The shim, in CommonJS so that the hook never starts Node's ES module loader. `hook` goes to the
// fast path (one bundled file: node:* and better-sqlite3 only) before anything heavy is loaded:
// hosts start a hook process per event with deadlines of a second or two. Everything else goes to
// the CLI, also one bundled file (scripts/bundle.mjs).
'use strict';
const argv = process.argv.slice(2);
if (argv[0] === 'hook' && !argv.includes('--help')) {
  let hook;
  try {
    hook = require('./hook-loader.cjs').loadHook();
  } catch (error) {
    // Not built, or a dependency missing: the user's agent goes on, and status says what to fix.
    hook = { runHook: (args) => require('./unloadable.cjs').recordUnloadableHook(args, error) };
  }
  // Exit as soon as the hook returns (its reply is already written, synchronously): the ledger's
  // connection is left to this exit, which spares it the checkpoint of a last close
  // (source/hook/ledger-events.ts).
  process.exit(hook.runHook(argv.slice(1)));
} else {
  // React's development build is several times slower; the shipped TUI runs the production one.
  process.env.NODE_ENV ??= 'production';
  import('../dist/cli/bundle.mjs').then(
    async ({ main }) => {
      process.exitCode = await main(argv);
    },
    (error) => {
      process.exitCode = require('./unloadable.cjs').reportUnloadableCli(error);
    },
  );
}
