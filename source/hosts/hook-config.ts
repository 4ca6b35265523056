// The host-independent half of `install` / `uninstall`: both Codex's hooks.json and Claude Code's
// settings.json hold `hooks: { <Event>: [ { matcher?, hooks: [ handler… ] } ] }`, so one planner
// merges our entries into either, and one writer applies the plan transactionally.
//
// Ownership is decided by an exact marker, never guessed: our entry is a group `{ hooks: [h] }`
// whose one handler is exactly the handler this installation writes (type "command", our command,
// our timeout, statusMessage "common-memory"). Anything that *looks* like common-memory (our
// statusMessage, or a command running `common-memory … hook <client>`) but is not exactly ours is
// never overwritten, moved or removed: the plan is refused with what differs and how to fix it.
// One exception, checked just as exactly: an entry that differs only in a command an earlier
// install of ours wrote for the same home (another node path, another package path, an earlier
// shim) is ours too: install rewrites it in place, uninstall removes it.
// Everything else in the file is kept — same keys, same order, same values — and the file is
// re-serialised in its own layout (indent, line ends, final newline).
import { fileURLToPath } from 'node:url';
import { CmError } from '../errors.js';
import { InvalidConfigError, loadJsonObject, replaceFileAtomically, rewriteJson } from './config-file.js';
import type { LoadedJson, WriteFault } from './config-file.js';
import { shellQuote } from '../shell-quote.js';
import { unifiedDiff } from '../ground/unified-diff.js';
import { outdatedReasons } from './install-health.js';
import type { OutdatedReason } from './install-health.js';

export type HookClient = 'codex' | 'claude';
export type HookAction = 'install' | 'uninstall';

/** The statusMessage every hook of ours carries; half of the ownership marker. */
export const HOOK_STATUS_MESSAGE = 'common-memory';

/** An event we hook and the timeout (seconds) we give the host for it. */
export interface HookEventSpec {
  readonly event: string;
  readonly timeoutSec: number;
}

export interface HookHandler {
  readonly type: 'command';
  readonly command: string;
  readonly timeout: number;
  readonly statusMessage: string;
}

/** What a planner needs to know about one host config. */
export interface HookTarget {
  readonly client: HookClient;
  /** The JSON file the host reads its hooks from. */
  readonly path: string;
  readonly events: readonly HookEventSpec[];
  /** The shell command every entry runs. */
  readonly command: string;
}

export interface HookChange {
  readonly event: string;
  /** `update`: an entry an earlier common-memory install wrote, rewritten in place to today's command. */
  readonly change: 'add' | 'update' | 'remove' | 'unchanged';
  /** Index of our group in `hooks.<event>`: after the change for add/update/unchanged, before it for remove. */
  readonly group: number;
  /** For `update`: the command the earlier install wrote, and why it is outdated (a missing path, another Node). */
  readonly previous?: string;
  readonly reasons?: readonly OutdatedReason[];
}

export type RefusalCode = 'invalid_json' | 'unexpected_shape' | 'modified' | 'not_ours' | 'duplicate';

/** Why a plan cannot be applied. Any refusal blocks the whole plan: nothing is written. */
export interface Refusal {
  readonly code: RefusalCode;
  /** Where in the file, e.g. `hooks.Stop[1]`. */
  readonly where: string;
  readonly message: string;
}

/** A group of someone else's that moves to another index because ours was removed before it. */
export interface ShiftedGroup {
  readonly event: string;
  readonly from: number;
  readonly to: number;
}

export interface HookPlan {
  readonly client: HookClient;
  readonly action: HookAction;
  readonly path: string;
  readonly command: string;
  /** The file's bytes when planned (null: absent). applyHookPlan writes only if they are unchanged. */
  readonly before: string | null;
  /** The bytes to write; null when nothing changes or the plan is refused. */
  readonly after: string | null;
  readonly changes: readonly HookChange[];
  readonly refusals: readonly Refusal[];
  readonly warnings: readonly string[];
  readonly shifted: readonly ShiftedGroup[];
  /** Unified diff of before → after ("" when nothing changes). */
  readonly diff: string;
}

/** This installation's bin, run by the node running now: the hook works without PATH or npx. */
export const BIN_PATH = fileURLToPath(new URL('../../bin/common-memory.cjs', import.meta.url));

/**
 * Node reads and parses every certificate named by NODE_EXTRA_CA_CERTS before it runs any code
 * (measured: 40–60 ms of a 100 ms hook). The hook never opens a network connection, so its
 * process starts without it; nothing else of the user's environment changes.
 */
export const HOOK_ENV_PREFIX = ['env', '-u', 'NODE_EXTRA_CA_CERTS'] as const;

