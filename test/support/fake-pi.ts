// A fake `pi --mode rpc` for fault injection (seed 003 B3): its script's types, the command that
// starts it, and the gate a holding fake waits on. The fake itself is fake-pi-child.mjs, plain
// JavaScript so that it starts under bare node.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
export { promptSegments } from './fake-pi-child.mjs';

export interface FakePiPromptAction {
  /** Absolute path of a *.stdout.jsonl fixture; the n-th prompt replays its n-th prompt segment. */
  readonly replay?: string;
  /** Replay at most this many lines of the segment. */
  readonly maxLines?: number;
  /** Delay before each written line. */
  readonly delayMs?: number;
  /**
   * Stop after this many lines of the segment and hold the rest of the stream until `releaseFile`
   * exists (see holdGate): a test decides when the answer goes on, instead of hoping a delay is long enough.
   */
  readonly hold?: { readonly afterLines: number; readonly releaseFile: string };
  /** Raw text written after the replay, each followed by LF (e.g. malformed JSON). */
  readonly rawLines?: readonly string[];
  /** Then one line of this many bytes ("x" repeated inside a JSON string), LF-terminated. */
  readonly oversizedBytes?: number;
  /** Then these bytes without a trailing LF (a cut record). */
  readonly partialTail?: string;
  /** stderr lines written before stdout. */
  readonly stderr?: readonly string[];
  /** What to do afterwards: keep running (default), exit with code 0, or SIGKILL itself. */
  readonly then?: 'stay' | 'exit' | 'sigkill';
}

export interface FakePiScript {
  /** Written to stderr at start. */
  readonly startupStderr?: readonly string[];
  /** Exit at once with this code (after startupStderr). */
  readonly exitAtOnce?: number;
  /** Without it, prompts are read and never answered. */
  readonly onPrompt?: FakePiPromptAction;
  /** Answer non-prompt commands (get_state, abort, …) with a bare success response. Default true. */
  readonly answerCommands?: boolean;
}

const CHILD = fileURLToPath(new URL('./fake-pi-child.mjs', import.meta.url));

/** argv to start the fake with node. */
export function fakePiCommand(script: FakePiScript): { readonly command: string; readonly args: string[] } {
  const encoded = Buffer.from(JSON.stringify(script), 'utf8').toString('base64url');
  return { command: process.execPath, args: [CHILD, encoded] };
}

/**
 * A release file for FakePiPromptAction.hold, in a fresh temp dir: every fake holding on it waits
 * until it exists (release()), or one fake until its own `<releaseFile>.<pid>` does (releasePid()).
 * Once released, later holds on it pass at once.
 */
export function holdGate(label = 'hold'): {
  readonly releaseFile: string;
  release(): void;
  releasePid(pid: number): void;
} {
  const releaseFile = join(mkdtempSync(join(tmpdir(), `cm-${label}-`)), 'release');
  return {
    releaseFile,
    release: () => writeFileSync(releaseFile, ''),
    releasePid: (pid) => writeFileSync(`${releaseFile}.${pid}`, ''),
  };
}
