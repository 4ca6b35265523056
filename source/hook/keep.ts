// The event's one transaction, and the two ways it runs again: a replay of a quarantined event
// (`--quarantined`: the marker keeps it at most once) and the late keep of an event quarantined at
// its deadline while its process kept running.
import { faultPointFromEnv } from '../ground/faults.js';
import { HOOK_LATE_LOCK_WAIT_MS } from '../limits.js';
import type { Db } from '../store/database.js';
import { captureEvent, markQuarantineKept, type TailReader } from '../store/core/inbox-writes.js';
import { isLockBusy } from './busy-wait.js';
import { type Quarantined, reportOmitted, resolveQuarantine } from './failures.js';
import type { HookArgs } from './hook-args.js';
import type { HookPayload } from './payload.js';
import { capturePiEnvelope } from './pi-capture.js';
import { hookReply } from './reply.js';

/** A replay of a quarantined event that an earlier run (or replay) already kept. */
export class AlreadyKept extends Error {}

/** The session-start memory for the reply, read in the capture's transaction; '' when it cannot be. */
export type SnapshotReader = () => string;

/**
 * The event's one transaction; with `quarantined`, the same transaction records that this
 * quarantine file is kept, so that the event enters the inbox at most once however often its replay
 * line runs (and however a late commit and a replay race). Returns the host's reply.
 */
export function keep(
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
export function keepLate(
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