/**
 * `env -u NODE_EXTRA_CA_CERTS '<node>' '<bin>' hook <client> [--home '<home>']`; --home only when
 * the user chose a home.
 */
export function hookCommand(client: HookClient, home?: string): string {
  const words = [
    ...HOOK_ENV_PREFIX,
    process.execPath,
    BIN_PATH,
    'hook',
    client,
    ...(home === undefined ? [] : ['--home', home]),
  ];
  return words.map(shellQuote).join(' ');
}

/** The words of a command as shellQuote joined them (plain runs, '…' and \\' pieces; one space between words); undefined for anything else. */
function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  const word = /(?:[A-Za-z0-9_./:=@%+,-]|'[^']*'|\\')+/y;
  let at = 0;
  while (at < command.length) {
    word.lastIndex = at;
    const match = word.exec(command);
    if (!match) return undefined;
    words.push(
      match[0].replace(
        /'([^']*)'|\\(')/g,
        (_all, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? '',
      ),
    );
    at = word.lastIndex;
    if (at < command.length && command[at++] !== ' ') return undefined;
  }
  return words;
}

/**
 * A command some common-memory install wrote for `client`, maybe an earlier version (another node,
 * another package path, the ES module shim of 0.1.0 releases before the hook was bundled): the
 * home it captures into (undefined: the default), or undefined when it is not one of ours.
 */
export function parseHookCommand(
  command: string,
  client: HookClient,
): { home: string | undefined; node: string; bin: string } | undefined {
  const words = shellWords(command);
  if (!words) return undefined;
  const rest = words.slice(0, 3).join(' ') === HOOK_ENV_PREFIX.join(' ') ? words.slice(3) : words;
  const [node, bin, verb, named, ...tail] = rest;
  if (!node || !bin || !/\/bin\/common-memory\.c?js$/.test(bin) || verb !== 'hook' || named !== client)
    return undefined;
  if (tail.length === 0) return { home: undefined, node, bin };
  if (tail.length === 2 && tail[0] === '--home') return { home: tail[1], node, bin };
  return undefined;
}

/** Why an earlier install's command is outdated: the paths it names that this installation's does not. */
export function hookCommandReasons(previous: string, target: HookTarget): OutdatedReason[] {
  const before = parseHookCommand(previous, target.client);
  const now = parseHookCommand(target.command, target.client);
  if (!before || !now) return [];
  return outdatedReasons({ node: before.node, file: before.bin }, { node: now.node, file: now.bin });
}

export function ourHandler(target: HookTarget, spec: HookEventSpec): HookHandler {
  return { type: 'command', command: target.command, timeout: spec.timeoutSec, statusMessage: HOOK_STATUS_MESSAGE };
}

