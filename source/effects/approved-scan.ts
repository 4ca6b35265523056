// The approved projection's source side: scan a memory root, read every entry file safely, parse
// it, and say whether the result covers the whole tree. The scan is a value a database stores:
// the entries, a digest of the source tree ((path, content digest) pairs in path order), the
// stamps of the files read, and every problem with its path and line. Coverage is `complete` only
// when every entry file was read and parsed and nothing changed during the scan (every file is
// stat'ed again at the end); otherwise `partial`, and the caller keeps its previous generation.

import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../ground/digests.js';
import { MEMORY_ENTRY_MAX_BYTES, MEMORY_ROOT_MAX_FILES, MEMORY_SCAN_RACY_MS } from '../limits.js';
import { checkEntryPath, ENTRY_TYPES, type EntryType, type MemoryEntry, parseEntry } from '../memory/entry-format.js';
import {
  type ConsolidationFile,
  DOCTRINE_DIRECTORY,
  parseConsolidationFile,
  SCENE_DIRECTORY,
} from '../memory/consolidation/scene-format.js';
import { serializeEntryDocument } from '../memory/entry-format.js';
import {
  type CheckedDirectory,
  checkDirectory,
  type FileStamp,
  MemoryFileError,
  type MemoryRoot,
  readFileInDirectory,
  sameStamp,
  verifyDirectory,
} from './safe-files.js';

export const SOURCE_TREE_FORMAT = 'common-memory-source-tree@1';

export type MemoryScope = 'project' | 'user';

export interface ApprovedEntry extends Omit<MemoryEntry, 'extra'> {
  scope: MemoryScope;
  /** Where the entry is, relative to the memory root; more than one when identical copies exist. */
  paths: string[];
  /** sha256 of the file's bytes (its canonical bytes: a file round-trips byte for byte). */
  contentDigest: string;
  /** Frontmatter fields we do not interpret, as a JSON object. */
  extra: Record<string, unknown>;
}

/**
 * A scene file of the root (`scenes/<name>.md`) as the scan read it: kept in the projection so
 * that what is given back (the snapshot's scene index, `get`, search) never parses a file.
 */
export interface ScannedScene {
  name: string;
  title: string;
  appliesWhen: string | null;
  /** The entry ids the file names, in its order (some may not be approved entries of the root). */
  entries: string[];
  /** The file's body: the scene's summary. */
  summary: string;
  path: string;
  contentDigest: string;
}

/**
 * A doctrine file of the root (`doctrine/<name>.md`) as the scan read it: a principle citing the
 * entries that instantiate it, kept in the projection like a scene.
 */
export interface ScannedDoctrine {
  name: string;
  title: string;
  /** The entry ids it cites, in its order. */
  cites: string[];
  /** The file's body: the principle. */
  principle: string;
  path: string;
  contentDigest: string;
}

export interface ScannedFile {
  path: string;
  stamp: FileStamp;
  contentDigest: string;
}

export type ProblemKind =
  | 'unsafe'
  | 'unreadable'
  | 'malformed'
  | 'misplaced'
  | 'duplicate-id'
  | 'changed'
  | 'too-many-files'
  | 'deadline'
  /** An entry, scene or doctrine file whose text the memory lint blocks (a secret, an instruction to the model). */
  | 'blocked';

export interface ProjectionProblem {
  kind: ProblemKind;
  /** Relative to the memory root ("" for the root itself). */
  path: string;
  /** 1-based line in the file, or null when the problem is not about a line. */
  line: number | null;
  message: string;
  /** `blocked`: the memory lint's rule that blocks the file (e.g. `github-token`). */
  rule?: string;
  /**
   * `blocked` entry file: the id its header declares, so `get <id>` can name the file and the rule
   * even when the file is named for its title (as promote names it), not for its id.
   */
  entryId?: string;
}

