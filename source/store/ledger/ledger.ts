// The conversation read ledger: per root conversation (client + a digest of its session id), the
// approved entries its agent successfully read, as bounded candidate metadata (id, content digest,
// title, appliesWhen, sources) — never a body. Hooks write it, each event in one short
// BEGIN IMMEDIATE transaction; node:* and better-sqlite3 only (the hook fast path imports it).
//
// Generations: a trusted SessionStart(startup) opens an empty generation; resume re-attaches the
// root's unexpired generation (or opens an empty one: nothing is rebuilt from a transcript); clear
// retires the current generation with its reads and opens an empty one, in one transaction. Each
// turn is bound to the generation that held when it began (UserPromptSubmit), and a read is
// recorded into its turn's generation only while that generation is still current: a late read of
// a retired generation is refused. SessionEnd marks the root inactive; nothing relies on it —
// roots idle past the expiry are swept lazily by the next write, with no background process.
import { existsSync } from 'node:fs';
import { CmError } from '../../errors.js';
import { sha256Hex } from '../../ground/digests.js';
import {
  LEDGER_APPLIES_WHEN_MAX_BYTES,
  LEDGER_BUSY_TIMEOUT_MS,
  LEDGER_DIGESTS_PER_ID,
  LEDGER_ENTRIES_PER_ROOT,
  LEDGER_ID_MAX_BYTES,
  LEDGER_IDLE_EXPIRY_MS,
  LEDGER_ROOTS_MAX,
  LEDGER_SOURCES_MAX_BYTES,
  LEDGER_TITLE_MAX_BYTES,
  LEDGER_TURNS_PER_ROOT,
} from '../../limits.js';
import { databaseError, openDatabase, prepared, type Db } from '../database.js';
import { migrate, schemaVersion } from '../migrations.js';
import { ledgerSchema } from './ledger-schema.js';

/** One successful read, as the client's structured tool result gave it. */
export interface LedgerRead {
  entryId: string;
  contentDigest: string;
  title: string;
  appliesWhen: string | null;
  sources: Array<{ scope: string; path: string }>;
}

export interface LedgerEntry extends LedgerRead {
  observedAt: string;
  commitSeq: number;
}

export type RecordOutcome = { outcome: 'recorded' | 'observed' } | { outcome: 'skipped' | 'refused'; reason: string };

/** Opens (creating and migrating) the ledger for a hook; a damaged, newer or locked file throws CmError. */
export function openLedger(path: string, busyTimeoutMs = LEDGER_BUSY_TIMEOUT_MS): Db {
  const db = openDatabase(path, { busyTimeoutMs });
  try {
    // Hints are worth less than the turn they would slow: a commit survives a crash of the process
    // (WAL), not necessarily a power loss, and spares the hook an fsync per event.
    // No host checkpoints this file: SQLite's own automatic checkpoint (every 1000 pages) keeps the WAL small.
    db.pragma('synchronous = NORMAL');
    if (schemaVersion(db) !== ledgerSchema.steps.length) migrate(db, ledgerSchema);
    return db;
  } catch (error) {
    db.close();
    throw databaseError(path, error);
  }
}

/**
 * The ledger read-only, or null when nothing is recorded in it yet; never creates or migrates. A
 * file at version 0 is one a hook has created and not yet migrated (openLedger makes it in place,
 * its one step in one transaction): it holds no table, so it reads as not there, not as damaged.
 */
export function openLedgerReadOnly(path: string): Db | null {
  if (!existsSync(path)) return null;
  const db = openDatabase(path, { readonly: true, busyTimeoutMs: LEDGER_BUSY_TIMEOUT_MS });
  const version = schemaVersion(db);
  if (version === 0) {
    db.close();
    return null;
  }
  if (version !== ledgerSchema.steps.length) {
    db.close();
    throw new CmError(
      'store_unavailable',
      `ledger.sqlite has schema version ${version}; this common-memory reads version ${ledgerSchema.steps.length}. ${
        version > ledgerSchema.steps.length ? 'Upgrade common-memory.' : 'A hook migrates it on its next event.'
      }`,
    );
  }
  return db;
}

const rootDigest = (sessionId: string) => sha256Hex(`root\0${sessionId}`);
const turnDigest = (turnRef: string) => sha256Hex(`turn\0${turnRef}`);

interface RootRow {
  root_id: number;
  generation: number;
  last_seen_ms: number;
}

function findRoot(db: Db, client: string, sessionId: string, now: number): RootRow | undefined {
  const row = prepared(
    db,
    'SELECT root_id, generation, last_seen_ms FROM roots WHERE client = ? AND root_digest = ?',
  ).get(client, rootDigest(sessionId)) as RootRow | undefined;
  return row && now - row.last_seen_ms <= LEDGER_IDLE_EXPIRY_MS ? row : undefined;
}

function nextSeq(db: Db): number {
  return (
    prepared(db, "UPDATE ledger_meta SET value = value + 1 WHERE key = 'commit_seq' RETURNING value").get() as {
      value: number;
    }
  ).value;
}

