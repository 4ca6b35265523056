// Verifies entries' anchors (memory/anchors.ts) against a worktree, touching only what the anchors
// name: a path is lstat'ed component by component (never followed out of the worktree), a script
// is looked up in the one manifest that declares it (package.json, Makefile, justfile,
// pyproject.toml; first MiB, parsed minimally), a symbol is searched in the first MiB of its file,
// and every commit and branch of every entry is asked of git in one `git cat-file --batch-check`.
// A repository of 100k files costs the same as one of ten: nothing is listed or walked.
//
// Results are cached by their inputs' stamps (lstat of each input; git's HEAD, refs and packs for
// commits and branches): a caller passing the previous cache re-reads nothing that did not change
// and starts no git process when git's stamp is the same.
import { spawnSync } from 'node:child_process';
import { closeSync, type Stats, lstatSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { type Anchor, anchorKey, describeAnchor } from '../memory/anchors.js';

/** Bytes read of a manifest or a symbol's file: a claim about a huge file is judged on its head. */
export const ANCHOR_READ_MAX_BYTES = 1024 * 1024;
/** git gets this long for the whole batch; past it commits and branches are `skipped`. */
export const GIT_BATCH_TIMEOUT_MS = 5_000;

export type AnchorStatus = 'held' | 'failed' | 'skipped';

export interface AnchorResult {
  status: AnchorStatus;
  /** Why it failed or was skipped, for a person: "`src/a.ts` no longer exists". */
  reason?: string;
}

export interface FailedAnchor {
  anchor: string;
  key: string;
  reason: string;
}

/**
 * fresh: every anchor that could be checked held (an entry without anchors is fresh); stale: at
 * least one failed; unknown: none could be checked (not a git repository, a file too large …).
 */
export type EntryVerdict =
  | { verdict: 'fresh' }
  | { verdict: 'stale'; failed: FailedAnchor[] }
  | { verdict: 'unknown'; reason: string };

export interface VerifyEntry {
  entryId: string;
  anchors: readonly Anchor[];
}

/** What a later run needs to skip unchanged work; JSON-serialisable, kept beside the verdicts. */
export interface VerifyCache {
  version: 1;
  root: string;
  /** anchorKey → result and the stamps of the inputs it was judged on. */
  results: Record<string, AnchorResult & { inputs: Record<string, string> }>;
}

export interface VerifyCounts {
  /** lstat calls (paths and their parent directories, manifests, git's files). */
  stats: number;
  /** Files opened and read (manifests, symbols' files). */
  reads: number;
  gitProcesses: number;
  /** Anchors judged again because an input changed (the rest came from the cache). */
  judged: number;
}

export interface VerifyReport {
  verdicts: Map<string, EntryVerdict>;
  anchors: Map<string, AnchorResult>;
  cache: VerifyCache;
  counts: VerifyCounts;
}

// ---- the worktree, touched through memoised probes ----

type Probe =
  | { kind: 'missing' }
  | { kind: 'outside' }
  | { kind: 'file' | 'directory' | 'symlink' | 'other'; stats: Stats };

const stampOf = (probe: Probe): string =>
  probe.kind === 'missing' || probe.kind === 'outside'
    ? probe.kind
    : `${probe.kind}:${probe.stats.ino}:${probe.stats.size}:${probe.stats.mtimeMs}:${probe.stats.ctimeMs}`;

class Worktree {
  readonly counts: VerifyCounts = { stats: 0, reads: 0, gitProcesses: 0, judged: 0 };
  private readonly probes = new Map<string, Probe>();
  private readonly texts = new Map<string, { text: string; truncated: boolean } | null>();
  private realRoot: string | null = null;

  constructor(readonly root: string) {}

  /** lstat of a worktree-relative path, each parent first: a symlinked parent is followed only inside the root. */
  probe(relative: string): Probe {
    const known = this.probes.get(relative);
    if (known) return known;
    let result: Probe;
    const parent = posix.dirname(relative);
    const above = parent === '.' ? null : this.probe(parent);
    if (above && above.kind !== 'directory' && above.kind !== 'symlink') {
      result = above.kind === 'outside' ? above : { kind: 'missing' };
    } else if (above?.kind === 'symlink' && !this.insideRoot(parent)) {
      result = { kind: 'outside' };
    } else {
      this.counts.stats++;
      const stats = lstatSync(join(this.root, relative), { throwIfNoEntry: false });
      if (!stats) result = { kind: 'missing' };
      else if (stats.isSymbolicLink()) result = { kind: 'symlink', stats };
      else if (stats.isDirectory()) result = { kind: 'directory', stats };
      else if (stats.isFile()) result = { kind: 'file', stats };
      else result = { kind: 'other', stats };
    }
    this.probes.set(relative, result);
    return result;
  }

  /** Whether a symlinked path resolves inside the worktree (its target is never opened otherwise). */
  private insideRoot(relative: string): boolean {
    try {
      this.realRoot ??= realpathSync.native(this.root);
      const real = realpathSync.native(join(this.root, relative));
      return real === this.realRoot || real.startsWith(this.realRoot + sep);
    } catch {
      return false;
    }
  }

  /** The first ANCHOR_READ_MAX_BYTES of a regular file inside the worktree (a symlink is not read). */
  read(relative: string): { text: string; truncated: boolean } | null {
    if (this.texts.has(relative)) return this.texts.get(relative)!;
    const probe = this.probe(relative);
    let result: { text: string; truncated: boolean } | null = null;
    if (probe.kind === 'file') {
      this.counts.reads++;
      let fd: number | undefined;
      try {
        fd = openSync(join(this.root, relative), 'r');
        const buffer = Buffer.alloc(Math.min(probe.stats.size, ANCHOR_READ_MAX_BYTES));
        const length = readSync(fd, buffer, 0, buffer.length, 0);
        result = {
          text: buffer.subarray(0, length).toString('utf8'),
          truncated: probe.stats.size > ANCHOR_READ_MAX_BYTES,
        };
      } catch {
        result = null;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }
    this.texts.set(relative, result);
    return result;
  }

  private readonly stamps = new Map<string, string>();

  stamp(relative: string): string {
    let stamp = this.stamps.get(relative);
    if (stamp === undefined) {
      stamp = stampOf(this.probe(relative));
      this.stamps.set(relative, stamp);
    }
    return stamp;
  }
}

// ---- manifests, parsed minimally ----

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
const JUSTFILES = ['justfile', 'Justfile', '.justfile'];

interface Manifest {
  path: string;
  names: Set<string>;
  /** It includes other files or has pattern rules: a name not found may still be defined. */
  open: boolean;
  text: string;
}

function makeTargets(text: string): { names: Set<string>; open: boolean } {
  const names = new Set<string>();
  let open = false;
  for (const line of text.split('\n')) {
    if (/^-?include\s|^sinclude\s/.test(line)) open = true;
    const rule = /^([^\s#:=][^:=#]*?)\s*::?(?!=)/.exec(line);
    if (!rule) continue;
    for (const target of rule[1]!.split(/\s+/)) {
      if (target.includes('%') || target.includes('$')) open = true;
      else if (target !== '') names.add(target);
    }
  }
  return { names, open };
}

function justRecipes(text: string): { names: Set<string>; open: boolean } {
  const names = new Set<string>();
  let open = false;
  for (const line of text.split('\n')) {
    if (/^(import|mod)\b/.test(line)) open = true;
    const alias = /^alias\s+([\w-]+)\s*:=/.exec(line);
    if (alias) names.add(alias[1]!);
    const recipe = /^@?([A-Za-z_][\w-]*)(?:\s+[^:=]*)?:(?!=)/.exec(line);
    if (recipe) names.add(recipe[1]!);
  }
  return { names, open };
}

/** Keys of `[project.scripts]`, `[tool.<x>.scripts]`, `[tool.hatch.envs.<env>.scripts]`. */
function pyprojectScripts(text: string): { names: Set<string>; open: boolean } {
  const names = new Set<string>();
  let inScripts = false;
  for (const line of text.split('\n')) {
    const table = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (table) {
      inScripts =
        /^(project\.scripts|project\.gui-scripts|tool\.[\w-]+\.scripts|tool\.hatch\.envs\.[\w-]+\.scripts)$/.test(
          table[1]!.trim(),
        );
      continue;
    }
    if (!inScripts) continue;
    const key = /^\s*"?([\w.-]+)"?\s*=/.exec(line);
    if (key) names.add(key[1]!);
  }
  return { names, open: false };
}

function packageScripts(text: string): { names: Set<string>; binaries: Set<string> } | null {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const keys = (value: unknown): string[] =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    const binaries = new Set([
      ...keys(json['dependencies']),
      ...keys(json['devDependencies']),
      ...keys(json['optionalDependencies']),
      ...keys(json['peerDependencies']),
      ...keys(json['bin']),
    ]);
    return { names: new Set(keys(json['scripts'])), binaries };
  } catch {
    return null;
  }
}

// ---- git ----

interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/** The worktree's git directories, read from `.git` (a directory, or a file naming one) without spawning git. */
function gitDirs(tree: Worktree): GitDirs | null {
  const dotGit = tree.probe('.git');
  let gitDir: string;
  if (dotGit.kind === 'directory') gitDir = join(tree.root, '.git');
  else if (dotGit.kind === 'file') {
    const text = tree.read('.git')?.text ?? '';
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (!named) return null;
    gitDir = resolve(tree.root, named[1]!);
  } else return null;
  let commonDir = gitDir;
  try {
    tree.counts.reads++;
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    if (common) commonDir = resolve(gitDir, common);
  } catch {
    // No commondir: the main worktree, whose git directory is the common one.
  }
  return { gitDir, commonDir };
}

/** HEAD, refs and packs: what changes when a commit or a branch appears or goes (gc, rewrite, fetch). */
function gitStamp(tree: Worktree, dirs: GitDirs): string {
  const paths = [
    join(dirs.gitDir, 'HEAD'),
    join(dirs.commonDir, 'packed-refs'),
    join(dirs.commonDir, 'refs', 'heads'),
    join(dirs.commonDir, 'refs', 'remotes', 'origin'),
    join(dirs.commonDir, 'objects', 'pack'),
    join(dirs.commonDir, 'objects', 'info', 'alternates'),
  ];
  return paths
    .map((path) => {
      tree.counts.stats++;
      const stats = lstatSync(path, { throwIfNoEntry: false });
      return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : '-';
    })
    .join('|');
}

/** One `git cat-file --batch-check` for every name; a name maps to whether it is an object (or ref). */
function gitBatch(tree: Worktree, names: string[]): Map<string, boolean> | string {
  tree.counts.gitProcesses++;
  const run = spawnSync('git', ['cat-file', '--batch-check'], {
    cwd: tree.root,
    input: `${names.join('\n')}\n`,
    encoding: 'utf8',
    timeout: GIT_BATCH_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    // The repository's own configuration may not start anything: no pager, no prompts, no hooks.
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
    },
  });
  if (run.error || run.status !== 0)
    return `git could not be asked (${run.error?.message ?? run.stderr.trim().slice(0, 200)})`;
  const lines = run.stdout.split('\n');
  const found = new Map<string, boolean>();
  names.forEach((name, index) => {
    const line = lines[index] ?? '';
    // "<oid> <type> <size>" when found; "<name> missing" or "<name> ambiguous" otherwise.
    found.set(name, /^[0-9a-f]{40,64} \w+ \d+$/.test(line));
  });
  return found;
}

// ---- judging ----

interface Judged extends AnchorResult {
  inputs: Record<string, string>;
  /**
   * A missing file this run cannot say was ever there (the last run never saw it): git's HEAD is
   * asked in the one batch, and `reason(true)` replaces the reason when HEAD holds it. Dropped
   * before the result is kept.
   */
  unseen?: { path: string; reason: (existed: boolean) => string };
}

/** Whether the last run saw `input` in place: a stamp of something, not of nothing. */
type Seen = (input: string) => boolean;

/**
 * "no longer" only for a claim the last run found holding: one that never held (a mistyped
 * script, a symbol the file never had, a commit id with a typo) is said not to hold, never to
 * have stopped.
 */
const longer = (held: boolean, was: string, isNot: string) => (held ? was : isNot);

/**
 * A file that is missing: "no longer exists" only when it is known to have been there (the last
 * run saw it; else git's HEAD holds it, asked later in the batch), "does not exist" otherwise — a
 * path mistyped in an entry, or one that never was in the repository, never existed to be lost.
 */
function missingFile(
  inputs: Record<string, string>,
  path: string,
  seen: Seen,
  reason: (existed: boolean) => string,
): Judged {
  if (seen(path)) return { status: 'failed', reason: reason(true), inputs };
  return { status: 'failed', reason: reason(false), inputs, unseen: { path, reason } };
}

const exists = (existed: boolean) => (existed ? 'no longer exists' : 'does not exist');

function judgePath(tree: Worktree, anchor: Extract<Anchor, { kind: 'path' }>, seen: Seen, held: boolean): Judged {
  const probe = tree.probe(anchor.path);
  const inputs = { [anchor.path]: stampOf(probe) };
  const shown = describeAnchor(anchor);
  if (probe.kind === 'outside')
    return { status: 'skipped', reason: `${shown} leads out of the worktree through a symlink`, inputs };
  if (probe.kind === 'missing')
    return missingFile(inputs, anchor.path, seen, (existed) => `${shown} ${exists(existed)}`);
  if (anchor.directory && probe.kind === 'file')
    return {
      status: 'failed',
      reason: `${shown} ${longer(held, 'is no longer a directory', 'is a file, not a directory')}`,
      inputs,
    };
  return { status: 'held', inputs };
}

function manifest(
  tree: Worktree,
  candidates: string[],
  parse: (text: string) => { names: Set<string>; open: boolean },
): Manifest | null {
  for (const path of candidates) {
    const read = tree.read(path);
    if (read) return { path, text: read.text, ...parse(read.text), open: read.truncated || parse(read.text).open };
  }
  return null;
}

function judgeScript(tree: Worktree, anchor: Extract<Anchor, { kind: 'script' }>, seen: Seen, held: boolean): Judged {
  const shown = describeAnchor(anchor);
  const files =
    anchor.runner === 'npm'
      ? ['package.json']
      : anchor.runner === 'make'
        ? MAKEFILES
        : anchor.runner === 'just'
          ? JUSTFILES
          : ['pyproject.toml'];
  const inputs = Object.fromEntries(files.map((file) => [file, tree.stamp(file)]));
  if (anchor.runner === 'npm') {
    const read = tree.read('package.json');
    if (!read)
      return missingFile(inputs, 'package.json', seen, (existed) => `${shown}: package.json ${exists(existed)}`);
    const parsed = packageScripts(read.text);
    if (!parsed) return { status: 'skipped', reason: 'package.json is not valid JSON', inputs };
    return parsed.names.has(anchor.name)
      ? { status: 'held', inputs }
      : {
          status: 'failed',
          reason: `${shown}: package.json ${longer(held, 'no longer defines', 'does not define')} the script "${anchor.name}"`,
          inputs,
        };
  }
  const parse = anchor.runner === 'make' ? makeTargets : anchor.runner === 'just' ? justRecipes : pyprojectScripts;
  const found = manifest(tree, files, parse);
  if (!found) {
    const named = files[files.length - 1]!;
    // Any of the runner's manifests seen last run: one of them is what went.
    const anySeen: Seen = () => files.some(seen);
    return missingFile(inputs, named, anySeen, (existed) => `${shown}: ${named} ${exists(existed)}`);
  }
  if (found.names.has(anchor.name)) return { status: 'held', inputs };
  if (anchor.runner === 'python') {
    // `uv run pytest`: a tool the project depends on is as much a claim as a declared script.
    const escaped = anchor.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`["'\\s]${escaped}(?:[<>=~!\\[;,"' ]|$)`, 'im').test(found.text)) return { status: 'held', inputs };
  }
  if (found.open)
    return {
      status: 'skipped',
      reason: `${found.path} includes other files: "${anchor.name}" may be defined there`,
      inputs,
    };
  return {
    status: 'failed',
    reason: `${shown}: ${found.path} ${longer(held, 'no longer defines', 'does not define')} "${anchor.name}"`,
    inputs,
  };
}

