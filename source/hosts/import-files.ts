// Finding the conversations a client stored before common-memory was installed, for `import`: the
// transcript files under the client's own directory (Claude Code: `projects/`, Codex and pi: `sessions/`),
// only regular files (a link is not followed, a FIFO or device is not opened), each within a byte
// bound; and reading a file's recorded working directory. Reads only; nothing here writes.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { IMPORT_FILE_MAX_BYTES, IMPORT_HEADER_BYTES } from '../limits.js';
import { resolveClaudeDir } from './claude/install.js';
import { resolveCodexHome } from './codex/install.js';
import { resolvePiDir } from './pi/extension-install.js';
import { parseTranscriptFile, type FileParseResult } from './transcript-file.js';
import { TranscriptParseError, type CursorState, type ParseProgress, type TranscriptTurn } from './transcript-model.js';
import { transcriptParser, type AnyTranscriptParser } from './transcript-parsers.js';

export type ImportClient = 'claude' | 'codex' | 'pi';

export interface ImportFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** A file or directory the import does not read, and why (one line each in the report). */
export interface SkippedFile {
  path: string;
  reason: string;
}

/**
 * The client's directory (the flag, else its environment variable, else its default) and the
 * folder of its transcripts there: Claude Code `projects/`, Codex `sessions/`, pi (its agent dir,
 * `$PI_CODING_AGENT_DIR` else `~/.pi/agent`) `sessions/`.
 */
export function importRoot(client: ImportClient, dir: string | undefined): string {
  if (client === 'claude') return join(resolveClaudeDir(dir), 'projects');
  return join(client === 'codex' ? resolveCodexHome(dir) : resolvePiDir(dir), 'sessions');
}

/** Whether a link leads to a folder (false when it leads nowhere). */
function isDirectoryBehind(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why the client's transcript folder cannot be read at all ('' when it is missing, else what is
 * wrong), or null when it is a folder: one that is something else (a file, a FIFO) holds no
 * transcripts and says so before anything is read, rather than passing as a folder with nothing in it.
 */
export function importRootProblem(root: string): string | null {
  try {
    return statSync(root).isDirectory() ? null : ': it is not a directory';
  } catch {
    return '';
  }
}

/** Transcript file names: Claude sessions and subagents and pi sessions `*.jsonl`, Codex `rollout-*.jsonl`. */
const isTranscriptName = (client: ImportClient, name: string) =>
  name.endsWith('.jsonl') && (client !== 'codex' || name.startsWith('rollout-'));

/**
 * Every transcript file under `root` last written in [sinceMs, untilMs), oldest first, and what
 * was passed over with its reason. A directory the user cannot read is skipped, its siblings are not.
 */
