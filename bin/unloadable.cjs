// What the shim does when the hook or the CLI cannot be loaded: dist/ was never built or was
// deleted, or a dependency is missing from node_modules. node:* only: nothing else can be relied on.
// The hook must not fail the user's agent (exit 0, no output) and leaves the failure where
// `status` shows it: a line in the data home's hook-errors.jsonl with what is missing and the
// command that repairs it. The event itself cannot be kept (that needs the code that is missing).
'use strict';
const { appendFileSync, mkdirSync } = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join, resolve } = require('node:path');

const quote = (word) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** What cannot be loaded and the command that repairs it. */
function describeUnloadable(error) {
  const packageDir = dirname(__dirname);
  const text = String(error?.message ?? error);
  const missing = /Cannot find module '([^']+)'/.exec(text)?.[1];
  if (missing !== undefined && /[\\/]dist[\\/]/.test(missing))
    return {
      message: `common-memory in ${packageDir} is not built (${missing} is missing)`,
      fix: `build it: cd ${quote(packageDir)} && npm run build`,
    };
  return {
    message: `common-memory in ${packageDir} cannot be loaded (${text.split('\n')[0]})`,
    fix: `install its dependencies: cd ${quote(packageDir)} && npm install`,
  };
}

/** `hook <client> [--home DIR] …`: the home the hook would have captured into. */
function hookHome(args) {
  const at = args.indexOf('--home');
  const flag = at >= 0 ? args[at + 1] : args.find((word) => word.startsWith('--home='))?.slice('--home='.length);
  const chosen = flag ?? process.env.COMMON_MEMORY_HOME;
  return chosen ? resolve(chosen) : join(homedir(), '.common-memory');
}

exports.recordUnloadableHook = function recordUnloadableHook(args, error) {
  const { message, fix } = describeUnloadable(error);
  const record = {
    at: new Date().toISOString(),
    client: args[0] ?? '',
    code: 'install_broken',
    message: `${message}; this event was not kept`,
    fix,
  };
  try {
    const home = hookHome(args.slice(1));
    mkdirSync(home, { recursive: true, mode: 0o700 });
    appendFileSync(join(home, 'hook-errors.jsonl'), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    process.stderr.write(`common-memory hook: ${JSON.stringify(record)}\n`);
  }
  return 0;
};

/** The CLI's message for the same failure: exit 1 with what to do, instead of a stack trace. */
exports.reportUnloadableCli = function reportUnloadableCli(error) {
  const { message, fix } = describeUnloadable(error);
  process.stderr.write(`common-memory: ${message}. To fix, ${fix}\n`);
  return 1;
};
