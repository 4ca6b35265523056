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
  return {
    statements,
    turns,
    revises: revisedEntries(db, candidateId),
    proposedRevision: proposedRevision(db, candidateId),
  };
}

/** The approved entries a candidate updates or merges into (a revision, an adjudication), oldest decision first. */
export function revisedEntries(db: Db, candidateId: string): string[] {
  return prepared(
    db,
    "SELECT substr(from_candidate_id, 10) FROM candidate_provenance WHERE candidate_id = ? AND relation IN ('update', 'merge') AND from_candidate_id LIKE 'approved:%' ORDER BY recorded_at_ms",
  )
    .pluck()
    .all(candidateId) as string[];
}

/** The entry a candidate was made to revise (`memory revise`, the TUI's e on an entry: a proposal's update), if any. */
function proposedRevision(db: Db, candidateId: string): string | null {
  const entryId = prepared(
    db,
    "SELECT substr(from_candidate_id, 10) FROM candidate_provenance WHERE candidate_id = ? AND relation = 'update' AND from_candidate_id LIKE 'approved:%' AND task_id LIKE 'proposal:%' ORDER BY recorded_at_ms LIMIT 1",
  )
    .pluck()
    .get(candidateId) as string | undefined;
  return entryId ?? null;
}
