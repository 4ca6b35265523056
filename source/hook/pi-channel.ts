// The pi extension's direct channel into the hook's work, in pi's own process: events, the
// session-start memory and a refreshed snapshot, over one connection kept between events.
import { existsSync, statSync } from 'node:fs';
import { resolveHome, storeFiles } from '../home.js';
import { faultPointFromEnv } from '../ground/faults.js';
import { takePiRefreshedSnapshot } from '../store/core/pi-inbox.js';
import type { Db } from '../store/database.js';
import { appendHookErrorLine, recordFailure, reportOmitted } from './failures.js';
import type { HookArgs } from './hook-args.js';
import { openStore } from './open-store.js';
import { parsePayload } from './payload.js';
import { capturePiEnvelope, PI_EVENT_LOCK_WAIT_MS } from './pi-capture.js';
import { hookSnapshotText } from './session-snapshot.js';

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

/**
 * The pi extension's session-start memory: the same bounded snapshot a Codex or Claude Code
 * session gets, for pi's cwd, from the data home's memory-state (read-only). The extension freezes
 * it per data home + pi session and adds it to pi's system prompt each turn. Never throws: a
 * memory-state that cannot be read gives '' and a line in hook-errors.jsonl for `status`.
 */
export function piSessionSnapshot(instance: string, cwd: string | null, shim: string): string {
  const args: HookArgs = { client: 'pi', home: resolveHome(undefined), instance, shim, inPiProcess: true };
  try {
    return hookSnapshotText(args, instance, cwd);
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
    return takePiRefreshedSnapshot(piConnection(args, instance), instance, sessionId);
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