/** Expired roots go; beyond the cap, the least recently seen go (their generations, turns and reads with them). */
function sweep(db: Db, now: number): void {
  prepared(db, 'DELETE FROM roots WHERE last_seen_ms < ?').run(now - LEDGER_IDLE_EXPIRY_MS);
  prepared(
    db,
    'DELETE FROM roots WHERE root_id IN (SELECT root_id FROM roots ORDER BY last_seen_ms DESC, root_id DESC LIMIT -1 OFFSET ?)',
  ).run(LEDGER_ROOTS_MAX);
}

function openGeneration(db: Db, rootId: number, generation: number, now: number): void {
  prepared(db, 'INSERT INTO generations (root_id, generation, opened_at_ms) VALUES (?, ?, ?)').run(
    rootId,
    generation,
    now,
  );
}

/** Retires the current generation: its reads and turns go; a late event naming it is refused. */
function retire(db: Db, root: RootRow, now: number): void {
  prepared(db, 'UPDATE generations SET retired_at_ms = ? WHERE root_id = ? AND generation = ?').run(
    now,
    root.root_id,
    root.generation,
  );
  prepared(db, 'DELETE FROM reads WHERE root_id = ? AND generation = ?').run(root.root_id, root.generation);
}

const write = <T>(db: Db, work: () => T): T => db.transaction(work).immediate();

/**
 * SessionStart. startup (and fork, and an unknown source): an empty generation — a new root, or
 * the next generation of a known one. resume/compact: the unexpired root's current generation, or
 * an empty one. clear: the current generation is retired and an empty one opened. Both clients
 * checked live (Claude Code 2.1.332, Codex 0.171.0's TUI) send clear under a new session id, so
 * there it is a new root; retiring covers a client that clears under the same id.
 */
export function ledgerSessionStart(db: Db, client: string, sessionId: string, source: string | null, now: number) {
  return write(db, () => {
    sweep(db, now);
    const root = findRoot(db, client, sessionId, now);
    if (!root) {
      // Unknown, or expired (swept above): never rebuilt, always empty.
      const rootId = Number(
        prepared(
          db,
          "INSERT INTO roots (client, root_digest, generation, state, last_seen_ms) VALUES (?, ?, 1, 'active', ?)",
        ).run(client, rootDigest(sessionId), now).lastInsertRowid,
      );
      openGeneration(db, rootId, 1, now);
      return { generation: 1, attached: false };
    }
    const reattach = source === 'resume' || source === 'compact';
    let generation = root.generation;
    if (!reattach) {
      retire(db, root, now);
      generation = root.generation + 1;
      openGeneration(db, root.root_id, generation, now);
    }
    prepared(db, "UPDATE roots SET generation = ?, state = 'active', last_seen_ms = ? WHERE root_id = ?").run(
      generation,
      now,
      root.root_id,
    );
    return { generation, attached: reattach };
  });
}

export function ledgerSessionEnd(db: Db, client: string, sessionId: string, now: number): void {
  write(db, () => {
    const root = findRoot(db, client, sessionId, now);
    if (root) prepared(db, "UPDATE roots SET state = 'inactive' WHERE root_id = ?").run(root.root_id);
  });
}

