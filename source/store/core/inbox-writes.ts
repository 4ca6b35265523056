// The inbox's writes, next to its reads (capture-reads.ts): the hook's one transaction finds or
// opens the activation, copy the transcript tail, append the
// envelope, store a prompt candidate, close the activation on a real end. Activation rules
// (seed 002): an activation is client + host process instance + host session id; while it is
// active every event joins it; after a real SessionEnd the next event opens a new one (new ordinal,
// new session key). Its snapshot is read once, at the first SessionStart startup/resume/clear/fork,
// and is re-attached unchanged for compact/clear/resume in the same process.
// The transcript-tail reader is passed in: reading the host's file is the hook's business.
import { sessionKeyOf, textDigest } from '../../ground/digests.js';
import type { FaultPoint } from '../../ground/faults.js';
import { HOOK_TAIL_CHUNK_BYTES } from '../../limits.js';
import type { CaptureClient } from '../../protocol.js';
import { prepared, type Db } from '../database.js';
import { commit } from '../transaction.js';

type HookClient = CaptureClient;

/** One host hook event, as the hook validated it. */
export interface InboxEvent {
  event: string;
  sessionId: string;
  transcriptPath: string | null;
  cwd: string | null;
  /** SessionStart: startup | resume | clear | compact | fork. */
  source: string | null;
  /** UserPromptSubmit only. */
  prompt: string | null;
  /** Codex turn_id, Claude prompt_id; '' when the event has none. */
  turnRef: string;
  value: Record<string, unknown>;
}

type HookPayload = InboxEvent;

export type TailState = 'none' | 'captured' | 'missing' | 'over_limit' | 'cursor_mismatch' | 'unreadable';

/** The transcript bytes an envelope keeps: from the watch's capture cursor to the last complete line. */
export interface Tail {
  state: TailState;
  from: number;
  to: number;
  bytes: Buffer | null;
  /** Why a transcript was not read (a refused file type or link, a missed deadline): recorded by the hook. */
  reason?: string;
}

/** Reads a transcript's tail from byte `from` (the hook's transcript-tail.ts). */
export type TailReader = (path: string, from: number) => Tail;

/**
 * Every statement of the hook's transaction, compiled by warmCapture before the write lock is
 * taken: under load, compiling inside the transaction makes every other hook wait for it.
 */
