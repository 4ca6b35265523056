// The hook fast path. A host starts `common-memory hook <client>` for every lifecycle event, with
// deadlines as short as 1.5 s, so this module imports only node:* and better-sqlite3 (no meow,
// ink, react, zod or execa): read stdin, validate by hand, one durable BEGIN IMMEDIATE transaction
// (store/inbox-writes.ts), reply, exit. It never runs a model, never processes the queue and never waits for
// the host. It never fails the user's agent: on any error it exits 0 with no context and leaves a
// record of the failure for `status` to show.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CmError } from '../errors.js';
import { ensureHome, resolveHome, storeFiles } from '../home.js';
import { HOOK_STDIN_MAX_BYTES } from '../limits.js';
import { hookDeadlineMs, waitBudgetMs } from './busy-wait.js';
import { coreSchema } from '../store/core-schema.js';
import { openDatabase, type Db } from '../store/database.js';
import { migrate, schemaVersion } from '../store/migrations.js';
import { faultPointFromEnv } from '../ground/faults.js';
import { captureEvent } from '../store/inbox-writes.js';
import { capturePiEnvelope, PI_EVENT_DEADLINE_MS, PI_EVENT_LOCK_WAIT_MS } from './pi-capture.js';
import { parsePayload, type HookClient } from './payload.js';
import { processInstance } from './process-instance.js';
import { hookReply } from './reply.js';
import { readTail } from './transcript-tail.js';
import { readSessionSnapshot } from '../memory/snapshot-read.js';
import { shellQuote } from '../shell-quote.js';

const CLIENTS = new Set<string>(['codex', 'claude', 'pi']);

interface HookArgs {
  client: HookClient | 'pi';
  home: string;
  /** `--instance`: the process instance of the original event, when a quarantined one is replayed. */
  instance: string | undefined;
  /** The shim a replay runs; the one running now unless the caller is another program (pi). */
  shim?: string;
}

function parseArgs(argv: string[]): HookArgs {
  const [client, ...rest] = argv;
  let homeFlag: string | undefined;
  let instance: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--home') homeFlag = rest[++i];
    else if (rest[i]?.startsWith('--home=')) homeFlag = rest[i]!.slice('--home='.length);
    else if (rest[i] === '--instance') instance = rest[++i];
  }
  if (!client || !CLIENTS.has(client) || instance === '') {
    throw new CmError('usage', `usage: common-memory hook codex|claude|pi [--home DIR] [--instance ID] < event.json`);
  }
  return { client: client as HookClient | 'pi', home: resolveHome(homeFlag), instance };
}

function checkSize(raw: Buffer): string {
  if (raw.length > HOOK_STDIN_MAX_BYTES)
    throw new CmError('limit_exceeded', `hook payload of ${raw.length} bytes is over ${HOOK_STDIN_MAX_BYTES}`);
  return raw.toString('utf8');
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
  let snapshotError: unknown;
  // Known before anything can fail: a replay of this event must join the same activation.
  const instance = args.instance ?? processInstance(args.client);
  try {
    raw = readFileSync(0);
    const payload = parsePayload(checkSize(raw));
    const deadline = args.client === 'pi' ? PI_EVENT_DEADLINE_MS : hookDeadlineMs(args.client, payload.event);
    db = openStore(args.home, waitBudgetMs(deadline));
    // The write lock may be waited for as long as the host's deadline for this event allows.
    db.pragma(`busy_timeout = ${waitBudgetMs(deadline)}`);
    if (args.client === 'pi') capturePiEnvelope(db, instance, payload, faultPointFromEnv());
    else {
      const snapshot = () => {
        try {
          return readSessionSnapshot(storeFiles(args.home).memoryState, payload.cwd).text;
        } catch (error) {
          snapshotError = error;
          return '';
        }
      };
      const captured = captureEvent(db, args.client, instance, payload, readTail, faultPointFromEnv(), snapshot);
      reply = hookReply(payload.event, captured.snapshot, captured.refreshed);
    }
  } catch (error) {
    recordFailure(args, instance, error, raw);
    reply = '';
  } finally {
    db?.close();
  }
  // The event was kept; only the memory it would have carried is missing: status says why.
  if (snapshotError !== undefined) recordFailure(args, instance, snapshotError, undefined, 'snapshot');
  // Printed only after the commit: a reply never announces an event that was not kept.
  if (reply) process.stdout.write(`${reply}\n`);
  return 0;
}

/**
 * The pi extension's direct channel: the same work as `hook pi --instance <instance>` with the event
 * on stdin, in the caller's process (pi's), with no child to start. The connection is kept between
 * events (opening one costs more than the event's transaction), but only while it is still the
 * data home's file: a home deleted or replaced under pi gets a fresh store, never writes into an
 * unlinked file. Never throws.
 */
export function capturePiEvent(instance: string, text: string, shim: string): boolean {
  const args: HookArgs = { client: 'pi', home: resolveHome(undefined), instance, shim };
  const raw = Buffer.from(text, 'utf8');
  try {
    const payload = parsePayload(checkSize(raw));
    capturePiEnvelope(piConnection(args.home), instance, payload, faultPointFromEnv());
    return true;
  } catch (error) {
    closePiConnection();
    recordFailure(args, instance, error, raw);
    return false;
  }
}

let piDb: { home: string; ino: number; db: Db } | undefined;

function piConnection(home: string): Db {
  const path = storeFiles(home).core;
  const ino = existsSync(path) ? statSync(path).ino : -1;
  if (piDb !== undefined && piDb.home === home && piDb.ino === ino) return piDb.db;
  closePiConnection();
  // In pi's process: pi's own uptime is no part of the budget, so the lock wait is the fixed bound.
  const db = openStore(home, PI_EVENT_LOCK_WAIT_MS);
  piDb = { home, ino: statSync(path).ino, db };
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
function recordFailure(
  args: HookArgs,
  instance: string,
  error: unknown,
  raw: Buffer | undefined,
  part: 'event' | 'snapshot' = 'event',
): void {
  const at = new Date();
  const record: Record<string, unknown> = {
    at: at.toISOString(),
    client: args.client,
    instance,
    code: (error as CmError).code ?? 'internal',
    message: (error as Error).message,
    elapsedMs: Math.round(performance.now()),
  };
  // The event itself was kept: only the session-start memory was not given.
  if (part === 'snapshot') record['part'] = 'snapshot';
  try {
    ensureHome(args.home);
    if (raw !== undefined && raw.length <= HOOK_STDIN_MAX_BYTES) {
      const name = `hook-${args.client}-${at.getTime()}-${process.pid}.json`;
      mkdirSync(storeFiles(args.home).quarantine, { recursive: true, mode: 0o700 });
      writeFileSync(join(storeFiles(args.home).quarantine, name), raw, { mode: 0o600 });
      record['quarantined'] = join('quarantine', name);
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
      ];
      const hook = words.map(shellQuote).join(' ');
      record['replay'] = `${hook} < ${shellQuote(join(storeFiles(args.home).quarantine, name))}`;
    } else if (raw !== undefined) {
      record['payloadBytes'] = raw.length;
    }
  } catch {
    // The quarantine is best effort too; the failure line below still says what happened.
  }
  const line = JSON.stringify(record);
  try {
    ensureHome(args.home);
    appendFileSync(storeFiles(args.home).hookErrors, `${line}\n`, { mode: 0o600 });
  } catch {
    process.stderr.write(`common-memory hook: ${line}\n`);
  }
}
