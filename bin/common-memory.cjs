#!/usr/bin/env node
// The shim, in CommonJS so that the hook never starts Node's ES module loader. `hook` goes to the
// fast path (one bundled file: node:* and better-sqlite3 only) before anything heavy is loaded:
// hosts start a hook process per event with deadlines of a second or two. The TUI goes to the CLI
// bundle with ink and react (tui.cjs); every other command to one without them (scripts/bundle.mjs).
'use strict';
const argv = process.argv.slice(2);
const hookAt = hookWord(argv);
if (hookAt >= 0 && !argv.includes('--help')) {
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
  // Global flags written before `hook` go after its client, where the hook's own parser reads them.
  process.exit(hook.runHook([...argv.slice(hookAt + 1), ...argv.slice(0, hookAt)]));
} else {
  // React's development build is several times slower; the shipped CLI and TUI run the production one.
  process.env.NODE_ENV ??= 'production';
  // The TUI: the CLI with ink, react and yoga (as ES module chunks every start compiled them
  // again). Every other command: the CLI without the TUI; `mcp` the CLI with the MCP server and no
  // other command; the reads that scripts and agents call in loops the CLI with only them. Each is
  // one CommonJS file loaded through its code cache (scripts/bundle.mjs). Any bundle hands a
  // command it lacks to the one that has it, so this choice is about speed only.
  const bundle = isTui(argv) ? 'tui.cjs' : argv[0] === 'mcp' ? 'mcp.cjs' : isRead(argv) ? 'read.cjs' : 'main.cjs';
  let cli;
  try {
    cli = require('./code-cache.cjs').loadCached(require('node:path').join(__dirname, '..', 'dist', 'cli', bundle));
  } catch (error) {
    process.exitCode = require('./unloadable.cjs').reportUnloadableCli(error);
  }
  cli?.main(argv).then((code) => {
    process.exitCode = code;
  });
}

/**
 * Where the word `hook` is when it is the command: first, or after global flags (`--home DIR`,
 * `--home=DIR`, `--json`) as every command takes them. Else -1. A hook command written by hand
 * with `--home` first must reach the fast path too: the CLI would refuse it with exit 2, which a
 * Claude Code hook reports as a blocking error (at UserPromptSubmit it erases the prompt).
 */
function hookWord(words) {
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (word === 'hook') return index;
    if (word === '--home') index++;
    else if (!word.startsWith('--home=') && word !== '--json') return -1;
  }
  return -1;
}

/**
 * The TUI is asked for when no word names a command: only the TUI's own flags (those with a value
 * take the next word). Anything else goes to the plain CLI, which hands a TUI run it receives
 * anyway to the ES module bundle (scripts/stubs/tui-in-esm.cjs).
 */
function isTui(words) {
  const valued = new Set(['--home', '--codex-home', '--claude-dir', '--pi-dir']);
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    if (valued.has(word)) index++;
    else if (![...valued].some((flag) => word.startsWith(`${flag}=`))) return false;
  }
  return true;
}

/** The reads in dist/cli/read.cjs, by their first words (a flag before them: main.cjs). */
function isRead(words) {
  const reads = new Set(['sessions', 'session', 'get', 'search', 'message', 'operation', 'log', 'timeline']);
  const memoryReads = new Set(['status', 'recall', 'review', 'search']);
  return reads.has(words[0]) || (words[0] === 'memory' && memoryReads.has(words[1]));
}