const SQL = {
  setSnapshot: 'UPDATE capture_activations SET snapshot = ? WHERE activation_id = ?',
  insertCandidate: `INSERT INTO prompt_candidates
      (activation_id, client, host_session_id, turn_ref, digest, body, scope, inbox_id, state)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending') ON CONFLICT (client, host_session_id, turn_ref, digest) DO NOTHING`,
  activeActivation: `SELECT activation_id, snapshot, snapshot_pending, watch_id FROM capture_activations
    WHERE client = ? AND process_instance = ? AND host_session_id = ? AND state = 'active'`,
  takeRefreshed: 'UPDATE capture_activations SET snapshot_pending = 0 WHERE activation_id = ?',
  nextOrdinal: `SELECT coalesce(max(ordinal), 0) + 1 AS ordinal FROM capture_activations
    WHERE client = ? AND process_instance = ? AND host_session_id = ?`,
  insertActivation: `INSERT INTO capture_activations
      (session_key, client, process_instance, host_session_id, ordinal, cwd, state, started_at_ms)
    VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
  endActivation: "UPDATE capture_activations SET state = 'ended', ended_at_ms = ? WHERE activation_id = ?",
  insertWatch: `INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES (?, ?, ?)
    ON CONFLICT (client, transcript_path) DO NOTHING`,
  readWatch: 'SELECT watch_id, captured_bytes FROM capture_watches WHERE client = ? AND transcript_path = ?',
  setActivationWatch: 'UPDATE capture_activations SET watch_id = ? WHERE activation_id = ?',
  advanceWatch: 'UPDATE capture_watches SET captured_bytes = ? WHERE watch_id = ?',
  insertInbox: `INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id,
      process_instance, watch_id, tail_state, tail_from, tail_to)
    VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`,
  insertTail: 'INSERT INTO inbox_tails (inbox_id, seq, bytes) VALUES (?, ?, ?)',
  markKept: 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
};

/** Compiles the transaction's statements ahead of it (they are cached per connection). */
export function warmCapture(db: Db): void {
  for (const text of Object.values(SQL)) prepared(db, text);
}

/** Events at which the transcript has new bytes worth keeping (a turn ended or the session does). */
const TAIL_EVENTS = new Set([
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'Interrupt',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
]);

export interface CaptureResult {
  inboxId: number;
  activationId: number;
  /** The context to give the host (SessionStart only), or null. */
  snapshot: string | null;
  /** A snapshot `memory refresh` replaced, given once at the next UserPromptSubmit or PostToolUse; else null. */
  refreshed: string | null;
}

/**
 * The session-start snapshot of a new activation ('' for nothing to give). Read outside the write
 * lock when the activation may need one, else inside the transaction that first needs it; at most
 * once either way.
 */
export type SnapshotSource = () => string;

/** SessionStart sources that read a snapshot for an activation that has none; compact only re-attaches. */
const SNAPSHOT_SOURCES = new Set([null, 'startup', 'resume', 'clear', 'fork']);

export interface ActivationRow {
  activation_id: number;
  snapshot: string | null;
  /** 1 while a refreshed snapshot waits for its delivery. */
  snapshot_pending: number;
  watch_id: number | null;
}

/** The events whose hook output may carry additional context: where a refreshed snapshot is delivered. */
const REFRESH_EVENTS = new Set(['UserPromptSubmit', 'PostToolUse']);

export function captureEvent(
  db: Db,
  client: HookClient,
  instance: string,
  payload: HookPayload,
  readTail: TailReader,
  fault?: FaultPoint,
  snapshotSource: SnapshotSource = () => '',
): CaptureResult {
  // What can be done before the write lock is: every hook waiting for it also waits for this one.
  warmCapture(db);
  const copyTail = TAIL_EVENTS.has(payload.event);
  const early =
    copyTail && payload.transcriptPath !== null ? earlyTail(db, client, payload.transcriptPath, readTail) : null;
  const readsSnapshot = payload.event === 'SessionStart' && SNAPSHOT_SOURCES.has(payload.source);
  let fresh: string | undefined;
  const freshSnapshot = (): string => (fresh ??= snapshotSource());
  if (readsSnapshot) {
    const active = prepared(db, SQL.activeActivation).get(client, instance, payload.sessionId) as
      | ActivationRow
      | undefined;
    if (active?.snapshot == null) freshSnapshot();
  }
  return commit(
    db,
    'hookCapture',
    (tx) => {
      const now = tx.nowMs;
      const activation = openActivation(db, client, instance, payload.sessionId, payload.cwd, now);

      let snapshot: string | null = null;
      if (payload.event === 'SessionStart') {
        if (activation.snapshot === null && readsSnapshot) {
          activation.snapshot = freshSnapshot();
          prepared(db, SQL.setSnapshot).run(activation.snapshot, activation.activation_id);
        }
        snapshot = activation.snapshot;
      }
      let refreshed: string | null = null;
      if (activation.snapshot_pending === 1 && REFRESH_EVENTS.has(payload.event)) {
        refreshed = activation.snapshot ?? '';
        prepared(db, SQL.takeRefreshed).run(activation.activation_id);
      }

      // The prompt body is kept once, in its candidate; the envelope keeps its digest.
      let stored = JSON.stringify(payload.value);
      let digest: string | null = null;
      if (payload.event === 'UserPromptSubmit' && payload.prompt !== null) {
        digest = textDigest(payload.prompt);
        stored = JSON.stringify({ ...payload.value, prompt: `sha256:${digest}` });
      }
      const inboxId = appendEnvelope(
        db,
        now,
        client,
        instance,
        activation,
        payload.sessionId,
        payload.event,
        payload.transcriptPath,
        copyTail,
        stored,
        readTail,
        early,
      );

      if (digest !== null) {
        prepared(db, SQL.insertCandidate).run(
          activation.activation_id,
          client,
          payload.sessionId,
          payload.turnRef,
          digest,
          payload.prompt,
          payload.cwd,
          inboxId,
        );
      }
      if (payload.event === 'SessionEnd') endActivation(db, activation.activation_id, now);
      if (client === 'claude' && payload.event === 'SubagentStop')
        captureSubagent(db, now, instance, payload, stored, readTail);
      return { inboxId, activationId: activation.activation_id, snapshot, refreshed };
    },
    fault,
  );
}

/** The active activation of client + process instance + host session, or a new one (next ordinal, new session key). */
export function openActivation(
  db: Db,
  client: HookClient | 'pi',
  instance: string,
  sessionId: string,
  cwd: string | null,
  now: number,
): ActivationRow {
  const active = prepared(db, SQL.activeActivation).get(client, instance, sessionId) as ActivationRow | undefined;
  if (active) return active;
  const { ordinal } = prepared(db, SQL.nextOrdinal).get(client, instance, sessionId) as { ordinal: number };
  const id = prepared(db, SQL.insertActivation).run(
    sessionKeyOf(client, instance, sessionId, ordinal),
    client,
    instance,
    sessionId,
    ordinal,
    cwd,
    now,
  ).lastInsertRowid as number;
  return { activation_id: id, snapshot: null, snapshot_pending: 0, watch_id: null };
}

export function endActivation(db: Db, activationId: number, now: number): void {
  prepared(db, SQL.endActivation).run(now, activationId);
}

/** One inbox envelope; with `copyTail`, the transcript bytes after the watch's cursor go with it. */
function appendEnvelope(
  db: Db,
  now: number,
  client: HookClient,
  instance: string,
  activation: ActivationRow,
  sessionId: string,
  event: string,
  transcriptPath: string | null,
  copyTail: boolean,
  stored: string,
  readTail: TailReader,
  early: Tail | null = null,
): number {
  let watchId = activation.watch_id;
  let tail: Tail = { state: 'none', from: 0, to: 0, bytes: null };
  if (transcriptPath !== null) {
    prepared(db, SQL.insertWatch).run(client, transcriptPath, sessionId);
    const watch = prepared(db, SQL.readWatch).get(client, transcriptPath) as {
      watch_id: number;
      captured_bytes: number;
    };
    watchId = watch.watch_id;
    if (activation.watch_id === null) {
      prepared(db, SQL.setActivationWatch).run(watchId, activation.activation_id);
      activation.watch_id = watchId;
    }
    if (copyTail) {
      // The tail read before the transaction is the same bytes if no other hook moved the cursor since.
      tail =
        early !== null && early.from === watch.captured_bytes ? early : readTail(transcriptPath, watch.captured_bytes);
      if (tail.state === 'captured' && tail.to > tail.from) prepared(db, SQL.advanceWatch).run(tail.to, watchId);
    }
  }
  const inboxId = prepared(db, SQL.insertInbox).run(
    client,
    event,
    now,
    stored,
    activation.activation_id,
    sessionId,
    instance,
    watchId,
    tail.state,
    tail.state === 'none' ? null : tail.from,
    tail.state === 'none' ? null : tail.to,
  ).lastInsertRowid as number;
  if (tail.bytes !== null && tail.bytes.length > 0) storeTail(db, inboxId, tail.bytes);
  return inboxId;
}

/** The tail from the watch's cursor as it is now (0 for a new watch), read outside the transaction. */
function earlyTail(db: Db, client: HookClient, transcriptPath: string, readTail: TailReader): Tail {
  const watch = prepared(db, SQL.readWatch).get(client, transcriptPath) as { captured_bytes: number } | undefined;
  return readTail(transcriptPath, watch?.captured_bytes ?? 0);
}

/**
 * Records, in the caller's transaction, that the event of a quarantine file (its name relative to
 * the home) is kept; false when it already was. A quarantined event may be kept by its own hook
 * after the host's deadline and its replay line may still be run: the marker keeps it once.
 */
export function markQuarantineKept(db: Db, name: string): boolean {
  return prepared(db, SQL.markKept).run(`quarantine-kept:${name}`, String(Date.now())).changes === 1;
}

/** Subagent ids are short hex today; the bound keeps a hostile payload from becoming a key of any size. */
const AGENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A Claude Code subagent writes its own transcript (<session>/subagents/agent-<id>.jsonl, all
 * sidechain context). At its SubagentStop the hook captures it as an activation of its own whose
 * host session is "<session>:agent-<id>" — the session key the transcript parser reports — so the
 * drain seals it like any session, and a broken subagent file isolates only itself.
 */
function captureSubagent(
  db: Db,
  now: number,
  instance: string,
  payload: HookPayload,
  stored: string,
  readTail: TailReader,
): void {
  const agentId = payload.value['agent_id'];
  const path = payload.value['agent_transcript_path'];
  if (typeof agentId !== 'string' || !AGENT_ID.test(agentId) || typeof path !== 'string' || !path.startsWith('/'))
    return;
  const sessionId = `${payload.sessionId}:agent-${agentId}`;
  const activation = openActivation(db, 'claude', instance, sessionId, payload.cwd, now);
  appendEnvelope(db, now, 'claude', instance, activation, sessionId, 'SubagentStop', path, true, stored, readTail);
  endActivation(db, activation.activation_id, now);
}

/** Keeps the tail in bounded rows (limits.ts HOOK_TAIL_CHUNK_BYTES says why), in the hook's transaction. */
export function storeTail(db: Db, inboxId: number, bytes: Buffer): void {
  const insert = prepared(db, SQL.insertTail);
  for (let seq = 0, at = 0; at < bytes.length; seq += 1, at += HOOK_TAIL_CHUNK_BYTES) {
    insert.run(inboxId, seq, bytes.subarray(at, at + HOOK_TAIL_CHUNK_BYTES));
  }
}