export interface ProjectionScan {
  scope: MemoryScope;
  /** The root's directory stamps, taken before it was listed (directoryStamps). */
  directories: DirectoryStamps;
  coverage: 'complete' | 'partial';
  sourceTreeDigest: string;
  /** Nothing changed since `previous`: no file was read, `entries` is empty, the caller keeps what it has. */
  unchanged: boolean;
  entries: ApprovedEntry[];
  /** The scene files read (empty when `unchanged`), by name. */
  scenes: ScannedScene[];
  /** The doctrine files read (empty when `unchanged`). */
  doctrine: ScannedDoctrine[];
  /**
   * Files left out and named, which do not make the scan partial: scene and doctrine files that are
   * malformed, misplaced or misnamed (the entries and the other scenes stand, as consolidation
   * treats such a file), and any file — an entry too — whose text the memory lint blocks.
   */
  leftOut: ProjectionProblem[];
  /** What was read, for the next scan's short circuit. */
  files: ScannedFile[];
  problems: ProjectionProblem[];
  scannedAtMs: number;
}

/** What a previous complete scan left, to recognise an unchanged tree without reading it. */
export interface PreviousScan {
  coverage: 'complete' | 'partial';
  sourceTreeDigest: string;
  files: ScannedFile[];
  scannedAtMs: number;
  /** The files it left out: an unchanged tree still names them (a blocked file stays named). */
  leftOut?: ProjectionProblem[];
}

/**
 * The stamps (device, inode, mtime, ctime) of a root and its type directories, and when they were
 * taken. A name added, removed or renamed in a directory changes its mtime and ctime — and that is
 * how git writes a file on pull, checkout, merge or rebase (it unlinks and creates it), and how most
 * editors save (a temporary file renamed over the old one). Only a write into an existing file
 * (`>>`, some editors) leaves them alone; the file's own stamp shows it.
 */
export interface DirectoryStamps {
  stamps: string;
  takenAtMs: number;
  /** Entry files the scan found (listed), to decide whether each file's stamp is worth checking. */
  files: number;
  /**
   * Kept with a partial projection whose reading ran out of time: while the directories keep these
   * stamps, a session start does not spend its bound again on the same files (approved-follow.ts).
   */
  outOfTime?: boolean;
}

