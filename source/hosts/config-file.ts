// Reading and rewriting a host's JSON config file (Codex hooks.json, Claude settings.json)
// without ever leaving it half-written: the new bytes go to a temp file next to the real one,
// are fsynced, and replace it with one rename; the previous bytes are kept in a backup first.
// A symlinked config (dotfile managers) is written through to its target, so the link stays.
import {
  closeSync,
  copyFileSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { DirectoryError, makeDirectories } from '../ground/make-directories.js';
import { CONFIG_FILE_MAX_BYTES } from '../limits.js';
import { type JsonFormat, parseSpans, serializePreserving } from './json-preserving.js';

export const DEFAULT_JSON_FORMAT: JsonFormat = { indent: 2, eol: '\n', finalNewline: true, bom: false };

export interface LoadedJson {
  /** The file's exact text, or null when it does not exist. */
  readonly text: string | null;
  readonly value: Record<string, unknown>;
  readonly format: JsonFormat;
  /** Re-serialising the unchanged value gives the same bytes: a rewrite touches only what we change. */
  readonly roundTrips: boolean;
}

export class InvalidConfigError extends Error {
  override readonly name = 'InvalidConfigError';
}

export function detectFormat(text: string): JsonFormat {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = /\n$/.test(body);
  const lines = body.split(/\r?\n/);
  const indented = lines.find((line) => /^[ \t]+\S/.test(line));
  let indent: number | '\t';
  if (indented !== undefined) indent = indented.startsWith('\t') ? '\t' : indented.length - indented.trimStart().length;
  // One line with content is a compact file; an empty object has no layout to keep.
  else indent = lines.filter((line) => line.trim().length > 0).length === 1 && !/^\s*\{\s*\}\s*$/.test(body) ? 0 : 2;
  return { indent, eol, finalNewline: body.trim().length === 0 ? true : finalNewline, bom };
}

export function serializeJson(value: unknown, format: JsonFormat): string {
  let text = JSON.stringify(value, null, format.indent);
  if (format.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  return `${format.bom ? '\uFEFF' : ''}${text}${format.finalNewline ? format.eol : ''}`;
}

/** The new text for `value`: unchanged parts keep their exact text from the loaded file, the rest follows its layout. */
export function rewriteJson(loaded: LoadedJson, value: unknown): string {
  const body = loaded.text === null ? '' : loaded.format.bom ? loaded.text.slice(1) : loaded.text;
  if (body.trim().length === 0) return serializeJson(value, loaded.format);
  const start = body.length - body.trimStart().length;
  const end = body.trimEnd().length;
  // Whitespace around the top-level value is the file's own, too.
  const json = serializePreserving(value, parseSpans(body), body, loaded.format);
  return `${loaded.format.bom ? '\uFEFF' : ''}${body.slice(0, start)}${json}${body.slice(end)}`;
}

/**
 * A client config file's text, or null when it does not exist. Only a regular file (through a
 * link) of at most CONFIG_FILE_MAX_BYTES is read: the size is checked on the open descriptor
 * before a byte is read, so a huge (or endless) file costs nothing.
 */
export function readConfigText(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // A link to a missing file (dotfiles not checked out yet) is not "no file": writing a new
      // file would replace the user's link by the rename.
      if (isLink(path))
        throw new CmError(
          'invalid_input',
          `${path} is a link to ${readlinkSync(path)}, which does not exist. Create that file (or remove the link), then run the command again; nothing was written.`,
        );
      return null;
    }
    throw ioError(path, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new CmError(
        'invalid_input',
        `${path} is not a regular file. Replace it with a file (or remove it); nothing was written.`,
      );
    if (stats.size > CONFIG_FILE_MAX_BYTES)
      throw new CmError(
        'limit_exceeded',
        `${path} is ${stats.size} bytes, over the ${CONFIG_FILE_MAX_BYTES}-byte bound for a client config file; it was not read and nothing was written. Shrink or move it, then try again.`,
      );
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof CmError) throw error;
    throw ioError(path, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses to replace `path` when its user could not write it: a file whose owner has no write bit
 * (0444: the user made it read-only; a rename would replace it all the same), or a directory that
 * is not writable for its owner (the temp file and the rename need it). Judged by the mode bits
 * and ownership rather than access(2): root may write anything, and a read-only mark is the user's
 * word whoever runs the command. Also refuses a file of another owner that is not writable for
 * this user's group or others.
 */
export function assertWritable(path: string): void {
  const target = resolveTarget(path);
  const uid = process.getuid?.() ?? -1;
  const gids = new Set([...(process.getgroups?.() ?? []), process.getgid?.() ?? -1]);
  const writable = (stats: import('node:fs').Stats): boolean => {
    if (uid === 0 || stats.uid === uid) return (stats.mode & 0o200) !== 0;
    if (gids.has(stats.gid)) return (stats.mode & 0o020) !== 0;
    return (stats.mode & 0o002) !== 0;
  };
  let file: import('node:fs').Stats | undefined;
  try {
    file = statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(target, error);
  }
  if (file !== undefined && !writable(file))
    throw new CmError(
      'permission_denied',
      `${target} is read-only (mode ${(file.mode & 0o7777).toString(8)}); nothing was written. If you mean common-memory to change it, make it writable (chmod u+w ${target}) and run the command again.`,
    );
  // The nearest existing directory: the one the file (or its missing parents) would be created in.
  let dir = dirname(target);
  for (;;) {
    try {
      const stats = statSync(dir);
      if (!writable(stats)) {
        const mode = (stats.mode & 0o7777).toString(8);
        // Missing parents are what the user named: say that they cannot be made, and why.
        throw new CmError(
          'permission_denied',
          dir === dirname(target)
            ? `The directory ${dir} is not writable (mode ${mode}), so ${target} cannot be replaced; nothing was written. Make it writable (chmod u+w ${dir}) and run the command again.`
            : `Cannot create ${dirname(target)}: ${dir} is not writable (mode ${mode}); nothing was written. Choose a directory you can create, or make ${dir} writable (chmod u+w ${dir}).`,
        );
      }
      return;
    } catch (error) {
      if (error instanceof CmError) throw error;
      const parent = dirname(dir);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw ioError(dir, error);
      dir = parent;
    }
  }
}

/** Reads a JSON object file; a missing or blank file is an empty object. Invalid JSON throws InvalidConfigError. */
export function loadJsonObject(path: string): LoadedJson {
  const text = readConfigText(path);
  if (text === null || text.replace(/^\uFEFF/, '').trim().length === 0) {
    return {
      text,
      value: {},
      format: text === null ? DEFAULT_JSON_FORMAT : detectFormat(text),
      roundTrips: text === null,
    };
  }
  const format = detectFormat(text);
  let value: unknown;
  try {
    value = JSON.parse(format.bom ? text.slice(1) : text);
  } catch (error) {
    throw new InvalidConfigError(
      `${path} is not valid JSON (${(error as Error).message}). Fix or remove it, then try again; nothing was written.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidConfigError(
      `${path} must hold a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}. Fix it, then try again; nothing was written.`,
    );
  }
  return { text, value: value as Record<string, unknown>, format, roundTrips: serializeJson(value, format) === text };
}

/** Names a fault point between steps of the write; tests use it to simulate a crash. */
export type WriteFault = (name: string) => void;

export interface WriteResult {
  /** The file that was replaced (the symlink target when the config is a symlink). */
  readonly writtenPath: string;
  /** The previous bytes, or null when there was no previous file. */
  readonly backupPath: string | null;
}

const TEMP_MARK = '.common-memory-';

/**
 * Replaces `path` with `text` atomically, provided it still holds `expected` (null = absent),
 * keeping the previous file as `<name>.common-memory-<time>.bak` next to it.
 */
export function replaceFileAtomically(
  path: string,
  expected: string | null,
  text: string,
  fault: WriteFault = () => {},
): WriteResult {
  const target = resolveTarget(path);
  const dir = dirname(target);
  const name = basename(target);
  assertWritable(path);
  const current = readConfigText(target);
  if (current !== expected) {
    throw new CmError(
      'config_conflict',
      `${path} changed since the change was planned. Nothing was written; run the command again to plan against the current file.`,
    );
  }
  try {
    makeDirectories(dir); // bounded, unlike a recursive mkdir on a path it cannot make
    removeStaleTemps(dir, name);
    let backupPath: string | null = null;
    let mode: number | undefined;
    if (current !== null) {
      mode = statSync(target).mode & 0o7777;
      backupPath = join(
        dir,
        `${name}${TEMP_MARK}${new Date().toISOString().replace(/[-:]/g, '').replace('.', '')}.bak`,
      );
      copyFileSync(target, backupPath, constants.COPYFILE_EXCL);
      fsyncPath(backupPath);
    }
    const temp = join(dir, `.${name}${TEMP_MARK}${process.pid}-${Date.now()}.tmp`);
    try {
      const fd = openSync(temp, 'wx', mode ?? 0o644);
      try {
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      fault('beforeRename');
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    fsyncPath(dir);
    return { writtenPath: target, backupPath };
  } catch (error) {
    if (error instanceof CmError) throw error;
    if (error instanceof DirectoryError && error.code !== 'EACCES' && error.code !== 'EPERM')
      throw new CmError('store_unavailable', `Cannot create ${dir}: ${error.message}. Nothing was changed.`);
    throw ioError(target, error);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function resolveTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path; // absent: written where asked
  }
}

/** Temp files a killed earlier run left behind; only our own exact name pattern is touched. */
function removeStaleTemps(dir: string, name: string): void {
  const prefix = `.${name}${TEMP_MARK}`;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(prefix) && entry.endsWith('.tmp')) rmSync(join(dir, entry), { force: true });
  }
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function ioError(path: string, error: unknown): CmError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM')
    return new CmError('permission_denied', `Cannot write ${path}: permission denied. Nothing was changed.`);
  if (code === 'ENOSPC') return new CmError('storage_failed', `The disk holding ${path} is full. Nothing was changed.`);
  if (code === 'ENOTDIR')
    return new CmError(
      'store_unavailable',
      `Cannot use ${path}: ${fileOnTheWay(path)} is a file, not a directory. Give the client's directory, or move the file. Nothing was changed.`,
    );
  return new CmError('internal', `Cannot update ${path}: ${(error as Error).message}. Nothing was changed.`);
}

/** The file among `path`'s parents that a directory was expected to be (ENOTDIR), nearest the root. */
function fileOnTheWay(path: string): string {
  let found = dirname(path);
  for (let at = dirname(path); dirname(at) !== at; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) found = at;
    } catch {
      // missing or below the file: look further up
    }
  }
  return found;
}
