// A long review queue without extracting it: the data home's one draft candidate, with its
// evidence and assessments, copied in memory-state (each copy a millisecond newer than the last).
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';

/** Copies the repository's one draft candidate (with its evidence and assessments) until the queue holds `count`. */
export function fillQueue(home: string, count: number): void {
  const db = openDatabase(storeFiles(home).memoryState);
  try {
    db.transaction(() => {
      const source = db.prepare("SELECT candidate_id FROM candidates WHERE status = 'draft' LIMIT 1").get() as {
        candidate_id: string;
      };
      const copy = (table: string, columns: string) =>
        db.prepare(
          `INSERT INTO ${table} (candidate_id, ${columns}) SELECT ?, ${columns} FROM ${table} WHERE candidate_id = ?`,
        );
      const evidence = copy(
        'evidence_refs',
        'statement_id, evidence_id, pointer_digest, session_key, turn_key, client, relation, strength, limitations_json, task_id',
      );
      const assessments = copy(
        'assessments',
        'statement_id, citations_digest, provenance_strength, limitations_json, claim_support, assessed_by, statement_text_digest, revision',
      );
      const candidate = db.prepare(
        `INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, revision, content_digest,
           payload_json, status, adjudication, decision, findings_json, created_at_ms, updated_at_ms)
         SELECT ?, repository_key, worktree_key, chunk_ref, task_id, revision, content_digest,
           json_set(payload_json, '$.content', ?), status, adjudication, decision, findings_json, created_at_ms + ?, updated_at_ms
         FROM candidates WHERE candidate_id = ?`,
      );
      for (let i = 1; i < count; i++) {
        const id = `cand-${String(i).padStart(8, '0')}bench`;
        candidate.run(
          id,
          `Copy ${i} of the statement: always use named exports in TypeScript modules.`,
          i,
          source.candidate_id,
        );
        evidence.run(id, source.candidate_id);
        assessments.run(id, source.candidate_id);
      }
    })();
  } finally {
    db.close();
  }
}
