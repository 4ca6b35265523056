// The hook fast path. A host starts `common-memory hook <client>` for every lifecycle event, with
// deadlines as short as 1.5 s, so this module imports only node:* and better-sqlite3 (no meow,
// ink, react, zod or execa): read stdin, validate by hand, one durable BEGIN IMMEDIATE transaction
// (store/inbox-writes.ts), reply, exit. It never runs a model, never processes the queue and never waits for
// the host. It never fails the user's agent: on any error it exits 0 with no context and leaves a
// record of the failure for `status` to show.
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CmError } from '../errors.js';
import { ensureHome, resolveHome, storeFiles } from '../home.js';
import {
  HOOK_LATE_LOCK_WAIT_MS,
  HOOK_OVER_LIMIT_HEAD_BYTES,
  HOOK_REPLY_MARGIN_MS,
  HOOK_STDIN_MAX_BYTES,
  HOOK_TAIL_MAX_BYTES,
  PI_HOOK_STDIN_MAX_BYTES,
} from '../limits.js';
import { hookDeadlineMs, isLockBusy, waitBudgetMs } from './busy-wait.js';
import { coreSchema } from '../store/core/core-schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { migrate, schemaVersion } from '../store/migrations.js';
import { faultPointFromEnv } from '../ground/faults.js';
import { captureEvent, markQuarantineKept } from '../store/core/inbox-writes.js';
import { capturePiEnvelope, type OmittedContent, PI_EVENT_DEADLINE_MS, PI_EVENT_LOCK_WAIT_MS } from './pi-capture.js';
import { parsePayload, type HookClient, type HookPayload } from './payload.js';
import { processInstance } from './process-instance.js';
import { hookReply } from './reply.js';
import { ledgerEvent } from './ledger-events.js';
import { readTail } from './transcript-tail.js';
import type { TailReader } from '../store/core/inbox-writes.js';
import { readStdinBounded } from './stdin-read.js';
import { decodeKeepingBytes } from './raw-text.js';
import { readSessionSnapshot } from '../store/memory/snapshot-read.js';
import { cliCommand } from './cli-command.js';
import { shellQuote } from '../shell-quote.js';
import { BrokenInstallError } from '../broken-install.js';
import { processUptimeMs } from '../ground/lazy-builtin.js';
import { sleepSync } from '../ground/sleep-sync.js';

const CLIENTS = new Set<string>(['codex', 'claude', 'pi']);
/** What recordFailure names a quarantine file, relative to the home; nothing else is accepted. */
const QUARANTINE_NAME = /^quarantine\/hook-[a-z]+-[0-9]+-[0-9]+\.json$/;

interface HookArgs {
  client: HookClient | 'pi';
  home: string;
  /** `--instance`: the process instance of the original event, when a quarantined one is replayed. */
  instance: string | undefined;
  /** The shim a replay runs; the one running now unless the caller is another program (pi). */
  shim?: string;
  /** `--quarantined`: the quarantine file (relative to the home) this event is replayed from; kept at most once. */
  quarantined?: string | undefined;
  /** Running in pi's own process (the extension's direct channel): its stderr is pi's terminal. */
  inPiProcess?: boolean;
}

function parseArgs(argv: string[]): HookArgs {
  const [client, ...rest] = argv;
  let homeFlag: string | undefined;
  let instance: string | undefined;
  let quarantined: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--home') homeFlag = rest[++i];
    else if (rest[i]?.startsWith('--home=')) homeFlag = rest[i]!.slice('--home='.length);
    else if (rest[i] === '--instance') instance = rest[++i];
    else if (rest[i] === '--quarantined') quarantined = rest[++i];
  }
  if (
    !client ||
    !CLIENTS.has(client) ||
    instance === '' ||
    (quarantined !== undefined && !QUARANTINE_NAME.test(quarantined))
  ) {
    throw new CmError(
      'usage',
      'usage: common-memory hook codex|claude|pi [--home DIR] [--instance ID] [--quarantined FILE] < event.json',
    );
  }
  return { client: client as HookClient | 'pi', home: resolveHome(homeFlag), instance, quarantined };
}

const stdinBound = (client: HookArgs['client']): number =>
  client === 'pi' ? PI_HOOK_STDIN_MAX_BYTES : HOOK_STDIN_MAX_BYTES;

/**
 * Stdin over its bound: reading stopped at bound + 1 bytes. Nothing can be replayed from a cut
 * payload, so only its first bytes are kept (HOOK_OVER_LIMIT_HEAD_BYTES) with its size, known
 * when stdin is a regular file, else "at least".
 */
