// The hook fast path. A host starts `common-memory hook <client>` for every lifecycle event, with
// deadlines as short as 1.5 s, so this module imports only node:* and better-sqlite3 (no meow,
// ink, react, zod or execa): read stdin, validate by hand, one durable BEGIN IMMEDIATE transaction
// (store/core/inbox-writes.ts), reply, exit. It never runs a model, never processes the queue and never waits for
// the host. It never fails the user's agent: on any error it exits 0 with no context and leaves a
// record of the failure for `status` to show.
import { writeSync } from 'node:fs';
import { storeFiles } from '../home.js';
import { HOOK_OVER_LIMIT_HEAD_BYTES, HOOK_REPLY_MARGIN_MS } from '../limits.js';
import { hookDeadlineMs, waitBudgetMs } from './busy-wait.js';
import type { Db } from '../store/database.js';
import type { TailReader } from '../store/core/inbox-writes.js';
import { PI_EVENT_DEADLINE_MS } from './pi-capture.js';
import { parsePayload, type HookPayload } from './payload.js';
import { announceLockWait } from '../ground/lock-waiters.js';
import { processInstance } from './process-instance.js';
import { ledgerEvent } from './ledger-events.js';
import { readTail } from './transcript-tail.js';
import { readStdinBounded } from './stdin-read.js';
import { decodeKeepingBytes } from './raw-text.js';
import { processUptimeMs } from '../ground/lazy-builtin.js';
import { sleepSync } from '../ground/sleep-sync.js';
import { appendHookErrorLine, recordFailure, resolveQuarantine, StdinOverLimit } from './failures.js';
import { type HookArgs, parseArgs, stdinBound } from './hook-args.js';
import { AlreadyKept, keep, keepLate, type SnapshotReader } from './keep.js';
import { openStore } from './open-store.js';
import { hookSnapshotText } from './session-snapshot.js';

// What the pi extension calls in pi's process (the bundle's exports, beside runHook).
export { capturePiEvent, piRefreshedSnapshot, piSessionSnapshot } from './pi-channel.js';

function readPayloadBytes(client: HookArgs['client']): Buffer {
  const bound = stdinBound(client);
  const input = readStdinBounded(bound);
  if (input.over)
    throw new StdinOverLimit(Buffer.from(input.bytes.subarray(0, HOOK_OVER_LIMIT_HEAD_BYTES)), input.knownBytes, bound);
  return input.bytes;
}

export function runHook(argv: string[]): number {
  let args: HookArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    // Said as every command says its errors: JSON under --json (a person trying the hook by hand).
    const message = (error as Error).message;
    process.stderr.write(
      argv.includes('--json') ? `${JSON.stringify({ error: { code: 'usage', message } })}\n` : `${message}\n`,
    );
    return 2;
  }
  let db: Db | undefined;
  let withdrawWait = (): void => undefined;
  let reply = '';
  let raw: Buffer | undefined;
  let payload: HookPayload | undefined;
  let snapshotError: unknown;
  let snapshot: SnapshotReader = () => '';
  let tails: TailReader = readTail;
  /** Transcripts the hook would not or could not read, with why: recorded once the event is kept. */
  const refusedTails = new Set<string>();
  // Known before anything can fail: a replay of this event must join the same activation.
  const instance = args.instance ?? processInstance(args.client);
  try {
    raw = readPayloadBytes(args.client);
    payload = parsePayload(decodeKeepingBytes(raw));
    // SubagentStart is the ledger's alone: the hint for the subagent; capture keeps nothing of it.
    if (payload.event === 'SubagentStart' && args.client !== 'pi') throw LEDGER_ONLY;
    const deadline = args.client === 'pi' ? PI_EVENT_DEADLINE_MS : hookDeadlineMs(args.client, payload.event);
    db = openStore(args.home, waitBudgetMs(deadline));
    tails = tailReader(args, deadline - HOOK_REPLY_MARGIN_MS, refusedTails);
    // The write lock may be waited for as long as the host's deadline for this event allows.
    db.pragma(`busy_timeout = ${waitBudgetMs(deadline)}`);
    const cwd = payload.cwd;
    snapshot = () => {
      try {
        return hookSnapshotText(args, instance, cwd);
      } catch (error) {
        snapshotError = error;
        return '';
      }
    };
    // A running drain steps aside between its steps while this hook waits for the write lock.
    withdrawWait = announceLockWait(storeFiles(args.home).lockWaiters);
    reply = keep(db, args, instance, payload, args.quarantined, snapshot, tails);
    if (args.quarantined !== undefined) resolveQuarantine(args, instance, args.quarantined, 'replayed');
  } catch (error) {
    if (error === LEDGER_ONLY) {
      // nothing to capture
    } else if (error instanceof AlreadyKept) {
      process.stderr.write(`common-memory hook: ${error.message}\n`);
      if (args.quarantined !== undefined) resolveQuarantine(args, instance, args.quarantined, 'replayed');
    } else {
      const kept = recordFailure(args, instance, error, raw);
      reply =
        db !== undefined && payload !== undefined
          ? keepLate(db, args, instance, payload, snapshot, tails, error, kept)
          : '';
    }
  } finally {
    withdrawWait();
    db?.close();
  }
  // The ledger after capture, on its own file: whatever happens to it changes nothing above but
  // the hint. A replay of a quarantined event is late by definition and never reaches it.
  if (payload !== undefined && args.client !== 'pi' && args.instance === undefined) {
    const ledger = ledgerEvent(args.home, args.client, payload);
    if (ledger.reply !== null) reply = ledger.reply;
  }
  // The transcript was not read (the event itself is kept, or quarantined): status says why.
  for (const reason of refusedTails)
    appendHookErrorLine(args, {
      at: new Date().toISOString(),
      client: args.client,
      instance,
      code: 'transcript_refused',
      message: `${reason}: it was not read.`,
      elapsedMs: Math.round(processUptimeMs()),
    });
  // The event was kept; only the memory it would have carried is missing: status says why.
  if (snapshotError !== undefined) recordFailure(args, instance, snapshotError, undefined, 'snapshot');
  // Printed only after the commit: a reply never announces an event that was not kept.
  if (reply) writeReply(`${reply}\n`);
  return 0;
}

/**
 * The reply straight to fd 1: process.stdout would load Node's stream modules first (about 2 ms of
 * every event). A full non-blocking pipe is waited on; a host that closed it is gone, and nothing
 * is left to do.
 */
function writeReply(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(1, bytes, at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      sleepSync(1);
    }
  }
}

/**
 * The transcript reader of this event: regular files only, links only into the client's own
 * transcript directory, done by `deadlineMs` (transcript-tail.ts); each refusal's reason goes
 * into `refused`.
 */
function tailReader(args: HookArgs, deadlineMs: number, refused: Set<string>): TailReader {
  const client = args.client === 'pi' ? undefined : args.client;
  return (path, from) => {
    const tail = readTail(path, from, { client, deadlineMs });
    if (tail.reason !== undefined) refused.add(tail.reason);
    return tail;
  };
}

/** Thrown past capture for an event that only the ledger handles. */
const LEDGER_ONLY = new Error('ledger only');