export function findImportFiles(
  client: ImportClient,
  root: string,
  sinceMs: number,
  untilMs: number,
): { files: ImportFile[]; skipped: SkippedFile[]; over: ImportFile[] } {
  const files: ImportFile[] = [];
  const skipped: SkippedFile[] = [];
  const over: ImportFile[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dir === root && code === 'ENOENT') return;
      skipped.push({ path: dir, reason: `directory not readable (${code ?? 'error'}); its files were not imported` });
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(path);
      } catch (error) {
        skipped.push({ path, reason: `not readable (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
        continue;
      }
      if (stat.isDirectory()) {
        walk(path);
        continue;
      }
      // A linked folder (a project kept elsewhere) is not followed either, and said so: its
      // sessions would otherwise be missing from the report without a word.
      if (stat.isSymbolicLink() && isDirectoryBehind(path)) {
        skipped.push({
          path,
          reason: 'a symbolic link to a folder; links are not followed (import it by its own directory)',
        });
        continue;
      }
      if (!isTranscriptName(client, name)) continue;
      if (stat.isSymbolicLink()) {
        skipped.push({
          path,
          reason: 'a symbolic link; links are not followed (import the file it points to by its own directory)',
        });
        continue;
      }
      if (!stat.isFile()) {
        skipped.push({ path, reason: 'not a regular file (a FIFO, socket or device); not opened' });
        continue;
      }
      if (stat.mtimeMs < sinceMs || stat.mtimeMs >= untilMs) continue;
      const file = { path, bytes: stat.size, mtimeMs: stat.mtimeMs };
      if (stat.size > IMPORT_FILE_MAX_BYTES) over.push(file);
      else files.push(file);
    }
  };
  walk(root);
  files.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : 1));
  return { files, skipped, over };
}

/** What an over-limit file is told: its size against the bound. */
export const overLimitText = (file: ImportFile) =>
  `${file.bytes} bytes, over the ${IMPORT_FILE_MAX_BYTES}-byte bound of one imported file; not read`;

/**
 * The working directory a transcript recorded (Codex `session_meta.payload.cwd`, Claude a line's
 * `cwd`, pi its session header's `cwd`), from its first IMPORT_HEADER_BYTES; null when none is there. Opened without following a
 * link and non-blocking; a line that is not JSON is passed over (the parser judges it).
 */
export function recordedCwd(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.allocUnsafe(IMPORT_HEADER_BYTES);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.toString('utf8', 0, read);
    const end = text.lastIndexOf('\n');
    for (const line of text.slice(0, Math.max(end, 0)).split('\n')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const record = value as { cwd?: unknown; payload?: { cwd?: unknown } } | null;
      const cwd = record?.cwd ?? record?.payload?.cwd;
      if (typeof cwd === 'string' && cwd.length > 0) return cwd;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses one transcript file from `state` (null: from its start) with its client's strict parser,
 * streaming it in bounded chunks. After each chunk the turns it closed are handed to `onFed` with
 * the cursor after them, so the caller can commit both together; the turns of a chunk that failed
 * are never handed over (they belong to no consumed state). A state the parser refuses is a failure.
 */
export async function parseImportFile(
  client: ImportClient,
  path: string,
  state: unknown,
  onFed: (turns: TranscriptTurn[], progress: ParseProgress<CursorState>) => Promise<void>,
): Promise<FileParseResult<CursorState> | { failure: TranscriptParseError; unconsumedBytes: 0; openTurns: [] }> {
  let parser: AnyTranscriptParser;
  try {
    parser = transcriptParser(client === 'pi' ? 'pi-session' : client, path, state);
  } catch (error) {
    if (error instanceof TranscriptParseError) return { failure: error, unconsumedBytes: 0, openTurns: [] };
    throw error;
  }
  let fresh: TranscriptTurn[] = [];
  return parseTranscriptFile(path, parser, {
    onClosed: (turn) => fresh.push(turn),
    afterFeed: async (progress) => {
      const turns = fresh;
      fresh = [];
      await onFed(turns, progress);
    },
  });
}

/**
 * How many turns the saved parser state of a file holds open (with no end recorded yet): a file
 * unchanged since the last import is not read again, and its open turns are still reported.
 */
export function openTurnCount(client: ImportClient, path: string, state: unknown): number {
  try {
    return transcriptParser(client === 'pi' ? 'pi-session' : client, path, state).feed(Buffer.alloc(0)).openTurns
      .length;
  } catch (error) {
    if (error instanceof TranscriptParseError) return 0;
    throw error;
  }
}

/** The instant a turn's messages first recorded, in ms; null when none carries one. */
export function turnStartMs(turn: TranscriptTurn): number | null {
  for (const message of turn.messages) {
    const ms = message.timestamp === null ? Number.NaN : Date.parse(message.timestamp);
    if (Number.isFinite(ms)) return ms;
  }
  return null;
}

/** Whether `cwd` is `repository` or inside it (both absolute). */
export const isInside = (cwd: string | null, repository: string): boolean =>
  cwd !== null && (cwd === repository || cwd.startsWith(repository.endsWith(sep) ? repository : repository + sep));
