// Consistency self-check of memory-state (beside core.sqlite's): every extracted candidate's
// evidence resolves to a captured user turn, the dedup pool's FTS rows are exactly the pooled candidates,
// each task has at most one accepted submission and a submitted task has one, a claim has its
// token and lease. A full scan over read-only connections, run on demand.
import type { Db } from '../database.js';
import type { Violation } from '../doctor.js';

const LIMIT = 50;

export function runMemoryDoctor(memory: Db, core: Db): Violation[] {
  return memory.transaction(() => core.transaction(() => check(memory, core))())();
}

function check(memory: Db, core: Db): Violation[] {
  const violations: Violation[] = [];
  const add = (check: string, detail: string) => violations.push({ check, detail });

  // Every statement of an extracted candidate cites at least one evidence reference, and each
  // resolves in core.sqlite. A proposal (memory_propose, memory revise) cites no turn by design: its
  // source is the conversation that proposed it, and its statement stays unverified until confirmed.
  const candidates = memory
    .prepare('SELECT candidate_id AS id, payload_json AS payload FROM candidates')
    .all() as Array<{ id: string; payload: string }>;
  const refs = memory.prepare(
    'SELECT statement_id AS statement, client, session_key AS session, turn_key AS turn FROM evidence_refs WHERE candidate_id = ?',
  );
  const captured = core.prepare(
    'SELECT 1 FROM capture_turns t JOIN capture_activations a ON a.activation_id = t.activation_id WHERE a.session_key = ? AND t.turn_key = ?',
  );
  const agentTurn = core.prepare("SELECT 1 FROM timeline WHERE generation_id = ? AND message_id = ? AND role = 'user'");
  let unresolved = 0;
  for (const candidate of candidates) {
    const payload = JSON.parse(candidate.payload) as {
      statements?: Array<{ statementId: string }>;
      origin?: { kind: string };
    };
    const statements = payload.origin?.kind === 'proposal' ? [] : (payload.statements ?? []);
    const rows = refs.all(candidate.id) as Array<{ statement: string; client: string; session: string; turn: string }>;
    for (const statement of statements) {
      if (!rows.some((row) => row.statement === statement.statementId))
        add(
          'memory.evidence',
          `candidate ${candidate.id} statement ${statement.statementId} has no evidence reference`,
        );
    }
    for (const row of rows) {
      const found = row.client === 'pi' ? agentTurn.get(row.session, row.turn) : captured.get(row.session, row.turn);
      if (found === undefined && unresolved++ < LIMIT)
        add(
          'memory.evidence',
          `candidate ${candidate.id} cites ${row.client} turn ${row.turn} of session ${row.session}, which core.sqlite does not hold`,
        );
    }
  }

  // The pool: candidates decided store/update/merge and still drafts are in candidate_fts, nothing else is.
  const extra = memory
    .prepare(
      `SELECT f.rowid AS rowid FROM candidate_fts f LEFT JOIN candidates c ON c.rowid = f.rowid
       WHERE c.rowid IS NULL OR c.status <> 'draft' OR c.adjudication <> 'done' OR c.decision NOT IN ('store', 'update', 'merge') LIMIT ?`,
    )
    .all(LIMIT) as Array<{ rowid: number }>;
  for (const row of extra) add('memory.fts', `candidate_fts row ${row.rowid} is not a pooled candidate`);
  const missing = memory
    .prepare(
      `SELECT candidate_id AS id FROM candidates c WHERE status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge')
         AND NOT EXISTS (SELECT 1 FROM candidate_fts f WHERE f.rowid = c.rowid) LIMIT ?`,
    )
    .all(LIMIT) as Array<{ id: string }>;
  for (const row of missing) add('memory.fts', `pooled candidate ${row.id} has no candidate_fts row`);

  // Submissions: one accepted per task (the primary key), a submitted task has one, nothing else has one.
  const unmatched = memory
    .prepare(
      `SELECT t.task_id AS id, t.status, s.task_id AS submission FROM tasks t LEFT JOIN submissions s ON s.task_id = t.task_id
       WHERE (t.status = 'submitted') <> (s.task_id IS NOT NULL) LIMIT ?`,
    )
    .all(LIMIT) as Array<{ id: string; status: string; submission: string | null }>;
  for (const row of unmatched)
    add(
      'memory.submissions',
      row.submission
        ? `task ${row.id} is ${row.status} but has an accepted submission`
        : `task ${row.id} is submitted without an accepted submission`,
    );
  const orphans = memory
    .prepare(
      'SELECT s.task_id AS id FROM submissions s LEFT JOIN tasks t ON t.task_id = s.task_id WHERE t.task_id IS NULL LIMIT ?',
    )
    .all(LIMIT) as Array<{ id: string }>;
  for (const row of orphans) add('memory.submissions', `a submission for unknown task ${row.id}`);

  // Claims carry their token and lease; only claimed tasks do.
  const claims = memory
    .prepare(
      "SELECT task_id AS id FROM tasks WHERE (status = 'claimed') <> (claim_token IS NOT NULL AND lease_expires_at_ms IS NOT NULL) LIMIT ?",
    )
    .all(LIMIT) as Array<{ id: string }>;
  for (const row of claims)
    add('memory.claims', `task ${row.id}: a claim without its token and lease, or a token left on an unclaimed task`);

  // A candidate that supersedes nothing is never marked superseded without a target.
  const dangling = memory
    .prepare("SELECT candidate_id AS id FROM candidates WHERE status = 'superseded' AND superseded_by IS NULL LIMIT ?")
    .all(LIMIT) as Array<{ id: string }>;
  for (const row of dangling) add('memory.supersede', `candidate ${row.id} is superseded by nothing`);
  return violations;
}