function judgeBinary(tree: Worktree, anchor: Extract<Anchor, { kind: 'binary' }>): Judged {
  const local = `node_modules/.bin/${anchor.name.replace(/^@[^/]+\//, '')}`;
  const inputs = { 'package.json': tree.stamp('package.json'), [local]: tree.stamp(local) };
  const read = tree.read('package.json');
  const parsed = read ? packageScripts(read.text) : null;
  if (parsed?.binaries.has(anchor.name) || tree.probe(local).kind !== 'missing') return { status: 'held', inputs };
  return {
    status: 'failed',
    reason: `${describeAnchor(anchor)}: no dependency or node_modules/.bin entry provides it`,
    inputs,
  };
}

function judgeSymbol(tree: Worktree, anchor: Extract<Anchor, { kind: 'symbol' }>, seen: Seen, held: boolean): Judged {
  const inputs = { [anchor.path]: tree.stamp(anchor.path) };
  const probe = tree.probe(anchor.path);
  const shown = describeAnchor(anchor);
  if (probe.kind === 'missing')
    return missingFile(inputs, anchor.path, seen, (existed) => `${shown}: \`${anchor.path}\` ${exists(existed)}`);
  const read = tree.read(anchor.path);
  if (!read) return { status: 'skipped', reason: `\`${anchor.path}\` is not a regular file that can be read`, inputs };
  const parts = anchor.symbol.split(/\.|::/);
  const missing = parts.find(
    (part) => !new RegExp(`(?<![\\w$])${part.replace(/\$/g, '\\$')}(?![\\w$])`).test(read.text),
  );
  if (!missing) return { status: 'held', inputs };
  if (read.truncated) return { status: 'skipped', reason: `\`${anchor.path}\` is larger than the part read`, inputs };
  return {
    status: 'failed',
    reason: `${shown}: \`${missing}\` ${longer(held, 'no longer appears', 'does not appear')} in \`${anchor.path}\``,
    inputs,
  };
}

