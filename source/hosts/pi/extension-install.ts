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
import { parseSpans } from '../json-preserving.js';
import type { LoadedJson, WriteFault } from '../config-file.js';
import { BIN_PATH } from '../hook-config.js';
import { unifiedDiff } from '../../ground/unified-diff.js';
import { outdatedReasons } from '../install-health.js';
import type { OutdatedReason } from '../install-health.js';

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
  /** For `update`: the path an earlier install wrote, and why it is outdated (a moved or deleted clone). */
  readonly previous: string | null;
  readonly reasons: readonly OutdatedReason[];
  readonly refusals: readonly string[];
  readonly warnings: readonly string[];
  readonly diff: string;
}

/** --pi-dir, else $PI_CODING_AGENT_DIR, else ~/.pi/agent — where pi itself looks. */
export function resolvePiDir(flag?: string): string {
  const chosen = flag ?? process.env['PI_CODING_AGENT_DIR'];
  return chosen ? resolve(chosen) : join(homedir(), '.pi', 'agent');
}

export function planPiExtension(
  action: 'install' | 'uninstall',
  options: { piDir?: string; extension?: string } = {},
): PiExtensionPlan {
  const piDir = resolvePiDir(options.piDir);
  const path = join(piDir, 'settings.json');
  const extension = options.extension ?? PI_EXTENSION_PATH;
  const base = { action, piDir, path, extension, after: null, previous: null, reasons: [], warnings: [], diff: '' };
  let loaded: LoadedJson;
  try {
    loaded = loadJsonObject(path);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    return { ...base, before: null, change: 'unchanged', refusals: [error.message] };
  }
  const list = loaded.value['extensions'];
  if (list !== undefined && !Array.isArray(list)) {
    return {
      ...base,
      before: loaded.text,
      change: 'unchanged',
      refusals: [`${path}: "extensions" is not a list. Fix it, then try again; nothing was written.`],
    };
  }
  const entries = (list as unknown[] | undefined) ?? [];
  const ours = entries.flatMap((entry, index) =>
    typeof entry === 'string' && (entry === extension || OURS_SUFFIX.test(entry)) ? [index] : [],
  );
  let change: PiExtensionChange;
  if (action === 'install')
    change = ours.length === 1 && entries[ours[0]!] === extension ? 'unchanged' : ours.length === 0 ? 'add' : 'update';
  else change = ours.length === 0 ? 'unchanged' : 'remove';
  if (change === 'unchanged') return { ...base, before: loaded.text, change, refusals: [] };
  const after = editExtensions(loaded, extension, ours, action);
  const label = loaded.text === null ? '/dev/null' : path;
  const previous =
    change === 'update'
      ? (entries.find((entry, i) => ours.includes(i) && entry !== extension) as string | undefined)
      : undefined;
  return {
    ...base,
    before: loaded.text,
    after,
    change,
    previous: previous ?? null,
    reasons: previous === undefined ? [] : outdatedReasons({ file: previous }, { file: extension }, 'loads'),
    refusals: [],
    diff: unifiedDiff(loaded.text ?? '', after, label, path),
  };
}

/**
 * The file with our entry added, rewritten or removed by editing only the text of the `extensions`
 * list: every other byte of the file stays as the user wrote it, so uninstall after install gives
 * the original bytes back. A file without the list gets it as a last member; a list left empty by
 * uninstall is removed with its key when install added it (it was the last member and is empty).
 */
function editExtensions(
  loaded: LoadedJson,
  extension: string,
  ours: number[],
  action: 'install' | 'uninstall',
): string {
  const bom = loaded.format.bom ? '\uFEFF' : '';
  const body = loaded.text === null ? '' : bom ? loaded.text.slice(1) : loaded.text;
  const root = body.trim().length === 0 ? undefined : parseSpans(body);
  const quoted = JSON.stringify(extension);
  const node = root?.members?.get('extensions');
  if (root === undefined || (node === undefined && root.members?.size === 0)) {
    // Nothing to keep: a new (or empty) file in its own layout.
    const value = { ...loaded.value, extensions: [extension] };
    return rewriteJson(loaded, value);
  }
  if (node === undefined) {
    const close = root.end - 1;
    const last = body.slice(0, close).trimEnd().length;
    const indent = /\n([ \t]*)\S[^\n]*$/.exec(body.slice(root.start, last))?.[1] ?? '';
    const eol = loaded.format.eol;
    const member = body.slice(root.start, last).includes('\n')
      ? `,${eol}${indent}"extensions": [${quoted}]`
      : `, "extensions": [${quoted}]`;
    return `${bom}${body.slice(0, last)}${member}${body.slice(last)}`;
  }
  const items = node.items ?? [];
  let text = body;
  const splice = (from: number, to: number, insert: string) => {
    text = `${text.slice(0, from)}${insert}${text.slice(to)}`;
  };
  // Edits run from the end of the file backwards, so earlier spans stay valid.
  const removals = action === 'install' ? ours.slice(1) : ours;
  for (const index of [...removals].reverse()) {
    const item = items[index]!;
    if (items.length - removals.length === 0 && action === 'uninstall' && index === 0)
      splice(node.start + 1, node.end - 1, '');
    else if (index > 0) splice(items[index - 1]!.end, item.end, '');
    else splice(item.start, items[1]!.start, '');
  }
  if (action === 'install') {
    if (ours.length > 0) splice(items[ours[0]!]!.start, items[ours[0]!]!.end, quoted);
    else if (items.length === 0) splice(node.start, node.end, `[${quoted}]`);
    else {
      const lastItem = items[items.length - 1]!;
      const gap = body.slice(items.length > 1 ? items[items.length - 2]!.end : node.start + 1, lastItem.start);
      const separator = items.length > 1 ? gap : gap.includes('\n') ? `,${gap}` : ', ';
      splice(lastItem.end, lastItem.end, `${separator.startsWith(',') ? separator : `,${separator}`}${quoted}`);
    }
  }
  // Removing the last entry of a list install added as the file's last member takes the member too.
  const edited = parseSpans(text);
  const list = edited.members?.get('extensions');
  if (
    action === 'uninstall' &&
    list !== undefined &&
    (list.items?.length ?? 0) === 0 &&
    (edited.members?.size ?? 0) > 1
  ) {
    const key = text.lastIndexOf('"extensions"', list.start);
    const before = text.slice(0, key).trimEnd();
    const tail = text.slice(list.end);
    if (before.endsWith(',') && tail.trimStart().startsWith('}')) text = `${before.slice(0, -1)}${tail}`;
  }
  return `${bom}${text}`;
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