/** Half-markers: enough to say "this is common-memory", not enough to say "this is ours". */
function looksLikeOurs(handler: unknown, client: HookClient): boolean {
  if (!isObject(handler)) return false;
  if (handler['statusMessage'] === HOOK_STATUS_MESSAGE) return true;
  const command = handler['command'];
  return (
    typeof command === 'string' &&
    command.includes('common-memory') &&
    new RegExp(`\\bhook\\s+${client}\\b`).test(command)
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return a === b;
}

/** "timeout is 30 (expected 10); matcher was added" — what makes an entry differ from ours. */
function describeDifferences(actual: Record<string, unknown>, expected: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  const parts = keys.flatMap((key) => {
    if (!(key in actual)) return [`${key} is missing (expected ${JSON.stringify(expected[key])})`];
    if (!(key in expected)) return [`${key} was added (${JSON.stringify(actual[key])})`];
    return sameJson(actual[key], expected[key])
      ? []
      : [`${key} is ${JSON.stringify(actual[key])} (expected ${JSON.stringify(expected[key])})`];
  });
  return parts.join('; ');
}

interface Scan {
  refusals: Refusal[];
  warnings: string[];
  /** Indexes of our exact groups, per event we manage. */
  ours: Map<string, number[]>;
  /** Indexes of groups an earlier install of ours wrote for the same home (see parseHookCommand). */
  earlier: Map<string, number[]>;
}

/** The group differs from today's only in a command an earlier install of ours wrote for the same home. */
function isEarlierOurs(group: unknown, expected: { hooks: HookHandler[] }, target: HookTarget): boolean {
  if (
    !isObject(group) ||
    Object.keys(group).length !== 1 ||
    !Array.isArray(group['hooks']) ||
    group['hooks'].length !== 1
  )
    return false;
  const handler = group['hooks'][0] as unknown;
  if (!isObject(handler) || typeof handler['command'] !== 'string') return false;
  const earlier = parseHookCommand(handler['command'], target.client);
  const today = parseHookCommand(target.command, target.client);
  return (
    earlier !== undefined &&
    today !== undefined &&
    earlier.home === today.home &&
    sameJson({ ...handler, command: target.command }, expected.hooks[0])
  );
}

/** Classifies every group of every event; refuses what looks like common-memory but is not exactly ours. */
function scan(target: HookTarget, hooks: Record<string, unknown>, action: HookAction): Scan {
  const result: Scan = { refusals: [], warnings: [], ours: new Map(), earlier: new Map() };
  const specs = new Map(target.events.map((spec) => [spec.event, spec]));
  const fixInstall = `Restore it, or delete that entry from ${target.path}, then run "common-memory install ${target.client}" again.`;
  const fixUninstall = `Delete that entry from ${target.path} by hand (or restore it and run "common-memory uninstall ${target.client}" again).`;
  const fix = action === 'install' ? fixInstall : fixUninstall;
  for (const [event, groups] of Object.entries(hooks)) {
    const spec = specs.get(event);
    if (!Array.isArray(groups)) {
      if (spec)
        result.refusals.push({
          code: 'unexpected_shape',
          where: `hooks.${event}`,
          message: `hooks.${event} in ${target.path} is not a list of hook groups. Fix it, then try again; nothing was written.`,
        });
      continue;
    }
    groups.forEach((group: unknown, index) => {
      const where = `hooks.${event}[${index}]`;
      const handlers = isObject(group) && Array.isArray(group['hooks']) ? (group['hooks'] as unknown[]) : [];
      if (!handlers.some((h) => looksLikeOurs(h, target.client))) return;
      if (!spec) {
        // Not an event we manage: never touched, but the user should know it is there.
        result.warnings.push(
          `${where} in ${target.path} runs common-memory but is not one of our entries (we do not hook ${event}); it is left as it is.`,
        );
        return;
      }
      const expected = { hooks: [ourHandler(target, spec)] };
      const exact = sameJson(group, expected);
      if (exact || isEarlierOurs(group, expected, target)) {
        const first = [...(result.ours.get(event) ?? []), ...(result.earlier.get(event) ?? [])].sort(
          (a, b) => a - b,
        )[0];
        if (first !== undefined && action === 'install') {
          result.refusals.push({
            code: 'duplicate',
            where,
            message: `${where} repeats common-memory's hook already at hooks.${event}[${first}], so every ${event} would be captured twice. Delete one of them from ${target.path}, then try again.`,
          });
        }
        const into = exact ? result.ours : result.earlier;
        into.set(event, [...(into.get(event) ?? []), index]);
        return;
      }
      const ourShape =
        isObject(group) &&
        Object.keys(group).length === 1 &&
        handlers.length === 1 &&
        isObject(handlers[0]) &&
        handlers[0]['statusMessage'] === HOOK_STATUS_MESSAGE;
      if (ourShape) {
        const differences = describeDifferences(
          handlers[0] as Record<string, unknown>,
          expected.hooks[0] as unknown as Record<string, unknown>,
        );
        result.refusals.push({
          code: 'modified',
          where,
          message: `${where} in ${target.path} is common-memory's ${event} hook but was changed: ${differences}. common-memory does not overwrite or remove a changed entry. ${fix}`,
        });
      } else {
        const why = !isObject(group)
          ? 'it is not a hook group'
          : handlers.length !== 1
            ? `its group holds ${handlers.length} handlers`
            : Object.keys(group).length !== 1
              ? `its group has ${Object.keys(group)
                  .filter((k) => k !== 'hooks')
                  .join(', ')}`
              : `it lacks statusMessage "${HOOK_STATUS_MESSAGE}"`;
        result.refusals.push({
          code: 'not_ours',
          where,
          message: `${where} in ${target.path} runs common-memory but was not written by "common-memory install" (${why}). common-memory does not take over entries it did not write, nor add a second capture hook beside one. ${fix}`,
        });
      }
    });
  }
  return result;
}

function plan(target: HookTarget, action: HookAction, loaded: LoadedJson): HookPlan {
  const base = { client: target.client, action, path: target.path, command: target.command, before: loaded.text };
  const refused = (refusals: Refusal[], warnings: string[] = []): HookPlan => ({
    ...base,
    after: null,
    changes: [],
    refusals,
    warnings,
    shifted: [],
    diff: '',
  });
  const root = structuredClone(loaded.value);
  const existing = root['hooks'];
  if (existing !== undefined && !isObject(existing)) {
    return refused([
      {
        code: 'unexpected_shape',
        where: 'hooks',
        message: `"hooks" in ${target.path} is not an object. Fix it, then try again; nothing was written.`,
      },
    ]);
  }
  const hooks: Record<string, unknown> = existing ?? {};
  const found = scan(target, hooks, action);
  if (found.refusals.length > 0) return refused(found.refusals, found.warnings);

  const changes: HookChange[] = [];
  const shifted: ShiftedGroup[] = [];
  for (const spec of target.events) {
    const earlier = found.earlier.get(spec.event) ?? [];
    const ours = [...(found.ours.get(spec.event) ?? []), ...(action === 'uninstall' ? earlier : [])].sort(
      (a, b) => a - b,
    );
    const groups = (hooks[spec.event] as unknown[] | undefined) ?? [];
    if (action === 'install') {
      if (ours.length > 0) {
        changes.push({ event: spec.event, change: 'unchanged', group: ours[0]! });
        continue;
      }
      if (earlier.length > 0) {
        // Rewritten where it is: the user's groups keep their indexes (Codex keys trust by index).
        const previous = String(((groups[earlier[0]!] as { hooks: HookHandler[] }).hooks[0] as HookHandler).command);
        hooks[spec.event] = groups.map((group, index) =>
          index === earlier[0] ? { hooks: [ourHandler(target, spec)] } : group,
        );
        changes.push({
          event: spec.event,
          change: 'update',
          group: earlier[0]!,
          previous,
          reasons: hookCommandReasons(previous, target),
        });
        continue;
      }
      // Appended: the user's groups keep their indexes (Codex keys trust by index).
      hooks[spec.event] = [...groups, { hooks: [ourHandler(target, spec)] }];
      changes.push({ event: spec.event, change: 'add', group: groups.length });
    } else if (ours.length > 0) {
      const kept = groups.filter((_, index) => !ours.includes(index));
      groups.forEach((_, index) => {
        const to = index - ours.filter((o) => o < index).length;
        if (!ours.includes(index) && to !== index) shifted.push({ event: spec.event, from: index, to });
      });
      for (const index of ours) changes.push({ event: spec.event, change: 'remove', group: index });
      if (kept.length > 0) hooks[spec.event] = kept;
      else delete hooks[spec.event];
    }
  }
  const touched = changes.some((c) => c.change !== 'unchanged');
  if (!touched) return { ...base, after: null, changes, refusals: [], warnings: found.warnings, shifted, diff: '' };
  if (Object.keys(hooks).length > 0) root['hooks'] = hooks;
  else delete root['hooks'];
  const after = rewriteJson(loaded, root);
  const warnings = [...found.warnings];
  if (loaded.text !== null && !loaded.roundTrips) {
    warnings.push(
      `${target.path} is laid out by hand: everything we do not change keeps its exact text, but the lists and objects we add to are laid out anew — see the diff.`,
    );
  }
  const label = loaded.text === null ? '/dev/null' : target.path;
  return {
    ...base,
    after,
    changes,
    refusals: [],
    warnings,
    shifted,
    diff: unifiedDiff(loaded.text ?? '', after, label, target.path),
  };
}

/** Reads the file and plans; never throws for the file's content (that becomes a refusal). */
export function planHooks(target: HookTarget, action: HookAction): HookPlan {
  let loaded: LoadedJson;
  try {
    loaded = loadJsonObject(target.path);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    return {
      client: target.client,
      action,
      path: target.path,
      command: target.command,
      before: null,
      after: null,
      changes: [],
      refusals: [{ code: 'invalid_json', where: target.path, message: error.message }],
      warnings: [],
      shifted: [],
      diff: '',
    };
  }
  return plan(target, action, loaded);
}

/** Throws the refusals of a plan as one CmError (invalid JSON is invalid input; the rest are conflicts). */
export function assertApplicable(plan: HookPlan): void {
  if (plan.refusals.length === 0) return;
  const code = plan.refusals.some((r) => r.code === 'invalid_json' || r.code === 'unexpected_shape')
    ? 'invalid_input'
    : 'config_conflict';
  throw new CmError(code, plan.refusals.map((r) => r.message).join('\n'));
}

export interface HookApplyResult {
  readonly written: boolean;
  readonly path: string;
  /** The file actually replaced (differs from path when path is a symlink). */
  readonly writtenPath: string | null;
  readonly backupPath: string | null;
}

/** Writes a plan: refuses a refused plan, does nothing for an unchanged one, and never writes over a file changed since planning. */
export function applyHookPlan(plan: HookPlan, fault?: WriteFault): HookApplyResult {
  assertApplicable(plan);
  if (plan.after === null) return { written: false, path: plan.path, writtenPath: null, backupPath: null };
  const result = replaceFileAtomically(plan.path, plan.before, plan.after, fault);
  return { written: true, path: plan.path, ...result };
}