const directoryStamp = (path: string): string => {
  const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (!stats) return '-';
  return `${stats.isDirectory() ? 'd' : 'x'}:${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
};

/** The stamps of the root and of every type directory (absent ones too: a new one is a change). */
export function directoryStamps(root: MemoryRoot): string {
  const base = join(root.anchor, ...root.parts);
  return [base, ...[...ENTRY_TYPES, SCENE_DIRECTORY, DOCTRINE_DIRECTORY].map((type) => join(base, type))]
    .map(directoryStamp)
    .join(' ');
}

/**
 * True when the directories have the stamps `stored` took and none was modified so close to that
 * moment that a change could hide within the timestamp granularity.
 */
export function directoriesSettled(stored: DirectoryStamps, now: string): boolean {
  if (stored.stamps !== now) return false;
  const racyAfterNs = BigInt(stored.takenAtMs - MEMORY_SCAN_RACY_MS) * 1_000_000n;
  for (const stamp of now.split(' ')) {
    if (stamp === '-') continue;
    const [, , , mtimeNs, ctimeNs] = stamp.split(':');
    if (BigInt(mtimeNs!) >= racyAfterNs || BigInt(ctimeNs!) >= racyAfterNs) return false;
  }
  return true;
}

export const sourceTreeDigest = (files: ReadonlyArray<{ path: string; contentDigest: string }>): string =>
  sha256Hex(JSON.stringify([SOURCE_TREE_FORMAT, files.map((f) => [f.path, f.contentDigest])]));

/** Hidden files are not entries (a writer's temporary file is one); neither is anything but `*.md`. */
const isEntryName = (name: string): boolean => !name.startsWith('.') && name.endsWith('.md');

interface Listed {
  directory: CheckedDirectory;
  /** An entry type, or the scenes' or the doctrine's directory (listed last). */
  type: EntryType | typeof SCENE_DIRECTORY | typeof DOCTRINE_DIRECTORY;
  /** The entry files to read. */
  names: string[];
  /** Every non-hidden `*.md` name listed, refused ones included: what a second listing must match. */
  listing: string[];
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The type directories and entry file names of a root; problems for links and oddities. */
function listRoot(
  root: MemoryRoot,
  problems: ProjectionProblem[],
): { rootDir: CheckedDirectory | null; listed: Listed[] } {
  let rootDir: CheckedDirectory | null;
  try {
    rootDir = checkDirectory(root, [], { create: false });
  } catch (error) {
    problems.push({ kind: 'unsafe', path: '', line: null, message: describe(error) });
    return { rootDir: null, listed: [] };
  }
  if (!rootDir) return { rootDir: null, listed: [] };
  const listed: Listed[] = [];
  const present = new Set(readdirSync(rootDir.path));
  for (const type of [...ENTRY_TYPES, SCENE_DIRECTORY, DOCTRINE_DIRECTORY] as const) {
    if (!present.has(type)) continue;
    let directory: CheckedDirectory;
    try {
      directory = checkDirectory(root, [type], { create: false })!;
    } catch (error) {
      problems.push({ kind: 'unsafe', path: type, line: null, message: describe(error) });
      continue;
    }
    const names: string[] = [];
    const listing: string[] = [];
    for (const dirent of readdirSync(directory.path, { withFileTypes: true })) {
      const name = dirent.name;
      if (!isEntryName(name)) continue;
      listing.push(name);
      const path = `${type}/${name}`;
      if (dirent.isSymbolicLink()) {
        problems.push({
          kind: 'unsafe',
          path,
          line: null,
          message: `${path} is a symbolic link; links are never followed — replace it with the file`,
        });
        continue;
      }
      const check =
        type === SCENE_DIRECTORY || type === DOCTRINE_DIRECTORY
          ? { ok: true as const }
          : checkEntryPath(path, 'existing');
      if (!check.ok) {
        problems.push({ kind: 'misplaced', path, line: null, message: check.reason });
        continue;
      }
      names.push(name);
    }
    names.sort();
    listed.push({ directory, type, names, listing: listing.sort() });
  }
  return { rootDir, listed };
}

const lstamp = (path: string): FileStamp | null => {
  const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (!stats || !stats.isFile()) return null;
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
};

/**
 * True when every file has the stamp the previous complete scan saw, and none was modified so
 * close to that scan that a change could hide within the timestamp granularity.
 */
function unchangedSince(previous: PreviousScan, listed: Listed[]): boolean {
  if (previous.coverage !== 'complete') return false;
  const count = listed.reduce((sum, l) => sum + l.names.length, 0);
  if (count !== previous.files.length) return false;
  const byPath = new Map(previous.files.map((f) => [f.path, f.stamp]));
  const racyAfterNs = BigInt(previous.scannedAtMs - MEMORY_SCAN_RACY_MS) * 1_000_000n;
  for (const { directory, type, names } of listed) {
    for (const name of names) {
      const before = byPath.get(`${type}/${name}`);
      const now = lstamp(`${directory.path}/${name}`);
      if (!before || !now || !sameStamp(before, now)) return false;
      if (now.mtimeNs >= racyAfterNs || now.ctimeNs >= racyAfterNs) return false;
    }
  }
  return true;
}

/**
 * The files whose stamp is the one `previous` read and that were not modified close to that scan
 * (see unchangedSince): their bytes are the ones `previous` digested, so an incremental scan may
 * take their entry from the projection instead of reading them.
 */
function settledDigests(previous: PreviousScan | undefined): (path: string, now: FileStamp) => string | undefined {
  if (!previous) return () => undefined;
  const byPath = new Map(previous.files.map((f) => [f.path, f]));
  const racyAfterNs = BigInt(previous.scannedAtMs - MEMORY_SCAN_RACY_MS) * 1_000_000n;
  return (path, now) => {
    const before = byPath.get(path);
    if (!before || !sameStamp(before.stamp, now)) return undefined;
    if (now.mtimeNs >= racyAfterNs || now.ctimeNs >= racyAfterNs) return undefined;
    return before.contentDigest;
  };
}

export interface ScanOptions {
  previous?: PreviousScan;
  /**
   * The entry the projection holds for a file the previous scan read, when it still holds it with
   * that content digest: with `previous`, only the files whose stamp changed are read again.
   */
  known?: (path: string, contentDigest: string) => MemoryEntry | undefined;
  /** The same for a scene file: the scene the projection holds for it with that content digest. */
  knownScene?: (path: string, contentDigest: string) => ScannedScene | undefined;
  /** Date.now() past which no further file is read: the scan is then partial (kind `deadline`). */
  deadlineMs?: number;
  /** The scan's time (the reference for the next short circuit); default now. */
  nowMs?: number;
  /** Called after each file is read: tests change files here to prove drift is caught. */
  afterRead?: (path: string) => void;
  /**
   * The memory lint of every file read (approved-projection.ts passes it; the SessionStart hook's
   * loads it on the first changed file, hook/file-lint.ts). A file is linted only when it is read:
   * one taken on its stamp was linted by the scan that stored it.
   */
  lintFile: FileLint;
  /**
   * Whether the projection holds this path's entry (or scene) with this content digest, stored by a
   * scan that linted it: the same bytes are not linted again (memory sync, which reads every file;
   * the hook, which reads racily clean files again and would otherwise load the lint for them).
   */
  linted?: (path: string, contentDigest: string) => boolean;
}

/**
 * A memory root's file as a person names it to `memory lint` where they run it: from the worktree's
 * root (project), or whole (the data home's user root). The path from the memory root alone names
 * no file there.
 */
export function lintPathOf(root: MemoryRoot, scope: MemoryScope, path: string): string {
  return scope === 'project' ? [...root.parts, path].join('/') : join(root.anchor, ...root.parts, path);
}

/** Scans a memory root. Reads only regular files below it, never through a link. */
export function scanApprovedRoot(root: MemoryRoot, scope: MemoryScope, options: ScanOptions): ProjectionScan {
  const scannedAtMs = options.nowMs ?? Date.now();
  const problems: ProjectionProblem[] = [];
  const lint: FileLint = (path, text) => options.lintFile(path, text, lintPathOf(root, scope, path));
  // Before the listing: a change made while the scan runs leaves stamps newer than these.
  const takenAtMs = Date.now();
  const stamps = directoryStamps(root);
  const { rootDir, listed } = listRoot(root, problems);
  const directories: DirectoryStamps = {
    stamps,
    takenAtMs,
    files: listed.reduce((sum, l) => sum + l.names.length, 0),
  };
  if (options.previous && problems.length === 0 && unchangedSince(options.previous, listed)) {
    return {
      scope,
      directories,
      coverage: 'complete',
      sourceTreeDigest: options.previous.sourceTreeDigest,
      unchanged: true,
      entries: [],
      scenes: [],
      doctrine: [],
      leftOut: options.previous.leftOut ?? [],
      files: options.previous.files,
      problems,
      // The previous scan's time stays the reference: files stay "racy" relative to when they were read.
      scannedAtMs: options.previous.scannedAtMs,
    };
  }

  const files: ScannedFile[] = [];
  const parsed: Array<{ path: string; contentDigest: string; entry: MemoryEntry }> = [];
  const scenes: ScannedScene[] = [];
  const doctrine: ScannedDoctrine[] = [];
  const leftOut: ProjectionProblem[] = [];
  const settled = settledDigests(options.known || options.knownScene ? options.previous : undefined);
  let total = 0;
  let stopped = false;
  for (const { directory, type, names } of listed) {
    if (stopped) break;
    for (const name of names) {
      const path = `${type}/${name}`;
      if (++total > MEMORY_ROOT_MAX_FILES) {
        problems.push({
          kind: 'too-many-files',
          path,
          line: null,
          message: `the memory root holds more than ${MEMORY_ROOT_MAX_FILES} entry files; the rest were not read`,
        });
        break;
      }
      const isScene = type === SCENE_DIRECTORY;
      const isDoctrine = type === DOCTRINE_DIRECTORY;
      // Doctrine files are read (and linted) at every scan that reads: there are few of them.
      const reuse = isDoctrine ? undefined : isScene ? options.knownScene : options.known;
      const stamp = reuse ? lstamp(`${directory.path}/${name}`) : null;
      const digest = stamp ? settled(path, stamp) : undefined;
      const reused = digest === undefined ? undefined : reuse!(path, digest);
      if (stamp && digest !== undefined && reused) {
        // Not read: its stamp is the one the previous scan digested, and the projection holds its entry.
        files.push({ path, stamp, contentDigest: digest });
        if (isScene) scenes.push(reused as ScannedScene);
        else parsed.push({ path, contentDigest: digest, entry: reused as MemoryEntry });
        continue;
      }
      if (options.deadlineMs !== undefined && Date.now() > options.deadlineMs) {
        problems.push({
          kind: 'deadline',
          path,
          line: null,
          message: `reading the changed entry files took longer than allowed here; ${path} and the files after it were not read (common-memory memory sync reads them all)`,
        });
        stopped = true;
        break;
      }
      let read: ReturnType<typeof readFileInDirectory>;
      try {
        // Every path is lstat'ed again after the scan and compared with the stamp read here: that
        // covers "unchanged while read" and "the path still names this file".
        read = readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES, { restatLater: true });
      } catch (error) {
        const kind: ProblemKind =
          error instanceof MemoryFileError && error.code === 'symlink'
            ? 'unsafe'
            : error instanceof MemoryFileError && error.code === 'changed'
              ? 'changed'
              : 'unreadable';
        problems.push({ kind, path, line: null, message: describe(error) });
        continue;
      }
      if (!read) {
        problems.push({ kind: 'changed', path, line: null, message: `${path} disappeared during the scan` });
        continue;
      }
      options.afterRead?.(path);
      const contentDigest = sha256Hex(read.bytes);
      files.push({ path, stamp: read.stamp, contentDigest });
      // Bytes a scan has linted already (read again as racily clean, or rewritten as they were by a
      // checkout) are not linted again.
      const seen = options.linted?.(path, contentDigest) === true;
      if (isScene) {
        const scene = sceneOf(seen ? passes : lint, path, name, contentDigest, read.bytes);
        if ('problem' in scene) leftOut.push(scene.problem);
        else scenes.push(scene);
        continue;
      }
      if (isDoctrine) {
        const found = doctrineOf(lint, path, name, contentDigest, read.bytes);
        if ('problem' in found) leftOut.push(found.problem);
        else doctrine.push(found);
        continue;
      }
      const entry = parseEntry(read.bytes);
      if (!entry.ok) {
        problems.push({
          kind: 'malformed',
          path,
          line: entry.problem.line,
          message: `${path}:${entry.problem.line}: ${entry.problem.message}`,
        });
        continue;
      }
      if (entry.value.entry.type !== type) {
        const line = entry.value.document.items.find((i) => i.kind === 'field' && i.key === 'type');
        problems.push({
          kind: 'misplaced',
          path,
          line: line?.kind === 'field' ? line.line : null,
          message:
            `${path}: its type is ${entry.value.entry.type} but it is in ${type}/; ` +
            `move it to ${entry.value.entry.type}/`,
        });
        continue;
      }
      // A hand-written file, or one a pull brought, passed no gate: what the lint blocks is never
      // given, and its earlier text is not given either (the projection drops the entry).
      const blocked = seen ? null : blockedProblem(lint, path, entry.value.document, entry.value.entry.id);
      if (blocked) {
        leftOut.push(blocked);
        continue;
      }
      parsed.push({ path, contentDigest, entry: entry.value.entry });
    }
  }

  // Anything that changed while we read makes the scan partial: every file and directory again.
  for (const file of files) {
    const now = lstamp(`${rootDir!.path}/${file.path}`);
    if (!now || !sameStamp(now, file.stamp)) {
      problems.push({
        kind: 'changed',
        path: file.path,
        line: null,
        message: `${file.path} changed during the scan; sync again`,
      });
    }
  }
  try {
    if (rootDir) verifyDirectory(rootDir);
    for (const { directory, type, listing } of listed) {
      verifyDirectory(directory);
      const again = readdirSync(directory.path).filter(isEntryName).sort();
      if (again.join('/') !== listing.join('/')) {
        problems.push({
          kind: 'changed',
          path: type,
          line: null,
          message: `files were added or removed in ${type}/ during the scan; sync again`,
        });
      }
    }
  } catch (error) {
    problems.push({ kind: 'changed', path: '', line: null, message: describe(error) });
  }

  const entries = collectEntries(scope, parsed, problems);
  return {
    scope,
    directories,
    coverage: problems.length === 0 ? 'complete' : 'partial',
    sourceTreeDigest: sourceTreeDigest(files),
    unchanged: false,
    entries,
    scenes,
    doctrine,
    leftOut,
    files,
    problems,
    scannedAtMs,
  };
}

/** The lint of bytes a scan has linted already: nothing blocks. */
const passes: FileLint = () => null;

/** The memory lint of a scene or doctrine file's text, as approved-projection.ts gives it (null: nothing blocks). */
export type FileLint = (
  path: string,
  text: string,
  lintPath?: string,
) => { line: number; message: string; rule?: string } | null;

/** A blocking finding of the memory lint keeps a file out, named. */
function blockedProblem(
  lint: FileLint,
  path: string,
  document: Parameters<typeof serializeEntryDocument>[0],
  entryId?: string,
): ProjectionProblem | null {
  const blocked = lint(path, serializeEntryDocument(document));
  return (
    blocked && {
      kind: 'blocked',
      path,
      line: blocked.line,
      message: blocked.message,
      ...(blocked.rule === undefined ? {} : { rule: blocked.rule }),
      ...(entryId === undefined ? {} : { entryId }),
    }
  );
}

/**
 * A scene or doctrine file's bytes as the file of the kind its directory says, or the problem that
 * keeps it out: it parses, is of that kind, is named as its file, and passes the memory lint.
 */
function consolidationFileOf<K extends ConsolidationFile['kind']>(
  kind: K,
  lint: FileLint,
  path: string,
  name: string,
  bytes: Uint8Array,
): Extract<ConsolidationFile, { kind: K }> | { problem: ProjectionProblem } {
  const parsed = parseConsolidationFile(bytes);
  if (!parsed.ok) {
    const { line, message } = parsed.problem;
    return { problem: { kind: 'malformed', path, line, message: `${path}:${line}: ${message}` } };
  }
  const file = parsed.value.file;
  const misplaced = (message: string) => ({ problem: { kind: 'misplaced' as const, path, line: null, message } });
  if (file.kind !== kind) {
    const other = file.kind === 'scene' ? SCENE_DIRECTORY : DOCTRINE_DIRECTORY;
    return misplaced(`${path} is a ${file.kind} file; ${file.kind} files belong in ${other}/`);
  }
  if (`${file.name}.md` !== name) {
    const directory = kind === 'scene' ? SCENE_DIRECTORY : DOCTRINE_DIRECTORY;
    return misplaced(`${path}: its \`${kind}\` is "${file.name}"; rename the file ${directory}/${file.name}.md`);
  }
  const blocked = blockedProblem(lint, path, parsed.value.document);
  return blocked ? { problem: blocked } : (file as Extract<ConsolidationFile, { kind: K }>);
}