class StdinOverLimit extends CmError {
  constructor(
    readonly head: Buffer,
    readonly knownBytes: number | null,
    bound: number,
  ) {
    super(
      'limit_exceeded',
      `hook payload of ${knownBytes ?? `more than ${bound}`} bytes is over ${bound}: reading stopped at the bound, the first ${head.length} bytes are kept`,
    );
  }
}

function readPayloadBytes(client: HookArgs['client']): Buffer {
  const bound = stdinBound(client);
  const input = readStdinBounded(bound);
  if (input.over)
    throw new StdinOverLimit(Buffer.from(input.bytes.subarray(0, HOOK_OVER_LIMIT_HEAD_BYTES)), input.knownBytes, bound);
  return input.bytes;
}

/** Opens (and on first use creates) the store; SQLite's own busy handler covers this rare wait. */
export function openStore(home: string, budgetMs: number): Db {
  ensureHome(home);
  const db = openDatabase(storeFiles(home).core, { busyTimeoutMs: budgetMs });
  // A checkpoint (copying the WAL into the database and syncing it) would run inside this hook's
  // deadline at every commit past the threshold; the host's writer checkpoints instead.
  db.pragma('wal_autocheckpoint = 0');
  if (schemaVersion(db) < coreSchema.steps.length) migrate(db, coreSchema);
  return db;
}

export function runHook(argv: string[]): number {
  let args: HookArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  let db: Db | undefined;
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
        return readSessionSnapshot(storeFiles(args.home).memoryState, cwd, cliCommand(args.home, args.shim)).text;
      } catch (error) {
        snapshotError = error;
        return '';
      }
    };
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

/** A replay of a quarantined event that an earlier run (or replay) already kept. */
class AlreadyKept extends Error {}

/**
 * The event's one transaction; with `quarantined`, the same transaction records that this
 * quarantine file is kept, so that the event enters the inbox at most once however often its replay
 * line runs (and however a late commit and a replay race). Returns the host's reply.
 */
/** The session-start memory for the reply, read in the capture's transaction; '' when it cannot be. */
type SnapshotReader = () => string;

function keep(
  db: Db,
  args: HookArgs,
  instance: string,
  payload: HookPayload,
  quarantined: string | undefined,
  snapshot: SnapshotReader,
  tails: TailReader,
): string {
  const run = (): string => {
    if (quarantined !== undefined && !markQuarantineKept(db, quarantined))
      throw new AlreadyKept(`${quarantined} was already kept; nothing to replay.`);
    if (args.client === 'pi') {
      const { omitted } = capturePiEnvelope(db, instance, payload, faultPointFromEnv());
      if (omitted !== null) reportOmitted(args, instance, omitted);
      return '';
    }
    const result = captureEvent(db, args.client, instance, payload, tails, faultPointFromEnv(), snapshot);
    return hookReply(payload.event, result.snapshot, result.refreshed);
  };
  // Nested in the marker's transaction, the capture's own transaction is a savepoint of it.
  return quarantined === undefined ? run() : db.transaction(run).immediate();
}

/**
 * The write lock stayed busy until the host's deadline, and the event is now quarantined (the host
 * may stop this process at any moment: the quarantine is what survives that). A hook still running
 * past that point runs for a host that did not stop it — a loaded machine's host, or a script — so
 * it keeps waiting, up to HOOK_LATE_LOCK_WAIT_MS, and a commit then resolves the quarantine: no
 * replay is needed and a later replay of the file keeps nothing twice.
 */
function keepLate(
  db: Db,
  args: HookArgs,
  instance: string,
  payload: HookPayload,
  snapshot: SnapshotReader,
  tails: TailReader,
  error: unknown,
  kept: Quarantined | undefined,
): string {
  if (!isLockBusy(error) || kept === undefined) return '';
  try {
    db.pragma(`busy_timeout = ${HOOK_LATE_LOCK_WAIT_MS}`);
    const reply = keep(db, args, instance, payload, kept.marker, snapshot, tails);
    resolveQuarantine(args, instance, kept.marker, 'kept late', kept.file);
    return reply;
  } catch {
    // Still locked (or failing otherwise): the quarantine and its line stay, with the replay command.
    return '';
  }
}
/**
 * The pi extension's direct channel: the same work as `hook pi --instance <instance>` with the event
 * on stdin, in the caller's process (pi's), with no child to start. The connection is kept between
 * events (opening one costs more than the event's transaction), but only while it is still the
 * data home's file: a home deleted or replaced under pi gets a fresh store, never writes into an
 * unlinked file. Never throws.
 */
