// A fake `pi --mode rpc` for fault injection (seed 003 B3). Run as a child process:
//
//   node --import tsx test/support/fake-pi.ts <base64url JSON FakePiScript>
//
// It reads JSONL commands on stdin (LF framing, like pi) and, per its script, replays a recorded
// stdout fixture when it gets a prompt (rewriting the prompt response id to the one it received),
// writes malformed or oversized lines, writes stderr noise, exits at once, never answers, or dies
// mid-stream. Like pi 0.73.1 it exits 0 at stdin EOF. Imports only node:* so it starts fast.

import { existsSync, mkdtempSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const SELF = fileURLToPath(import.meta.url);

// The tsx loader by absolute URL: a bare "tsx" would resolve from the child's cwd, and the
// runtime starts pi inside the agent's private dir, where no node_modules is found.
const TSX_LOADER = import.meta.resolve('tsx');

/** argv to start the fake with node (the tsx loader comes from the project's devDependencies). */
export function fakePiCommand(script: FakePiScript): { readonly command: string; readonly args: string[] } {
  const encoded = Buffer.from(JSON.stringify(script), 'utf8').toString('base64url');
  return { command: process.execPath, args: ['--import', TSX_LOADER, SELF, encoded] };
}

/** Splits a stdout fixture into prompt segments: each from a prompt response up to the next one, without other responses. */
export function promptSegments(fixtureText: string): string[][] {
  const segments: string[][] = [];
  let current: string[] | null = null;
  for (const line of fixtureText.split('\n')) {
    if (line.length === 0) continue;
    const record = JSON.parse(line) as { type?: string; command?: string };
    if (record.type === 'response') {
      if (record.command === 'prompt') {
        current = [line];
        segments.push(current);
      }
      continue;
    }
    current?.push(line);
  }
  return segments;
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

/** Resolves once one of `files` (all in one directory) exists: a directory watch, checked again after the watch is set up. */
function untilOneExists(files: readonly string[]): Promise<void> {
  return new Promise((resolveWait) => {
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      watcher.close();
      resolveWait();
    };
    const names = new Set(files.map((file) => basename(file)));
    const watcher = watch(dirname(files[0]!), (_event, name) => {
      if ((name === null || names.has(name)) && files.some((file) => existsSync(file))) done();
    });
    if (files.some((file) => existsSync(file))) done();
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

async function runFake(script: FakePiScript): Promise<void> {
  for (const line of script.startupStderr ?? []) await write(process.stderr, `${line}\n`);
  if (script.exitAtOnce !== undefined) process.exit(script.exitAtOnce);

  const action = script.onPrompt;
  const segments = action?.replay === undefined ? [] : promptSegments(readFileSync(action.replay, 'utf8'));
  let prompts = 0;
  let queue = Promise.resolve();

  const answerPrompt = async (id: string | undefined): Promise<void> => {
    if (action === undefined) return;
    const segment = segments[prompts] ?? [];
    prompts += 1;
    for (const line of action.stderr ?? []) await write(process.stderr, `${line}\n`);
    const lines = segment.slice(0, action.maxLines ?? segment.length);
    for (const [index, line] of lines.entries()) {
      if (action.hold !== undefined && index === action.hold.afterLines)
        await untilOneExists([action.hold.releaseFile, `${action.hold.releaseFile}.${process.pid}`]);
      if (action.delayMs !== undefined) await sleep(action.delayMs);
      let text = line;
      if (index === 0) {
        const response = JSON.parse(line) as Record<string, unknown>;
        // Echo the id we got, as pi does; keep key order id,type,command,success,… of pi.
        text = JSON.stringify(id === undefined ? { ...response, id: undefined } : { ...response, id });
      }
      await write(process.stdout, `${text}\n`);
    }
    for (const raw of action.rawLines ?? []) await write(process.stdout, `${raw}\n`);
    if (action.oversizedBytes !== undefined) {
      const filler = Math.max(0, action.oversizedBytes - '{"type":"message_update","pad":""}'.length);
      await write(process.stdout, `{"type":"message_update","pad":"${'x'.repeat(filler)}"}\n`);
    }
    if (action.partialTail !== undefined) await write(process.stdout, action.partialTail);
    if (action.then === 'exit') process.exit(0);
    if (action.then === 'sigkill') process.kill(process.pid, 'SIGKILL');
  };

  const handleLine = async (line: string): Promise<void> => {
    let command: { id?: unknown; type?: unknown };
    try {
      command = JSON.parse(line) as typeof command;
    } catch (error) {
      await write(
        process.stdout,
        `${JSON.stringify({ type: 'response', command: 'parse', success: false, error: `Failed to parse command: ${String(error)}` })}\n`,
      );
      return;
    }
    const id = typeof command.id === 'string' ? command.id : undefined;
    if (command.type === 'prompt') return answerPrompt(id);
    if (script.answerCommands !== false) {
      await write(
        process.stdout,
        `${JSON.stringify({ id, type: 'response', command: command.type, success: true })}\n`,
      );
    }
  };

  // LF-only framing of stdin, like pi's attachJsonlLineReader.
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (data: string) => {
    pending += data;
    let lf = pending.indexOf('\n');
    while (lf !== -1) {
      const line = pending.slice(0, lf);
      pending = pending.slice(lf + 1);
      queue = queue.then(() => handleLine(line));
      lf = pending.indexOf('\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === SELF) {
  const encoded = process.argv[2];
  if (encoded === undefined) {
    process.stderr.write('usage: fake-pi.ts <base64url JSON script>\n');
    process.exit(2);
  }
  const script = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as FakePiScript;
  void runFake(script);
}