/** A turn began (UserPromptSubmit): it belongs to the generation that holds now. */
export function ledgerTurn(db: Db, client: string, sessionId: string, turnRef: string, now: number): boolean {
  if (turnRef === '') return false;
  return write(db, () => {
    const root = findRoot(db, client, sessionId, now);
    if (!root) return false;
    prepared(db, 'INSERT OR IGNORE INTO turns (root_id, turn_digest, generation, seen_at_ms) VALUES (?, ?, ?, ?)').run(
      root.root_id,
      turnDigest(turnRef),
      root.generation,
      now,
    );
    prepared(
      db,
      `DELETE FROM turns WHERE root_id = ? AND turn_digest IN (
         SELECT turn_digest FROM turns WHERE root_id = ? ORDER BY seen_at_ms DESC, turn_digest LIMIT -1 OFFSET ?)`,
    ).run(root.root_id, root.root_id, LEDGER_TURNS_PER_ROOT);
    prepared(db, 'UPDATE roots SET last_seen_ms = ? WHERE root_id = ?').run(now, root.root_id);
    return true;
  });
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Why a read cannot be kept as it is, or null; over-size fields are never cut into a false record. */
function oversize(read: LedgerRead): string | null {
  if (bytes(read.entryId) > LEDGER_ID_MAX_BYTES) return `the entry id is over ${LEDGER_ID_MAX_BYTES} bytes`;
  if (bytes(read.title) > LEDGER_TITLE_MAX_BYTES) return `the title is over ${LEDGER_TITLE_MAX_BYTES} bytes`;
  if (read.appliesWhen !== null && bytes(read.appliesWhen) > LEDGER_APPLIES_WHEN_MAX_BYTES)
    return `appliesWhen is over ${LEDGER_APPLIES_WHEN_MAX_BYTES} bytes`;
  if (bytes(JSON.stringify(read.sources)) > LEDGER_SOURCES_MAX_BYTES)
    return `the sources are over ${LEDGER_SOURCES_MAX_BYTES} bytes`;
  return null;
}

/**
 * A successful read by the root agent, in the turn `turnRef`. The same (id, digest) again updates
 * its observation (time, order, sources) only; another digest of the same id is kept beside it, at
 * most LEDGER_DIGESTS_PER_ID; beyond LEDGER_ENTRIES_PER_ROOT the oldest commit goes.
 */
export function recordRootRead(
  db: Db,
  client: string,
  sessionId: string,
  turnRef: string,
  read: LedgerRead,
  now: number,
): RecordOutcome {
  const tooBig = oversize(read);
  if (tooBig) return { outcome: 'skipped', reason: tooBig };
  return write(db, (): RecordOutcome => {
    sweep(db, now);
    const root = findRoot(db, client, sessionId, now);
    if (!root) return { outcome: 'refused', reason: 'no trusted session start for this conversation' };
    const turn = prepared(db, 'SELECT generation FROM turns WHERE root_id = ? AND turn_digest = ?').get(
      root.root_id,
      turnDigest(turnRef),
    ) as { generation: number } | undefined;
    if (!turn) return { outcome: 'refused', reason: 'the turn of this read began before the ledger knew it' };
    if (turn.generation !== root.generation)
      return { outcome: 'refused', reason: `the read belongs to generation ${turn.generation}, which was retired` };
    const seq = nextSeq(db);
    const key = [root.root_id, root.generation, read.entryId, read.contentDigest] as const;
    const sources = JSON.stringify(read.sources);
    const seen = prepared(
      db,
      `UPDATE reads SET observed_at_ms = ?, commit_seq = ?, sources_json = ?
       WHERE root_id = ? AND generation = ? AND entry_id = ? AND content_digest = ?`,
    ).run(now, seq, sources, ...key).changes;
    prepared(db, 'UPDATE roots SET last_seen_ms = ? WHERE root_id = ?').run(now, root.root_id);
    if (seen > 0) return { outcome: 'observed' };
    prepared(
      db,
      `INSERT INTO reads (root_id, generation, entry_id, content_digest, title, applies_when, sources_json,
         observed_at_ms, commit_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...key, read.title, read.appliesWhen, sources, now, seq);
    // Deterministic eviction: the oldest commit first, among the id's digests, then in the root.
    prepared(
      db,
      `DELETE FROM reads WHERE root_id = ? AND generation = ? AND entry_id = ? AND commit_seq IN (
         SELECT commit_seq FROM reads WHERE root_id = ? AND generation = ? AND entry_id = ?
         ORDER BY commit_seq DESC LIMIT -1 OFFSET ?)`,
    ).run(
      root.root_id,
      root.generation,
      read.entryId,
      root.root_id,
      root.generation,
      read.entryId,
      LEDGER_DIGESTS_PER_ID,
    );
    prepared(
      db,
      `DELETE FROM reads WHERE root_id = ? AND generation = ? AND commit_seq IN (
         SELECT commit_seq FROM reads WHERE root_id = ? AND generation = ?
         ORDER BY commit_seq DESC LIMIT -1 OFFSET ?)`,
    ).run(root.root_id, root.generation, root.root_id, root.generation, LEDGER_ENTRIES_PER_ROOT);
    return { outcome: 'recorded' };
  });
}

/**
 * What a verified child of the root may see: the root's current generation's reads, oldest commit
 * first (ties by id and digest). Read-only: a child's own reads are never written back here.
 */
export function readsForChild(db: Db, client: string, sessionId: string, now: number): LedgerEntry[] {
  const root = findRoot(db, client, sessionId, now);
  if (!root) return [];
  const rows = prepared(
    db,
    `SELECT entry_id, content_digest, title, applies_when, sources_json, observed_at_ms, commit_seq FROM reads
     WHERE root_id = ? AND generation = ? ORDER BY commit_seq, entry_id, content_digest`,
  ).all(root.root_id, root.generation) as Array<{
    entry_id: string;
    content_digest: string;
    title: string;
    applies_when: string | null;
    sources_json: string;
    observed_at_ms: number;
    commit_seq: number;
  }>;
  return rows.map((row) => ({
    entryId: row.entry_id,
    contentDigest: row.content_digest,
    title: row.title,
    appliesWhen: row.applies_when,
    sources: JSON.parse(row.sources_json) as LedgerRead['sources'],
    observedAt: new Date(row.observed_at_ms).toISOString(),
    commitSeq: row.commit_seq,
  }));
}

export interface LedgerCounts {
  roots: number;
  activeRoots: number;
  entries: number;
}

export function ledgerCounts(db: Db, now: number): LedgerCounts {
  const since = now - LEDGER_IDLE_EXPIRY_MS;
  const row = prepared(
    db,
    `SELECT count(*) AS roots, coalesce(sum(state = 'active'), 0) AS active,
       (SELECT count(*) FROM reads JOIN roots r USING (root_id)
        WHERE r.last_seen_ms >= ? AND reads.generation = r.generation) AS entries
     FROM roots WHERE last_seen_ms >= ?`,
  ).get(since, since) as { roots: number; active: number; entries: number };
  return { roots: row.roots, activeRoots: row.active, entries: row.entries };
}
