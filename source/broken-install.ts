// An installation that cannot run in the Node running it: better-sqlite3's native module built for
// another Node (the Node at the hook's path was upgraded in place, or the package was installed
// with another one). Node loads the module only when the first database opens, so this is met
// inside the hook and the CLI (an installation that cannot even be loaded — not built, a package
// missing — is bin/unloadable.cjs's). Node's own error says what failed but not what to do; this
// says both, naming the Node and the package directory to fix.
import { dirname, sep } from 'node:path';
import { CmError } from './errors.js';
import { shellQuote } from './shell-quote.js';

export interface BrokenInstall {
  /** What is wrong, in one sentence without a final period. */
  readonly what: string;
  /** The command or step that repairs it. */
  readonly fix: string;
}

/**
 * `error` as a broken installation, or undefined when it is something else. The package to
 * rebuild in is the one whose node_modules holds the module Node named.
 */
export function brokenInstall(error: unknown): BrokenInstall | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_DLOPEN_FAILED') return undefined;
  const module = /The module '([^']+)'/.exec(error.message)?.[1] ?? '';
  const at = module.lastIndexOf(`${sep}node_modules${sep}`);
  const packageDir = at > 0 ? module.slice(0, at) : dirname(dirname(process.argv[1] ?? '.'));
  const node = `${process.execPath} (${process.version})`;
  // npm rebuilds the native module for the Node that runs npm, so this Node goes first on PATH.
  const rebuild = `cd ${shellQuote(packageDir)} && PATH=${shellQuote(dirname(process.execPath))}:"$PATH" npm rebuild better-sqlite3`;
  const versions = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(
    error.message,
  );
  const what = versions
    ? `better-sqlite3 in ${packageDir} was built for another Node (NODE_MODULE_VERSION ${versions[1]}); the Node running common-memory, ${node}, needs ${versions[2]}`
    : `better-sqlite3's native module cannot be loaded by ${node}: ${error.message.split('\n')[0]}`;
  return { what, fix: `rebuild it for this Node: ${rebuild}` };
}

/** A BrokenInstall as the error commands report (exit 1); `fix` is kept apart for hook-errors.jsonl. */
export class BrokenInstallError extends CmError {
  readonly what: string;
  readonly fix: string;
  constructor(broken: BrokenInstall) {
    super('install_broken', `${broken.what}. To fix, ${broken.fix}`);
    this.what = broken.what;
    this.fix = broken.fix;
  }
}
