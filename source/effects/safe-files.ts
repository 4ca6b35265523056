// Reading and writing files inside a memory root without ever following a symbolic link and
// without ever touching anything outside the root.
//
// A memory root is a directory below a trusted anchor: the worktree's root for the project scope
// (`<worktree>/.common-memory/memory`), the data home for the user scope (`<home>/memory`). The
// anchor is resolved with realpath — a worktree under a symlinked /tmp is fine — and from there
// every component down to the file is checked with lstat: a link anywhere below the anchor is
// refused, whether it points inside the root or out of it.
//
// What remains (honestly): Node has no openat(2), so after a component is checked the kernel
// resolves the whole path again for the open and the rename. A process that can write inside the
// memory root and swaps a checked directory for a link in that window could redirect one write.
// The writer narrows the window and detects the swap: the final component is opened with
// O_NOFOLLOW | O_CREAT | O_EXCL (never an existing file, never a link), and every directory's
// device and inode are verified again before and after the rename, so a swap that persists is
// reported instead of ignored — but a write already redirected cannot be undone. The threat this
// guards against is a link committed into the repository or left in the data home (static links,
// which are always refused); whoever can race the writer can already write those files.

import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../ground/digests.js';

export type MemoryFileErrorCode =
  | 'invalid_path'
  | 'symlink'
  | 'not_directory'
  | 'not_regular_file'
  | 'too_large'
  | 'changed'
  | 'not_writable'
  | 'io';

export class MemoryFileError extends Error {
  constructor(
    readonly code: MemoryFileErrorCode,
    /** The path the problem is about, relative to the anchor (e.g. `.common-memory/memory/work_fact/x.md`). */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryFileError';
  }
}

/**
 * The refusal a memory file's problem is to the person (errors.ts codes): a root that cannot be
 * written is a file the command must write that is not writable (exit 7, as for the store); the
 * rest is what the root holds, their input (exit 2).
 */
export const memoryFileRefusalCode = (error: MemoryFileError): 'permission_denied' | 'invalid_input' =>
  error.code === 'not_writable' ? 'permission_denied' : 'invalid_input';

export interface MemoryRoot {
  /** The anchor's real path. */
  readonly anchor: string;
  /** Components of the root below the anchor. */
  readonly parts: readonly string[];
}

/** The identity and freshness of a file, as read: any change of these means the file changed. */
export interface FileStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** A directory chain as checked: each component's path and identity, to verify later. */
export interface CheckedDirectory {
  readonly path: string;
  readonly display: string;
  readonly chain: ReadonlyArray<{ path: string; display: string; dev: bigint; ino: bigint }>;
}

/**
 * Splits a relative path into components, refusing `..`, `.`, empty components, an absolute path,
 * a backslash and NUL: none of them can name something inside the root unambiguously.
 */
export function splitRelativePath(path: string): string[] {
  const refuse = (why: string) =>
    new MemoryFileError('invalid_path', path, `refused the path ${JSON.stringify(path)}: ${why}`);
  if (path.includes('\0')) throw refuse('it contains a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    throw refuse('it is absolute; give a path relative to the memory root');
  if (path.includes('\\')) throw refuse('it contains a backslash');
  const parts = path.split('/');
  for (const part of parts) {
    if (part === '..' || part === '.') throw refuse('it contains "." or ".."');
    if (part === '') throw refuse('it has an empty component');
  }
  return parts;
}

/** A memory root below an anchor directory; the anchor must exist (it is resolved with realpath). */
export function memoryRoot(anchor: string, rootPath: string): MemoryRoot {
  const parts = splitRelativePath(rootPath);
  let real: string;
  try {
    real = realpathSync(anchor);
  } catch (error) {
    throw fileError(error, anchor, `cannot open the directory ${anchor}`);
  }
  if (!statSync(real).isDirectory()) throw new MemoryFileError('not_directory', anchor, `${anchor} is not a directory`);
  return { anchor: real, parts };
}

const stampOf = (stats: BigIntStats): FileStamp => ({
  dev: stats.dev,
  ino: stats.ino,
  size: stats.size,
  mtimeNs: stats.mtimeNs,
  ctimeNs: stats.ctimeNs,
});

export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

const errnoOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

function fileError(error: unknown, display: string, doing: string): MemoryFileError {
  const code = errnoOf(error);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new MemoryFileError(
      'not_writable',
      display,
      `${doing}: permission denied (${code}); the directory is read-only — make it writable, or use the other scope`,
    );
  }
  if (code === 'ELOOP') return symlinkError(display);
  return new MemoryFileError('io', display, `${doing}: ${(error as Error).message}`);
}

const symlinkError = (display: string) =>
  new MemoryFileError(
    'symlink',
    display,
    `${display} is a symbolic link; common-memory never follows links inside a memory root — ` +
      'replace it with a real directory or file',
  );

const changedError = (display: string) =>
  new MemoryFileError(
    'changed',
    display,
    `${display} changed while common-memory was using it (a directory was moved or replaced); ` +
      'nothing more was written — check it and retry',
  );

