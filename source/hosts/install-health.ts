// Why an installed hook, MCP server or pi extension of ours is outdated, told from the paths it
// names. `install` writes absolute paths (the node that ran it, this package's shim): a clone that
// moved, a Node that was removed or a second installation leave entries that name paths this
// installation does not have. install rewrites them and says why; `status`, the Dashboard and the
// Integrations screen warn about the broken ones (a missing path: nothing is captured) with the
// command that repairs them.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { shellQuote } from '../shell-quote.js';

export type OutdatedCode = 'node_missing' | 'node_other' | 'shim_missing' | 'shim_other';

export interface OutdatedReason {
  readonly code: OutdatedCode;
  /** The path the installed entry names. */
  readonly path: string;
  readonly message: string;
}

/** A missing node or shim: the client starts a command that fails, and nothing is captured. */
export const isBroken = (reason: OutdatedReason): boolean =>
  reason.code === 'node_missing' || reason.code === 'shim_missing';

/** The package directory of a shim (`<package>/bin/common-memory.cjs`) or of the pi extension. */
const packageDir = (file: string): string => dirname(dirname(file));

/**
 * What differs between an installed entry's node and file and this installation's. `file` is the
 * shim for hooks and the MCP server, the extension file for pi (which runs it in its own Node).
 */
export function outdatedReasons(
  installed: { node?: string; file: string },
  current: { node?: string; file: string },
  verb: 'runs' | 'loads' = 'runs',
): OutdatedReason[] {
  const reasons: OutdatedReason[] = [];
  if (installed.node !== undefined && current.node !== undefined && installed.node !== current.node) {
    reasons.push(
      existsSync(installed.node)
        ? {
            code: 'node_other',
            path: installed.node,
            message: `it runs the Node at ${installed.node}, not the one running this install (${current.node})`,
          }
        : {
            code: 'node_missing',
            path: installed.node,
            message: `it runs ${installed.node}, which no longer exists (that Node was removed or moved)`,
          },
    );
  }
  if (installed.file !== current.file) {
    reasons.push(
      existsSync(installed.file)
        ? {
            code: 'shim_other',
            path: installed.file,
            message: `it ${verb} the common-memory installed in ${packageDir(installed.file)}, not this one (${packageDir(current.file)})`,
          }
        : {
            code: 'shim_missing',
            path: installed.file,
            message: `it ${verb} ${installed.file}, which does not exist (the clone or package was moved or deleted)`,
          },
    );
  }
  return reasons;
}

/** The command that repairs an installation: this node and this shim, so that it works without PATH. */
export function repairCommand(node: string, shim: string, client: string, extra: readonly string[] = []): string {
  return [node, shim, 'install', client, ...extra].map(shellQuote).join(' ');
}

/** The reasons of several entries, each (code, path) once: nine hooks moved together are one reason. */
export function uniqueReasons(reasons: readonly OutdatedReason[]): OutdatedReason[] {
  const seen = new Set<string>();
  return reasons.filter((reason) => {
    const key = `${reason.code}\0${reason.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `Outdated: it runs …, which does not exist (…).` — one line a reason, for install's text output. */
export const reasonLines = (reasons: readonly OutdatedReason[]): string[] =>
  uniqueReasons(reasons).map((reason) => `Outdated: ${reason.message}.`);