/** A doctrine file's bytes as a doctrine, or the problem that keeps it out. */
function doctrineOf(
  lint: FileLint,
  path: string,
  name: string,
  contentDigest: string,
  bytes: Uint8Array,
): ScannedDoctrine | { problem: ProjectionProblem } {
  const file = consolidationFileOf('doctrine', lint, path, name, bytes);
  if ('problem' in file) return file;
  return { name: file.name, title: file.title, cites: file.cites, principle: file.body, path, contentDigest };
}

/** A scene file's bytes as a scene, or the problem that keeps it out (linted like an entry). */
function sceneOf(
  lint: FileLint,
  path: string,
  name: string,
  contentDigest: string,
  bytes: Uint8Array,
): ScannedScene | { problem: ProjectionProblem } {
  const file = consolidationFileOf('scene', lint, path, name, bytes);
  if ('problem' in file) return file;
  const { title, appliesWhen, entries, body } = file;
  return { name: file.name, title, appliesWhen, entries, summary: body, path, contentDigest };
}

/**
 * One entry per id: identical copies are one entry with several paths; different contents under
 * one id are a problem.
 */
function collectEntries(
  scope: MemoryScope,
  parsed: Array<{ path: string; contentDigest: string; entry: MemoryEntry }>,
  problems: ProjectionProblem[],
): ApprovedEntry[] {
  const byId = new Map<string, ApprovedEntry>();
  for (const { path, contentDigest, entry } of parsed) {
    const known = byId.get(entry.id);
    if (known) {
      if (known.contentDigest === contentDigest) known.paths.push(path);
      else {
        problems.push({
          kind: 'duplicate-id',
          path,
          line: null,
          message: `${path} has the id ${entry.id} of ${known.paths[0]} with other contents; give one of them a new id`,
        });
      }
      continue;
    }
    byId.set(entry.id, {
      id: entry.id,
      type: entry.type,
      title: entry.title,
      appliesWhen: entry.appliesWhen,
      priority: entry.priority,
      confidence: entry.confidence,
      evidence: entry.evidence,
      created: entry.created,
      supersedes: entry.supersedes,
      body: entry.body,
      extra: entry.extra.length === 0 ? {} : Object.fromEntries(entry.extra),
      scope,
      paths: [path],
      contentDigest,
    });
  }
  return [...byId.values()];
}