export function capturePiEvent(instance: string, text: string, shim: string): boolean {
  const args: HookArgs = { client: 'pi', home: resolveHome(undefined), instance, shim, inPiProcess: true };
  const raw = Buffer.from(text, 'utf8');
  try {
    // No stdin bound here: the event is already in pi's memory, and an oversized message is kept
    // without its content by capturePiEnvelope (the omission is reported below).
    const payload = parsePayload(text);
    const { omitted } = capturePiEnvelope(piConnection(args, instance), instance, payload, faultPointFromEnv());
    if (omitted !== null) reportOmitted(args, instance, omitted);
    return true;
  } catch (error) {
    closePiConnection();
    recordFailure(args, instance, error, raw);
    return false;
  }
}

/** A message kept without its content: a line for `status` (nothing to replay: the event is in the inbox). */
function reportOmitted(args: HookArgs, instance: string, omitted: OmittedContent): void {
  appendHookErrorLine(args, {
    at: new Date().toISOString(),
    client: args.client,
    instance,
    code: 'limit_exceeded',
    message: `pi ${omitted.role} message of ${omitted.contentBytes} bytes is over the ${HOOK_TAIL_MAX_BYTES}-byte capture bound: kept without its content (sha256 ${omitted.contentSha256}); the interaction is captured.`,
    elapsedMs: Math.round(performance.now()),
  });
}

/**
 * The pi extension's session-start memory: the same bounded snapshot a Codex or Claude Code
 * session gets, for pi's cwd, from the data home's memory-state (read-only). The extension freezes
 * it per data home + pi session and adds it to pi's system prompt each turn. Never throws: a
 * memory-state that cannot be read gives '' and a line in hook-errors.jsonl for `status`.
 */
export function piSessionSnapshot(instance: string, cwd: string | null, shim: string): string {
  const args: HookArgs = { client: 'pi', home: resolveHome(undefined), instance, shim, inPiProcess: true };
  try {
    return readSessionSnapshot(storeFiles(args.home).memoryState, cwd, cliCommand(args.home, args.shim)).text;
  } catch (error) {
    recordFailure(args, instance, error, undefined, 'snapshot');
    return '';
  }
}

/**
 * A snapshot `memory refresh` left for this pi session's activation, taken once (its pending mark
 * cleared in the same transaction), or null when none waits. The extension asks at every
 * before_agent_start: a plain read of one row, a write only when a refresh waits. Never throws.
 */
export function piRefreshedSnapshot(instance: string, sessionId: string, shim: string): string | null {
  const args: HookArgs = { client: 'pi', home: resolveHome(undefined), instance, shim, inPiProcess: true };
  if (!existsSync(storeFiles(args.home).core)) return null;
  try {
    const db = piConnection(args, instance);
    const find = db.prepare(
      `SELECT activation_id AS id, snapshot FROM capture_activations
       WHERE client = 'pi' AND process_instance = ? AND host_session_id = ? AND state = 'active' AND snapshot_pending = 1`,
    );
    if (find.get(instance, sessionId) === undefined) return null;
    return db
      .transaction(() => {
        // Read again under the write lock: a second refresh between the look and the take wins.
        const row = find.get(instance, sessionId) as { id: number; snapshot: string | null } | undefined;
        if (row === undefined) return null;
        db.prepare('UPDATE capture_activations SET snapshot_pending = 0 WHERE activation_id = ?').run(row.id);
        return row.snapshot ?? '';
      })
      .immediate();
  } catch (error) {
    closePiConnection();
    recordFailure(args, instance, error, undefined, 'snapshot');
    return null;
  }
}

let piDb: { home: string; ino: number; db: Db } | undefined;

function piConnection(args: HookArgs, instance: string): Db {
  const home = args.home;
  const path = storeFiles(home).core;
  const ino = existsSync(path) ? statSync(path).ino : -1;
  if (piDb !== undefined && piDb.home === home && piDb.ino === ino) return piDb.db;
  const replaced = piDb !== undefined && piDb.home === home;
  closePiConnection();
  // In pi's process: pi's own uptime is no part of the budget, so the lock wait is the fixed bound.
  const db = openStore(home, PI_EVENT_LOCK_WAIT_MS);
  piDb = { home, ino: statSync(path).ino, db };
  // What this pi recorded before is gone with the old file: the new store says so in `status`.
  if (replaced)
    appendHookErrorLine(args, {
      at: new Date().toISOString(),
      client: args.client,
      instance,
      code: 'store_replaced',
      message: `The data home's core.sqlite was deleted or replaced while pi was running (pid ${process.pid}): what this pi recorded before is not in this store; capture goes on here.`,
      elapsedMs: Math.round(performance.now()),
    });
  return db;
}

function closePiConnection(): void {
  try {
    piDb?.db.close();
  } catch {
    // already unusable; dropped below
  }
  piDb = undefined;
}

