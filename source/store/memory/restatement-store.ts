// Folding a restatement into the candidate that survives it, inside an adjudication submission's
// transaction. Two candidates that say the same thing become one: the survivor (chosen by
// `survivorOrder`, never by which arrived first) takes every user turn the other cited as evidence
// of its own — a new revision of the survivor — and the other is superseded by it, kept, never
// deleted. Repetition is evidence: a rule said twice is one candidate citing both turns.
import { prepared, type Db } from '../database.js';
import type { Tx } from '../transaction.js';
import { restates } from '../../memory/adjudication-rules.js';
import { memoryDigest } from '../../memory/contracts.js';
import { unpoolCandidate } from './recall-terms.js';

interface Statement {
  statementId: string;
  text: string;
}

interface RefRow {
  statement_id: string;
  evidence_id: string;
  pointer_digest: string;
  session_key: string;
  turn_key: string;
  client: string;
  strength: string;
  task_id: string;
}

const statementsOf = (db: Db, candidateId: string): Statement[] =>
  (
    JSON.parse(
      prepared(db, 'SELECT payload_json FROM candidates WHERE candidate_id = ?').pluck().get(candidateId) as string,
    ) as { statements: Statement[] }
  ).statements;

/** The survivor's statement a folded statement's evidence goes to: the first that restates it, else the first. */
function statementFor(survivor: readonly Statement[], folded: Statement | undefined): string | undefined {
  if (survivor.length === 0) return undefined;
  const match = folded ? survivor.find((statement) => restates(statement.text, folded.text)) : undefined;
  return (match ?? survivor[0]!).statementId;
}

/**
 * Folds `loserId` into `winnerId`: copies the loser's evidence references onto the winner (a user
 * turn already cited by the winner's statement is not cited twice), re-digests the winner's
 * assessments of the statements that gained evidence, bumps the winner's revision when anything was
 * added, takes the loser out of the dedup pool and supersedes it by the winner (its decision becomes
 * `decision` when it is decided in this batch; an earlier run's candidate keeps its own). Returns the number
 * of evidence references the winner gained.
 */
export function foldInto(
  tx: Tx,
  loserId: string,
  winnerId: string,
  decision: 'skip' | 'merge',
  options: { sameBatch?: boolean } = {},
): number {
  const { db, nowMs } = tx;
  const winnerStatements = statementsOf(db, winnerId);
  const loserStatements = statementsOf(db, loserId);
  const refs = prepared(
    db,
    'SELECT statement_id, evidence_id, pointer_digest, session_key, turn_key, client, strength, task_id FROM evidence_refs WHERE candidate_id = ? ORDER BY statement_id, evidence_id',
  ).all(loserId) as RefRow[];
  const cited = prepared(
    db,
    'SELECT 1 FROM evidence_refs WHERE candidate_id = ? AND statement_id = ? AND pointer_digest = ?',
  );
  const insert = prepared(
    db,
    `INSERT INTO evidence_refs (candidate_id, statement_id, evidence_id, pointer_digest, session_key, turn_key, client, relation, strength, task_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'cites', ?, ?) ON CONFLICT (candidate_id, statement_id, evidence_id) DO NOTHING`,
  );
  const gained = new Set<string>();
  let added = 0;
  for (const ref of refs) {
    const target = statementFor(
      winnerStatements,
      loserStatements.find((statement) => statement.statementId === ref.statement_id),
    );
    if (target === undefined || cited.get(winnerId, target, ref.pointer_digest) !== undefined) continue;
    // Evidence ids are a task's catalogue ids (`e1`, …): a copied one is named by its task so that
    // the `e1` of another chunk never collides with the winner's own.
    const evidenceId = ref.evidence_id.includes('/') ? ref.evidence_id : `${ref.task_id}/${ref.evidence_id}`;
    const result = insert.run(
      winnerId,
      target,
      evidenceId,
      ref.pointer_digest,
      ref.session_key,
      ref.turn_key,
      ref.client,
      ref.strength,
      ref.task_id,
    );
    if (result.changes > 0) {
      added += 1;
      gained.add(target);
    }
  }
  for (const statementId of gained) {
    const citations = prepared(
      db,
      'SELECT evidence_id AS evidenceId, pointer_digest AS pointerDigest FROM evidence_refs WHERE candidate_id = ? AND statement_id = ? ORDER BY evidence_id',
    ).all(winnerId, statementId);
    prepared(
      db,
      'UPDATE assessments SET citations_digest = ?, revision = revision + 1 WHERE candidate_id = ? AND statement_id = ?',
    ).run(memoryDigest(citations), winnerId, statementId);
  }
  if (added > 0)
    prepared(db, 'UPDATE candidates SET revision = revision + 1, updated_at_ms = ? WHERE candidate_id = ?').run(
      nowMs,
      winnerId,
    );
  const loserRowid = prepared(db, 'SELECT rowid FROM candidates WHERE candidate_id = ?').pluck().get(loserId) as number;
  unpoolCandidate(db, loserRowid);
  prepared(
    db,
    "UPDATE candidates SET status = 'superseded', superseded_by = ?, decision = CASE WHEN adjudication = 'pending' OR ? THEN ? ELSE decision END, adjudication = 'done', updated_at_ms = ? WHERE candidate_id = ?",
  ).run(winnerId, options.sameBatch ? 1 : 0, decision, nowMs, loserId);
  return added;
}