/**
 * Checks every directory from the anchor down to `<root>/<relativeDir>` without following links;
 * with `create`, missing directories are made (each made one checked again). Returns null when a
 * directory is missing and `create` is false.
 */
export function checkDirectory(
  root: MemoryRoot,
  relativeDir: readonly string[],
  options: {
    create: boolean;
    mode?: number;
    /**
     * Directories whose entries a `create` changed (the parent of each one made), by path, to fsync
     * later (syncDirectories) instead of at once: a batch flushes each parent once. Until then a
     * made directory may be lost on power failure, never half there.
     */
    unsynced?: Map<string, string>;
  },
): CheckedDirectory | null {
  const chain: Array<{ path: string; display: string; dev: bigint; ino: bigint }> = [];
  let path = root.anchor;
  let display = '';
  for (const part of [...root.parts, ...relativeDir]) {
    const parent = path;
    const parentDisplay = display;
    path = join(path, part);
    display = display === '' ? part : `${display}/${part}`;
    let stats: BigIntStats | undefined;
    try {
      stats = lstatSync(path, { bigint: true });
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw fileError(error, display, `cannot check ${display}`);
      if (!options.create) return null;
      try {
        mkdirSync(path, { mode: options.mode ?? 0o777 });
      } catch (mkdirError) {
        if (errnoOf(mkdirError) !== 'EEXIST')
          throw fileError(mkdirError, display, `cannot create the directory ${display}`);
      }
      stats = lstatSync(path, { bigint: true });
      if (options.unsynced) options.unsynced.set(parent, parentDisplay);
      else fsyncDirectory(parent, display);
    }
    if (stats.isSymbolicLink()) throw symlinkError(display);
    if (!stats.isDirectory()) {
      throw new MemoryFileError('not_directory', display, `${display} is not a directory; move it away and retry`);
    }
    chain.push({ path, display, dev: stats.dev, ino: stats.ino });
  }
  return { path, display, chain };
}

/** Throws if any directory of a checked chain is no longer the same directory. */
export function verifyDirectory(directory: CheckedDirectory): void {
  for (const link of directory.chain) {
    let stats: BigIntStats;
    try {
      stats = lstatSync(link.path, { bigint: true });
    } catch {
      throw changedError(link.display);
    }
    if (stats.isSymbolicLink() || !stats.isDirectory() || stats.dev !== link.dev || stats.ino !== link.ino) {
      throw changedError(link.display);
    }
  }
}

function fsyncDirectory(path: string, display: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some filesystems do not support fsync on a directory; the rename itself is still atomic.
    if (errnoOf(error) !== 'EINVAL') throw fileError(error, display, `cannot flush the directory ${display}`);
  } finally {
    closeSync(fd);
  }
}

export interface ReadResult {
  bytes: Buffer;
  stamp: FileStamp;
}

/**
 * Reads one file of a checked directory: never through a link, never more than `maxBytes`, and
 * only if the file did not change while it was read (stat before and after, and the path still
 * names the file that was opened). Null when the file does not exist. A caller that lstats every
 * path again after it is done and compares the stamp (a scan does) may leave the checks after
 * the read to that with `restatLater: true`: the read is then the floor's (open, fstat, one
 * read, close), and a change during it shows in the later stamp (size, mtime or ctime).
 */
export function readFileInDirectory(
  directory: CheckedDirectory,
  name: string,
  maxBytes: number,
  options: { restatLater?: boolean } = {},
): ReadResult | null {
  // Plain concatenation: `name` is one checked component, and a scan calls this for every file.
  const path = `${directory.path}/${name}`;
  const display = `${directory.display}/${name}`;
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted in the root must not hang the reader; it is refused below.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    throw fileError(error, display, `cannot read ${display}`);
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (!before.isFile()) {
      throw new MemoryFileError('not_regular_file', display, `${display} is not a regular file; only files are read`);
    }
    if (before.size > BigInt(maxBytes)) {
      throw new MemoryFileError(
        'too_large',
        display,
        `${display} is ${before.size} bytes, over the ${maxBytes}-byte limit; split it into smaller entries`,
      );
    }
    const stamp = stampOf(before);
    const later = options.restatLater ?? false;
    // One byte more than the size: a file growing under us shows up as a short or long read (left
    // to the later stamp when the caller re-stats).
    const buffer = Buffer.allocUnsafe(Number(before.size) + (later ? 0 : 1));
    let length = 0;
    while (length < buffer.length) {
      const count = readSync(fd, buffer, length, buffer.length - length, null);
      if (count === 0) break;
      length += count;
    }
    if (BigInt(length) !== before.size) throw changedError(display);
    if (!later) {
      if (!sameStamp(stamp, stampOf(fstatSync(fd, { bigint: true })))) throw changedError(display);
      const named = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      if (!named || named.dev !== before.dev || named.ino !== before.ino) throw changedError(display);
    }
    return { bytes: buffer.subarray(0, length), stamp };
  } finally {
    closeSync(fd);
  }
}

