// Consistency self-check (seed 003, B5). A full scan: run on demand, never on the hot path.
import type { Db } from './database.js';

export interface Violation {
  check: string;
  detail: string;
}

function checkStream(db: Db, stream: 'journal' | 'timeline', violations: Violation[]): void {
  const head = (db.prepare('SELECT head FROM heads WHERE stream = ?').get(stream) as { head: number } | undefined)?.head;
  const stats = db.prepare(`SELECT count(*) AS count, coalesce(max(sequence), 0) AS max, coalesce(min(sequence), 1) AS min FROM ${stream}`).get() as {
    count: number;
    max: number;
    min: number;
  };
  if (head === undefined) {
    violations.push({ check: `${stream}.head`, detail: `no ${stream} head row` });
    return;
  }
  if (head !== stats.max || head !== stats.count) {
    violations.push({ check: `${stream}.head`, detail: `head ${head}, max sequence ${stats.max}, rows ${stats.count}: all three must be equal` });
  }
  if (stats.count > 0 && stats.min !== 1) {
    violations.push({ check: `${stream}.contiguous`, detail: `the first sequence is ${stats.min}, not 1` });
  }
}

export function runDoctor(db: Db): Violation[] {
  const violations: Violation[] = [];
  checkStream(db, 'journal', violations);
  checkStream(db, 'timeline', violations);

  const badSources = db
    .prepare(
      `SELECT t.message_id AS messageId, t.source_journal_sequence AS source, j.canonical_message_id AS linked
       FROM timeline t LEFT JOIN journal j ON j.sequence = t.source_journal_sequence
       WHERE j.sequence IS NULL OR j.canonical_message_id IS NOT t.message_id LIMIT 50`,
    )
    .all() as { messageId: string; source: number; linked: string | null }[];
  for (const row of badSources) {
    violations.push({ check: 'timeline.source', detail: `message ${row.messageId} names journal ${row.source}, which ${row.linked === undefined ? 'is missing' : `links to ${row.linked ?? 'nothing'}`}` });
  }

  const dangling = db
    .prepare(
      `SELECT j.sequence, j.canonical_message_id AS messageId FROM journal j
       LEFT JOIN timeline t ON t.message_id = j.canonical_message_id
       WHERE j.canonical_message_id IS NOT NULL AND t.message_id IS NULL LIMIT 50`,
    )
    .all() as { sequence: number; messageId: string }[];
  for (const row of dangling) violations.push({ check: 'journal.canonical', detail: `journal ${row.sequence} links to missing message ${row.messageId}` });

  const orphanOps = db
    .prepare(
      `SELECT o.operation_id AS id, o.journal_sequence AS seq FROM operations o
       LEFT JOIN journal j ON j.sequence = o.journal_sequence WHERE j.sequence IS NULL OR j.operation_id IS NOT o.operation_id LIMIT 50`,
    )
    .all() as { id: string; seq: number }[];
  for (const row of orphanOps) violations.push({ check: 'operation.intent', detail: `operation ${row.id} names journal ${row.seq}, which is missing or belongs to another operation` });

  const timelineOps = db
    .prepare(
      `SELECT t.message_id AS id, t.operation_id AS op FROM timeline t
       LEFT JOIN operations o ON o.operation_id = t.operation_id WHERE t.operation_id IS NOT NULL AND o.operation_id IS NULL LIMIT 50`,
    )
    .all() as { id: string; op: string }[];
  for (const row of timelineOps) violations.push({ check: 'timeline.operation', detail: `message ${row.id} names missing operation ${row.op}` });

  const noteStates = db
    .prepare(`SELECT operation_id AS id, state FROM operations WHERE kind = 'note' AND state <> 'recorded' LIMIT 50`)
    .all() as { id: string; state: string }[];
  for (const row of noteStates) violations.push({ check: 'operation.state', detail: `note ${row.id} is in state ${row.state}; notes are only ever "recorded"` });

  return violations;
}
