// Copies the transcript bytes a hook event must keep: from the watch's capture cursor to the last
// complete line (the host may be mid-line). Bounded: a larger tail is an explicit over-limit
// envelope, never a truncated one. Runs inside the hook's transaction so two hooks of one session
// can never copy the same bytes twice.
//
// `transcript_path` comes from the hook's stdin, so it is checked before it is opened: only a
// regular file is read (a FIFO would block open() until the host kills the hook, a device could
// block or have side effects on open), it is opened non-blocking and without following a link, and
// its type is checked again on the open descriptor (a swap between the check and the open changes
// nothing). The rule for links: a transcript path whose last component is a symbolic link is
// followed only when it resolves into the client's own transcript directory — Claude Code's
// `$CLAUDE_CONFIG_DIR/projects` (else `~/.claude/projects`), Codex's `$CODEX_HOME/sessions` (else
// `~/.codex/sessions`), read from the environment the host gave its hook — and refused anywhere
// else. (Links in the directories above the file are the user's layout and are not checked.) A
// refused or timed-out transcript is the tail state `unreadable` with the reason: the event itself
// is kept.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { HOOK_TAIL_CHUNK_BYTES, HOOK_TAIL_MAX_BYTES } from '../limits.js';
import type { Tail } from '../store/core/inbox-writes.js';
import { os, processUptimeMs } from '../ground/lazy-builtin.js';

export interface TailOptions {
  maxBytes?: number;
  /** Whose transcript this is: decides the directory a link may resolve into (none: no link is followed). */
  client?: 'codex' | 'claude';
  /** Process uptime (ms) by which the read must be done: the host's deadline less the reply margin. */
  deadlineMs?: number;
  /** The environment the transcript directories are read from (the host's, by default). */
  env?: NodeJS.ProcessEnv;
}

/** The directory a client writes its transcripts under, or null when it cannot be named. */
export function transcriptRoot(client: 'codex' | 'claude', env: NodeJS.ProcessEnv = process.env): string | null {
  const home = (): string => env['HOME'] || os().homedir();
  if (client === 'claude') return join(env['CLAUDE_CONFIG_DIR'] || join(home(), '.claude'), 'projects');
  return join(env['CODEX_HOME'] || join(home(), '.codex'), 'sessions');
}

const refused = (from: number, reason: string): Tail => ({ state: 'unreadable', from, to: from, bytes: null, reason });

/** A file type for a message: what the transcript path turned out to be. */
function kindOf(stats: import('node:fs').Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * The path to open: the transcript path itself when it is a regular file, its target when it is a
 * link into the client's transcript directory; else a refusal (or `missing`).
 */
function resolveTranscript(path: string, from: number, options: TailOptions): string | Tail {
  let stats: import('node:fs').Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { state: 'missing', from, to: from, bytes: null }
      : refused(from, `transcript ${path} cannot be examined (${code ?? 'error'})`);
  }
  if (stats.isFile()) return path;
  if (!stats.isSymbolicLink()) return refused(from, `transcript ${path} is ${kindOf(stats)}, not a regular file`);
  const root = options.client === undefined ? null : transcriptRoot(options.client, options.env);
  if (root === null) return refused(from, `transcript ${path} is a symbolic link`);
  let target: string;
  let realRoot: string;
  try {
    target = realpathSync(path);
    realRoot = realpathSync(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'missing', from, to: from, bytes: null };
    return refused(from, `transcript ${path} is a symbolic link that cannot be resolved (${code ?? 'error'})`);
  }
  if (!target.startsWith(realRoot + sep))
    return refused(from, `transcript ${path} is a symbolic link to ${target}, outside ${root}`);
  return target;
}

export function readTail(path: string, from: number, options: TailOptions = {}): Tail {
  const { maxBytes = HOOK_TAIL_MAX_BYTES, deadlineMs = Number.POSITIVE_INFINITY } = options;
  const resolved = resolveTranscript(path, from, options);
  if (typeof resolved !== 'string') return resolved;
  let fd: number;
  try {
    fd = openSync(resolved, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { state: 'missing', from, to: from, bytes: null };
    if (code === 'ELOOP') return refused(from, `transcript ${path} became a symbolic link while it was opened`);
    return { state: 'unreadable', from, to: from, bytes: null };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refused(from, `transcript ${path} is ${kindOf(stats)}, not a regular file`);
    const size = stats.size;
    // Transcripts only grow; a shorter file was replaced or truncated under us.
    if (size < from) return { state: 'cursor_mismatch', from, to: from, bytes: null };
    if (size - from > maxBytes) return { state: 'over_limit', from, to: from, bytes: null };
    const buffer = Buffer.allocUnsafe(size - from);
    let filled = 0;
    while (filled < buffer.length) {
      // Each read is bounded; between them the host's deadline is checked (a slow disk or network
      // file system must not cost the event itself).
      if (processUptimeMs() > deadlineMs)
        return refused(from, `transcript ${path}: reading it did not finish before the host's deadline`);
      const read = readSync(fd, buffer, filled, Math.min(HOOK_TAIL_CHUNK_BYTES, buffer.length - filled), from + filled);
      if (read === 0) break;
      filled += read;
    }
    const complete = buffer.subarray(0, filled).lastIndexOf(0x0a) + 1;
    return { state: 'captured', from, to: from + complete, bytes: Buffer.from(buffer.subarray(0, complete)) };
  } catch {
    return { state: 'unreadable', from, to: from, bytes: null };
  } finally {
    closeSync(fd);
  }
}