/** The verdict of one entry from its anchors' results. */
export function entryVerdict(
  anchors: readonly Anchor[],
  results: ReadonlyMap<string, AnchorResult>,
  keys: readonly string[] = anchors.map(anchorKey),
): EntryVerdict {
  if (anchors.length === 0) return { verdict: 'fresh' };
  const failed: FailedAnchor[] = [];
  let held = 0;
  let skipReason = '';
  for (const [index, anchor] of anchors.entries()) {
    const key = keys[index]!;
    const result = results.get(key);
    if (result?.status === 'failed')
      failed.push({ anchor: describeAnchor(anchor), key, reason: result.reason ?? 'failed' });
    else if (result?.status === 'held') held++;
    else skipReason ||= result?.reason ?? 'not checked';
  }
  if (failed.length > 0) return { verdict: 'stale', failed };
  if (held > 0) return { verdict: 'fresh' };
  return { verdict: 'unknown', reason: skipReason };
}

/**
 * Verifies every entry's anchors against the worktree at `root`. With `previous` (the cache of an
 * earlier run on the same root), an anchor whose inputs have the same stamps keeps its result.
 */
export function verifyAnchors(root: string, entries: readonly VerifyEntry[], previous?: VerifyCache): VerifyReport {
  const tree = new Worktree(root);
  const cached = previous?.version === 1 && previous.root === root ? previous.results : {};
  const unique = new Map<string, Anchor>();
  // Each key once per entry: the verdicts below reuse them (10k entries make 30k keys).
  const entryKeys = entries.map((entry) => entry.anchors.map(anchorKey));
  entries.forEach((entry, index) => {
    entry.anchors.forEach((anchor, at) => {
      unique.set(entryKeys[index]![at]!, anchor);
    });
  });

  const results: Record<string, Judged> = {};
  const unseen: Judged[] = [];
  const gitAnchors: Array<[string, Extract<Anchor, { kind: 'commit' | 'branch' }>]> = [];
  const stillValid = (judged: Judged | undefined, stamp: (input: string) => string): judged is Judged => {
    if (judged === undefined) return false;
    for (const input in judged.inputs) if (stamp(input) !== judged.inputs[input]) return false;
    return true;
  };

  let git: { dirs: GitDirs; stamp: string } | null | undefined;
  const gitState = () => {
    if (git === undefined) {
      const dirs = gitDirs(tree);
      git = dirs ? { dirs, stamp: gitStamp(tree, dirs) } : null;
    }
    return git;
  };

  for (const [key, anchor] of unique) {
    if (anchor.kind === 'commit' || anchor.kind === 'branch') {
      const state = gitState();
      const prior = cached[key];
      if (state && prior && prior.inputs['git'] === state.stamp) results[key] = prior;
      else gitAnchors.push([key, anchor]);
      continue;
    }
    const prior = cached[key];
    if (stillValid(prior, (input) => tree.stamp(input))) {
      results[key] = prior;
      continue;
    }
    tree.counts.judged++;
    const held = prior?.status === 'held';
    const seen: Seen = (input) => {
      const stamp = prior?.inputs[input];
      return stamp !== undefined && stamp !== 'missing' && stamp !== 'outside';
    };
    const judged =
      anchor.kind === 'path'
        ? judgePath(tree, anchor, seen, held)
        : anchor.kind === 'script'
          ? judgeScript(tree, anchor, seen, held)
          : anchor.kind === 'binary'
            ? judgeBinary(tree, anchor)
            : judgeSymbol(tree, anchor, seen, held);
    results[key] = judged;
    if (judged.unseen) unseen.push(judged);
  }

  // Missing files never seen before: HEAD holding one means it was there and went (`HEAD:<path>`
  // in the same batch). Only anchors judged again ask, so an unchanged tree still starts no git.
  const unseenNames =
    unseen.length > 0 && gitState()
      ? unseen.flatMap((judged) => (/[\n\r]/.test(judged.unseen!.path) ? [] : [`HEAD:${judged.unseen!.path}`]))
      : [];
  if (gitAnchors.length > 0 || unseenNames.length > 0) {
    tree.counts.judged += gitAnchors.length;
    const state = gitState();
    const names = gitAnchors.flatMap(([, anchor]) =>
      anchor.kind === 'commit' ? [anchor.sha] : [`refs/heads/${anchor.name}`, `refs/remotes/origin/${anchor.name}`],
    );
    const answer = state ? gitBatch(tree, [...names, ...unseenNames]) : 'the worktree is not a git repository';
    if (typeof answer !== 'string')
      for (const judged of unseen)
        if (answer.get(`HEAD:${judged.unseen!.path}`)) judged.reason = judged.unseen!.reason(true);
    for (const [key, anchor] of gitAnchors) {
      const inputs = { git: state?.stamp ?? '-' };
      if (typeof answer === 'string') {
        results[key] = { status: 'skipped', reason: answer, inputs: {} };
        continue;
      }
      const held =
        anchor.kind === 'commit'
          ? answer.get(anchor.sha)
          : answer.get(`refs/heads/${anchor.name}`) || answer.get(`refs/remotes/origin/${anchor.name}`);
      const shown = describeAnchor(anchor);
      results[key] = held
        ? { status: 'held', inputs }
        : {
            status: 'failed',
            reason: `${shown} ${longer(cached[key]?.status === 'held', 'is no longer', 'is not')} ${anchor.kind === 'commit' ? 'an object of the repository' : 'a branch here or on origin'}`,
            inputs,
          };
    }
  }

  for (const judged of unseen) delete judged.unseen;
  const anchorResults = new Map<string, AnchorResult>(
    Object.entries(results).map(([key, { status, reason }]) => [
      key,
      reason === undefined ? { status } : { status, reason },
    ]),
  );
  const verdicts = new Map<string, EntryVerdict>();
  entries.forEach((entry, index) => {
    verdicts.set(entry.entryId, entryVerdict(entry.anchors, anchorResults, entryKeys[index]));
  });
  return { verdicts, anchors: anchorResults, cache: { version: 1, root, results }, counts: tree.counts };
}