const STAMP_KEYS = ['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs'] as const;

/**
 * Which files a stored scan's reader linted: 2, every file (entries too). A scan stored before that
 * (no mark) holds entries it never linted, so it is not reused: the next scan reads and lints
 * every file once.
 */
const LINTED = 2;

/**
 * What a database keeps of a scan for the next short circuit, as JSON: stamps are 64-bit, so they
 * are decimal strings.
 */
export function encodePreviousScan(
  scan: Pick<ProjectionScan, 'coverage' | 'sourceTreeDigest' | 'files' | 'scannedAtMs'> & {
    leftOut?: ProjectionProblem[];
  },
): string {
  return JSON.stringify({
    coverage: scan.coverage,
    sourceTreeDigest: scan.sourceTreeDigest,
    scannedAtMs: scan.scannedAtMs,
    files: scan.files.map((f) => [f.path, f.contentDigest, ...STAMP_KEYS.map((key) => f.stamp[key].toString())]),
    ...(scan.leftOut && scan.leftOut.length > 0 ? { leftOut: scan.leftOut } : {}),
    linted: LINTED,
  });
}

/** The stored form back; null when it cannot be read, which only costs a full scan. */
export function decodePreviousScan(text: string): PreviousScan | null {
  try {
    const value = JSON.parse(text) as {
      coverage: unknown;
      sourceTreeDigest: unknown;
      scannedAtMs: unknown;
      files: unknown;
      leftOut?: unknown;
      linted?: unknown;
    };
    if (value.linted !== LINTED) return null;
    if (value.coverage !== 'complete' && value.coverage !== 'partial') return null;
    if (typeof value.sourceTreeDigest !== 'string' || typeof value.scannedAtMs !== 'number') return null;
    if (!Array.isArray(value.files)) return null;
    const files = value.files.map((row: unknown) => {
      if (!Array.isArray(row) || row.length !== 7 || !row.every((cell) => typeof cell === 'string'))
        throw new Error('row');
      const [path, contentDigest, ...stamp] = row as string[];
      const [dev, ino, size, mtimeNs, ctimeNs] = stamp.map((cell) => BigInt(cell)) as [
        bigint,
        bigint,
        bigint,
        bigint,
        bigint,
      ];
      return { path: path!, contentDigest: contentDigest!, stamp: { dev, ino, size, mtimeNs, ctimeNs } };
    });
    const leftOut = Array.isArray(value.leftOut)
      ? (value.leftOut as ProjectionProblem[]).filter(
          (problem) => typeof problem?.path === 'string' && typeof problem.message === 'string',
        )
      : [];
    return {
      coverage: value.coverage,
      sourceTreeDigest: value.sourceTreeDigest,
      scannedAtMs: value.scannedAtMs,
      files,
      ...(leftOut.length > 0 ? { leftOut } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The bytes of every entry file of a root, for a promotion plan (which needs the current files to
 * compare against, choose free slugs and find the entries it updates). A link or any unsafe
 * component is refused outright: a plan is never made against a root that cannot be written safely.
 */
export function readEntryFiles(root: MemoryRoot): Array<{ path: string; bytes: Uint8Array }> {
  const problems: ProjectionProblem[] = [];
  const { listed } = listRoot(root, problems);
  const unsafe = problems.find((problem) => problem.kind === 'unsafe');
  if (unsafe) throw new MemoryFileError('symlink', unsafe.path, unsafe.message);
  const files: Array<{ path: string; bytes: Uint8Array }> = [];
  for (const { directory, type, names } of listed) {
    if (type === SCENE_DIRECTORY || type === DOCTRINE_DIRECTORY) continue;
    for (const name of names) {
      const read = readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES);
      if (read) files.push({ path: `${type}/${name}`, bytes: read.bytes });
    }
  }
  return files;
}
