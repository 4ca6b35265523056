// Cursor files: "in this store, on this stream, for this filter, after position N". The stream is
// part of the cursor so a journal position can never be read as a timeline position.
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  readlinkSync,
  renameSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CmError } from '../errors.js';
import { readUserFile } from '../ground/user-file.js';
import { isUuid, type HistoryCursor, type Stream } from '../api/common.js';

/** A cursor is one short JSON line; a file far larger is not one. */
const CURSOR_FILE_MAX_BYTES = 64 * 1024;

export function readCursorFile(path: string, stream: Stream): HistoryCursor | undefined {
  let text: string;
  try {
    // Opened without blocking and checked before it is read: a FIFO would wait for a writer for good.
    text = readUserFile(path, CURSOR_FILE_MAX_BYTES, '--cursor-file');
  } catch (error) {
    if (error instanceof CmError && error.code === 'not_found') return undefined;
    throw error;
  }
  let cursor: Partial<HistoryCursor>;
  try {
    cursor = JSON.parse(text) as Partial<HistoryCursor>;
  } catch {
    throw new CmError(
      'invalid_cursor',
      `Cursor file ${path} is not valid JSON. Delete it to start from the beginning.`,
    );
  }
  const valid =
    cursor !== null &&
    typeof cursor === 'object' &&
    isUuid(cursor.storeId) &&
    (cursor.stream === 'journal' || cursor.stream === 'timeline') &&
    Number.isSafeInteger(cursor.after) &&
    (cursor.after ?? -1) >= 0 &&
    (cursor.agentId === null || isUuid(cursor.agentId));
  if (!valid)
    throw new CmError(
      'invalid_cursor',
      `Cursor file ${path} is malformed (it needs storeId, stream, after and agentId). Delete it to start from the beginning.`,
    );
  if (cursor.stream !== stream) {
    const command = cursor.stream === 'journal' ? 'log' : 'timeline';
    throw new CmError(
      'invalid_cursor',
      `Cursor file ${path} is a ${cursor.stream} cursor; use it with "common-memory ${command}", or give this command its own cursor file.`,
    );
  }
  return cursor as HistoryCursor;
}

/**
 * The file a --cursor-file path names: the path itself, or for a link the file the link leads to
 * (made there on the first save when it does not exist yet), so that the atomic replace below
 * writes there and leaves the link a link: a rename over the link would put a plain file in its
 * place, and the file it named would stop moving. A link into a directory that does not exist is
 * refused, naming where it leads.
 */
export function cursorFileTarget(path: string): string {
  let target = path;
  // A chain of links is followed as the system would (it gives up after 40).
  for (let hops = 0; hops < 40; hops++) {
    let stats: Stats;
    try {
      stats = lstatSync(target);
    } catch {
      break;
    }
    if (!stats.isSymbolicLink()) return target;
    target = resolve(dirname(target), readlinkSync(target));
  }
  if (target === path) return path;
  if (!existsSync(dirname(target)))
    throw new CmError(
      'usage',
      `The cursor file ${path} is a link to ${target}, which does not exist and cannot be made: its directory does not exist. Nothing was read; give --cursor-file another path.`,
    );
  return target;
}

/** Replaced atomically, so a crash leaves the old cursor or the new one, never half of one. */
export function writeCursorFile(path: string, cursor: HistoryCursor): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(cursor)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** The cursor is saved beside its file: that directory must exist and be writable before anything is printed. */
export function assertCursorDirectory(path: string): void {
  const directory = dirname(resolve(path));
  try {
    if (!statSync(directory).isDirectory())
      throw new CmError(
        'usage',
        `Cannot keep a cursor file in ${directory}: it is not a directory. Choose another --cursor-file path.`,
      );
    accessSync(directory, constants.W_OK);
  } catch (error) {
    if (error instanceof CmError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist; create it first'
        : code === 'EACCES'
          ? 'it is not writable by you'
          : (error as Error).message;
    throw new CmError(
      'usage',
      `Cannot keep the cursor file ${path} in ${directory}: ${why}. Nothing was read; choose another --cursor-file path.`,
    );
  }
}
