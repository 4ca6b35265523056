// What a promotion plan says of each candidate (pipeline/promotion.ts builds it): why a quarantined
// one can never be prepared (its findings), the support its statements have, how many user turns
// its evidence spans, and the approved entries it revises. Reads only, on the caller's connection.
import { type Db, prepared } from '../database.js';
import type { CandidateFinding } from './extraction-submit.js';

/** The lint findings recorded with a candidate ([] for none, or no such candidate). */
export function candidateFindings(db: Db, candidateId: string): CandidateFinding[] {
  const json = db.prepare('SELECT findings_json FROM candidates WHERE candidate_id = ?').pluck().get(candidateId) as
    | string
    | undefined;
  return JSON.parse(json ?? '[]') as CandidateFinding[];
}

export interface CandidateSupport {
  /** Each assessed statement's claim support ('human-confirmed' where a person confirmed it). */
  statements: string[];
  /** The distinct user turns its evidence cites. */
  turns: number;
  /** The approved entries it updates or merges into, oldest decision first. */
  revises: string[];
  /** Of those, the one it was made to revise (`memory revise`, the TUI's e on an entry), if any. */
  proposedRevision: string | null;
}

export function candidateSupport(db: Db, candidateId: string): CandidateSupport {
  const statements = db
    .prepare('SELECT claim_support FROM assessments WHERE candidate_id = ?')
    .pluck()
    .all(candidateId) as string[];
  const turns = db
    .prepare('SELECT count(DISTINCT turn_key) FROM evidence_refs WHERE candidate_id = ?')
    .pluck()
    .get(candidateId) as number;
  const rows = revisionRows(db, candidateId);
  return {
    statements,
    turns,
    revises: rows.map((row) => row.entryId),
    proposedRevision: rows.find((row) => row.proposed === 1)?.entryId ?? null,
  };
}

/** The approved entries a candidate updates or merges into (a revision, an adjudication), oldest decision first. */
export function revisedEntries(db: Db, candidateId: string): string[] {
  return revisionRows(db, candidateId).map((row) => row.entryId);
}

/**
 * The priority a person's revision will have once promoted: its entry's own, which prepare keeps
 * (promotion-plan.ts, keepsEntryFields) — from the candidate's repository, else the user scope, where
 * memory-state holds the entry. Null for any other candidate, or an entry not in the projection.
 */
export function revisionPriority(db: Db, candidateId: string, repositoryKey: string, userKey: string): number | null {
  const entryId = revisionRows(db, candidateId).find((row) => row.proposed === 1)?.entryId;
  if (entryId === undefined) return null;
  const priority = prepared(
    db,
    "SELECT json_extract(frontmatter_json, '$.priority') FROM approved_entries WHERE entry_id = ? AND repository_key IN (?, ?) ORDER BY repository_key = ? DESC LIMIT 1",
  )
    .pluck()
    .get(entryId, repositoryKey, userKey, repositoryKey) as number | null | undefined;
  return typeof priority === 'number' ? priority : null;
}

/**
 * Each approved entry a candidate updates or merges into, oldest decision first; `proposed`: the
 * update a proposal recorded (`memory revise`, the TUI's e on an entry), the entry it was made to revise.
 */
function revisionRows(db: Db, candidateId: string): Array<{ entryId: string; proposed: number }> {
  return prepared(
    db,
    "SELECT substr(from_candidate_id, 10) AS entryId, relation = 'update' AND task_id LIKE 'proposal:%' AS proposed FROM candidate_provenance WHERE candidate_id = ? AND relation IN ('update', 'merge') AND from_candidate_id LIKE 'approved:%' ORDER BY recorded_at_ms",
  ).all(candidateId) as Array<{ entryId: string; proposed: number }>;
}
