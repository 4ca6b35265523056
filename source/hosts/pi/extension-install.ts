// Installing common-memory's pi extension: one path in pi's agent-dir settings.json → `extensions`
// (pi 0.73.1 loads that list in every mode, print mode included). Plan first (reads the file,
// writes nothing), then apply through the same transactional writer as the hook integrations
// (temp file + fsync + rename, a backup of the previous file, never over a file changed since
// planning). Every other setting keeps its exact text; the `extensions` list is the only thing
// laid out anew.
//
// Ownership is exact: our entry is the string path of the extension this installation ships. A
// string naming the same file of another common-memory installation (another package path) is
// ours too, from an earlier install: install rewrites it in place, uninstall removes it. Every
// other entry — strings, objects — is the user's and is never moved or removed.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CmError } from '../../errors.js';
import { InvalidConfigError, loadJsonObject, replaceFileAtomically, rewriteJson } from '../config-file.js';
import type { LoadedJson, WriteFault } from '../config-file.js';
import { BIN_PATH } from '../hook-config.js';
import { unifiedDiff } from '../unified-diff.js';

/** The extension file this installation ships (no build step: pi loads it as it is), next to its bin. */
export const PI_EXTENSION_PATH = join(dirname(dirname(BIN_PATH)), 'pi-extension', 'common-memory.js');

/** How the shipped extension's path ends, whichever installation it belongs to. */
const OURS_SUFFIX = /[\\/]pi-extension[\\/]common-memory\.js$/;

export type PiExtensionChange = 'add' | 'update' | 'remove' | 'unchanged';

export interface PiExtensionPlan {
  readonly action: 'install' | 'uninstall';
  readonly piDir: string;
  readonly path: string;
  readonly extension: string;
  readonly before: string | null;
  /** The bytes to write; null when nothing changes or the plan is refused. */
  readonly after: string | null;
  readonly change: PiExtensionChange;
  readonly refusals: readonly string[];
  readonly warnings: readonly string[];
  readonly diff: string;
}

/** --pi-dir, else $PI_CODING_AGENT_DIR, else ~/.pi/agent — where pi itself looks. */
export function resolvePiDir(flag?: string): string {
  const chosen = flag ?? process.env['PI_CODING_AGENT_DIR'];
  return chosen ? resolve(chosen) : join(homedir(), '.pi', 'agent');
}

export function planPiExtension(action: 'install' | 'uninstall', options: { piDir?: string; extension?: string } = {}): PiExtensionPlan {
  const piDir = resolvePiDir(options.piDir);
  const path = join(piDir, 'settings.json');
  const extension = options.extension ?? PI_EXTENSION_PATH;
  const base = { action, piDir, path, extension, after: null, warnings: [], diff: '' };
  let loaded: LoadedJson;
  try {
    loaded = loadJsonObject(path);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    return { ...base, before: null, change: 'unchanged', refusals: [error.message] };
  }
  const root = { ...loaded.value };
  const list = root['extensions'];
  if (list !== undefined && !Array.isArray(list)) {
    return { ...base, before: loaded.text, change: 'unchanged', refusals: [`${path}: "extensions" is not a list. Fix it, then try again; nothing was written.`] };
  }
  const entries = [...((list as unknown[] | undefined) ?? [])];
  const ours = entries.flatMap((entry, index) => (typeof entry === 'string' && (entry === extension || OURS_SUFFIX.test(entry)) ? [index] : []));
  let change: PiExtensionChange;
  if (action === 'install') {
    if (ours.length === 1 && entries[ours[0]!] === extension) change = 'unchanged';
    else if (ours.length === 0) {
      entries.push(extension);
      change = 'add';
    } else {
      // An earlier installation's path (or several): one entry, ours, where the first one was.
      entries[ours[0]!] = extension;
      for (const index of ours.slice(1).reverse()) entries.splice(index, 1);
      change = 'update';
    }
  } else if (ours.length === 0) change = 'unchanged';
  else {
    for (const index of [...ours].reverse()) entries.splice(index, 1);
    change = 'remove';
  }
  if (change === 'unchanged') return { ...base, before: loaded.text, change, refusals: [] };
  if (entries.length > 0) root['extensions'] = entries;
  else delete root['extensions'];
  const after = rewriteJson(loaded, root);
  const label = loaded.text === null ? '/dev/null' : path;
  return { ...base, before: loaded.text, after, change, refusals: [], diff: unifiedDiff(loaded.text ?? '', after, label, path) };
}

export interface PiExtensionApplyResult {
  readonly written: boolean;
  readonly writtenPath: string | null;
  readonly backupPath: string | null;
}

export function applyPiExtension(plan: PiExtensionPlan, fault?: WriteFault): PiExtensionApplyResult {
  if (plan.refusals.length > 0) throw new CmError('invalid_input', plan.refusals.join('\n'));
  if (plan.after === null) return { written: false, writtenPath: null, backupPath: null };
  return { written: true, ...replaceFileAtomically(plan.path, plan.before, plan.after, fault) };
}
