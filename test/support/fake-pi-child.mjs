// The fake `pi --mode rpc` itself (test/support/fake-pi.ts has its script's types and the command
// that starts it). Plain JavaScript with node:* imports only, so it starts under bare node: under the
// tsx loader every start took about 1.4 s more, and the drills start dozens of generations.
//
//   node test/support/fake-pi-child.mjs <base64url JSON FakePiScript>
//
// It reads JSONL commands on stdin (LF framing, like pi) and, per its script, replays a recorded
// stdout fixture when it gets a prompt (rewriting the prompt response id to the one it received),
// writes malformed or oversized lines, writes stderr noise, exits at once, never answers, or dies
// mid-stream. Like pi 0.73.1 it exits 0 at stdin EOF.
import { existsSync, readFileSync, watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Splits a stdout fixture into prompt segments: each from a prompt response up to the next one, without other responses.
 * @param {string} fixtureText
 * @returns {string[][]}
 */
export function promptSegments(fixtureText) {
  /** @type {string[][]} */
  const segments = [];
  /** @type {string[] | null} */
  let current = null;
  for (const line of fixtureText.split('\n')) {
    if (line.length === 0) continue;
    const record = JSON.parse(line);
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
 * Resolves once one of `files` (all in one directory) exists: a directory watch, checked again after the watch is set up.
 * @param {readonly string[]} files
 * @returns {Promise<void>}
 */
function untilOneExists(files) {
  return new Promise((resolveWait) => {
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      watcher.close();
      resolveWait();
    };
    const names = new Set(files.map((file) => basename(file)));
    const watcher = watch(dirname(files[0]), (_event, name) => {
      if ((name === null || names.has(name)) && files.some((file) => existsSync(file))) done();
    });
    if (files.some((file) => existsSync(file))) done();
  });
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * @param {NodeJS.WriteStream} stream
 * @param {string} text
 * @returns {Promise<void>}
 */
function write(stream, text) {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

/** @param {import('./fake-pi.js').FakePiScript} script */
async function runFake(script) {
  for (const line of script.startupStderr ?? []) await write(process.stderr, `${line}\n`);
  if (script.exitAtOnce !== undefined) process.exit(script.exitAtOnce);

  const action = script.onPrompt;
  const segments = action?.replay === undefined ? [] : promptSegments(readFileSync(action.replay, 'utf8'));
  let prompts = 0;
  let queue = Promise.resolve();

  /** @param {string | undefined} id */
  const answerPrompt = async (id) => {
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
        const response = JSON.parse(line);
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

  /** @param {string} line */
  const handleLine = async (line) => {
    /** @type {{ id?: unknown; type?: unknown }} */
    let command;
    try {
      command = JSON.parse(line);
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
  process.stdin.on('data', (/** @type {string} */ data) => {
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

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const encoded = process.argv[2];
  if (encoded === undefined) {
    process.stderr.write('usage: fake-pi-child.mjs <base64url JSON script>\n');
    process.exit(2);
  }
  void runFake(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')));
}