/** Reads `<root>/<relativePath>` safely (see readFileInDirectory); null when it or a directory is missing. */
export function readMemoryFile(root: MemoryRoot, relativePath: string, maxBytes: number): ReadResult | null {
  const parts = splitRelativePath(relativePath);
  const directory = checkDirectory(root, parts.slice(0, -1), { create: false });
  if (!directory) return null;
  const result = readFileInDirectory(directory, parts[parts.length - 1]!, maxBytes);
  verifyDirectory(directory);
  return result;
}

export interface WriteOptions {
  /** Mode of the file (before the umask): 0o600 for the user scope, 0o644 for the project. */
  fileMode: number;
  /** Mode of directories made on the way (before the umask). */
  directoryMode: number;
  /** Called after the temporary file is durable and before the rename: crash tests stop here. */
  beforeRename?: () => void;
  /**
   * False: leave the directory fsync to the caller (syncDirectory), which a batch does once per
   * directory. Until then the rename is atomic, but may be lost (not torn) on power failure.
   */
  syncDirectory?: boolean;
}

/**
 * The temporary file a write goes through: hidden, so scans skip it; fixed per target, so a
 * crash's leftover is reused.
 */
export const temporaryName = (name: string): string => `.cm-${sha256Hex(name).slice(0, 16)}.tmp`;

/**
 * Writes `bytes` to `<root>/<relativePath>` atomically and durably: a temporary file in the same
 * directory (O_NOFOLLOW | O_CREAT | O_EXCL), fsync, rename over the target, fsync of the directory.
 * Readers see the old file or the new one, never a mix; after a crash the target is one or the
 * other, and a leftover temporary file is replaced by the next write of that target. Only one
 * writer per memory root at a time (the promotion journal serialises them).
 */
export function writeMemoryFile(
  root: MemoryRoot,
  relativePath: string,
  bytes: Uint8Array,
  options: WriteOptions,
): void {
  const parts = splitRelativePath(relativePath);
  const name = parts[parts.length - 1]!;
  const directory = checkDirectory(root, parts.slice(0, -1), { create: true, mode: options.directoryMode })!;
  writeFileInDirectory(directory, name, bytes, options);
}

/**
 * writeMemoryFile into a directory already checked (checkDirectory): a batch checks each directory
 * once. The chain is verified again before and after the rename, as for a single write.
 */
export function writeFileInDirectory(
  directory: CheckedDirectory,
  name: string,
  bytes: Uint8Array,
  options: Omit<WriteOptions, 'directoryMode'>,
): void {
  const target = join(directory.path, name);
  const display = `${directory.display}/${name}`;
  const existing = lstatSync(target, { bigint: true, throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) throw symlinkError(display);
  if (existing && !existing.isFile()) {
    throw new MemoryFileError(
      'not_regular_file',
      display,
      `${display} exists and is not a regular file; move it away and retry`,
    );
  }

  const temporary = join(directory.path, temporaryName(name));
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(temporary, flags, options.fileMode);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw fileError(error, display, `cannot write ${display}`);
    // A previous write of this target crashed before its rename: its temporary file is ours to drop
    // (unlink removes a link itself, never what it points to).
    unlinkSync(temporary);
    fd = openSync(temporary, flags, options.fileMode);
  }
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw fileError(error, display, `cannot write ${display}`);
  }
  closeSync(fd);
  options.beforeRename?.();
  verifyDirectory(directory);
  try {
    renameSync(temporary, target);
  } catch (error) {
    unlinkSync(temporary);
    throw fileError(error, display, `cannot replace ${display}`);
  }
  if (options.syncDirectory ?? true) fsyncDirectory(directory.path, directory.display);
  verifyDirectory(directory);
}

/**
 * Removes `name` from a checked directory, only while it is still the file that was read (`stamp`:
 * the same inode, size and times): a file changed or replaced since is reported as changed and kept.
 * Never through a link (unlink removes a name, never what a link points to). The chain is verified
 * before and after; the directory's fsync is the caller's (syncDirectory), as for a batch's renames.
 */
export function removeFileInDirectory(directory: CheckedDirectory, name: string, stamp: FileStamp): void {
  const target = join(directory.path, name);
  const display = `${directory.display}/${name}`;
  verifyDirectory(directory);
  const now = lstatSync(target, { bigint: true, throwIfNoEntry: false });
  if (!now || now.isSymbolicLink() || !now.isFile() || !sameStamp(stampOf(now), stamp))
    throw new MemoryFileError('changed', display, `${display} changed just before it was to be removed; it was kept`);
  try {
    unlinkSync(target);
  } catch (error) {
    throw fileError(error, display, `cannot remove ${display}`);
  }
  verifyDirectory(directory);
}

/** Makes the renames in `<root>/<relativeDir>` durable: an fsync of the directory, opened without following links. */
export function syncDirectory(root: MemoryRoot, relativeDir: string): void {
  const directory = checkDirectory(root, relativeDir === '' ? [] : splitRelativePath(relativeDir), { create: false });
  if (!directory) return;
  fsyncDirectory(directory.path, directory.display);
  verifyDirectory(directory);
}

/** The fsyncs a batch left for later (checkDirectory's `unsynced`): each directory once, opened without following a link. */
export function syncDirectories(unsynced: ReadonlyMap<string, string>): void {
  for (const [path, display] of [...unsynced].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    fsyncDirectory(path, display);
}