/**
 * Best effort: the failure is kept next to the store so that `status` can report it, and the event
 * itself (within the payload limit) is quarantined byte for byte with the command that replays it
 * once the cause is fixed — never dropped, never guessed at.
 */
/** A quarantine file just written, and the name its event is kept under (the first file's, for a replay). */
interface Quarantined {
  file: string;
  marker: string;
}

function recordFailure(
  args: HookArgs,
  instance: string,
  error: unknown,
  raw: Buffer | undefined,
  part: 'event' | 'snapshot' = 'event',
): Quarantined | undefined {
  const at = new Date();
  let kept: Quarantined | undefined;
  const record: Record<string, unknown> = {
    at: at.toISOString(),
    client: args.client,
    instance,
    code: (error as CmError).code ?? 'internal',
    message: (error as Error).message,
    elapsedMs: Math.round(processUptimeMs()),
  };
  // The event itself was kept: only the session-start memory was not given.
  if (part === 'snapshot') record['part'] = 'snapshot';
  // The installation cannot run in this Node: status shows how to repair it, then the replay lines work.
  if (error instanceof BrokenInstallError) record['fix'] = error.fix;
  try {
    ensureHome(args.home);
    if (error instanceof StdinOverLimit) {
      if (error.knownBytes !== null) record['payloadBytes'] = error.knownBytes;
      else record['payloadBytesAtLeast'] = stdinBound(args.client) + 1;
      const name = `hook-${args.client}-${at.getTime()}-${process.pid}.head`;
      mkdirSync(storeFiles(args.home).quarantine, { recursive: true, mode: 0o700 });
      writeFileSync(join(storeFiles(args.home).quarantine, name), error.head, { mode: 0o600 });
      record['head'] = `quarantine/${name}`;
    } else if (raw !== undefined && raw.length <= stdinBound(args.client)) {
      const name = `hook-${args.client}-${at.getTime()}-${process.pid}.json`;
      mkdirSync(storeFiles(args.home).quarantine, { recursive: true, mode: 0o700 });
      writeFileSync(join(storeFiles(args.home).quarantine, name), raw, { mode: 0o600 });
      const file = `quarantine/${name}`;
      // A replay's failure names the file the event first went to: one marker keeps it once.
      kept = { file, marker: args.quarantined ?? file };
      record['quarantined'] = file;
      record['keptAs'] = kept.marker;
      // The same node and shim this hook ran with: the line works as it is, without PATH or npx. It
      // names the original process instance, so the event returns to its own activation.
      const words = [
        process.execPath,
        args.shim ?? process.argv[1] ?? 'common-memory',
        'hook',
        args.client,
        '--home',
        args.home,
        '--instance',
        instance,
        '--quarantined',
        kept.marker,
      ];
      const hook = words.map(shellQuote).join(' ');
      record['replay'] = `${hook} < ${shellQuote(join(storeFiles(args.home).quarantine, name))}`;
    } else if (raw !== undefined) {
      record['payloadBytes'] = raw.length;
    }
  } catch {
    // The quarantine is best effort too; the failure line below still says what happened.
  }
  appendHookErrorLine(args, record);
  return kept;
}

/**
 * The event of a quarantine file is in the inbox now: a line says so (status counts only
 * unresolved failures) and the file goes, its bytes being kept in the store.
 */
function resolveQuarantine(args: HookArgs, instance: string, marker: string, how: string, file = marker): void {
  appendHookErrorLine(args, {
    at: new Date().toISOString(),
    client: args.client,
    instance,
    resolved: marker,
    how,
    elapsedMs: Math.round(processUptimeMs()),
  });
  for (const name of new Set([marker, file])) rmSync(join(args.home, name), { force: true });
}

/** Causes already printed on pi's stderr by this process (the extension's channel runs in pi's process). */
const printedInPi = new Set<string>();
/** At most this many different causes are printed into one pi's terminal. */
const PI_PRINTED_CAUSES_MAX = 8;

function appendHookErrorLine(args: HookArgs, record: Record<string, unknown>): void {
  const line = JSON.stringify(record);
  try {
    ensureHome(args.home);
    appendFileSync(storeFiles(args.home).hookErrors, `${line}\n`, { mode: 0o600 });
  } catch {
    if (!args.inPiProcess) {
      process.stderr.write(`common-memory hook: ${line}\n`);
      return;
    }
    // pi's terminal is the user's: one short line per cause, never one per event.
    const cause = String(record['code'] ?? 'internal');
    if (printedInPi.has(cause) || printedInPi.size >= PI_PRINTED_CAUSES_MAX) return;
    printedInPi.add(cause);
    process.stderr.write(`common-memory: cannot record this pi session (${cause}): ${String(record['message'])}\n`);
  }
}
