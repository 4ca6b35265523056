// Consistency self-check (seed 003, B5). A full scan: run on demand, never on the hot path.
import type { Db } from './database.js';
import { PROMPT_STATES } from './core/operations.js';

export interface Violation {
  check: string;
  detail: string;
}

function checkStream(db: Db, stream: 'journal' | 'timeline', violations: Violation[]): void {
  const head = (db.prepare('SELECT head FROM heads WHERE stream = ?').get(stream) as { head: number } | undefined)
    ?.head;
  const stats = db
    .prepare(
      `SELECT count(*) AS count, coalesce(max(sequence), 0) AS max, coalesce(min(sequence), 1) AS min FROM ${stream}`,
    )
    .get() as {
    count: number;
    max: number;
    min: number;
  };
  if (head === undefined) {
    violations.push({ check: `${stream}.head`, detail: `no ${stream} head row` });
    return;
  }
  if (head !== stats.max || head !== stats.count) {
    violations.push({
      check: `${stream}.head`,
      detail: `head ${head}, max sequence ${stats.max}, rows ${stats.count}: all three must be equal`,
    });
  }
  if (stats.count > 0 && stats.min !== 1) {
    violations.push({ check: `${stream}.contiguous`, detail: `the first sequence is ${stats.min}, not 1` });
  }
}

/**
 * All checks read one snapshot (a single read transaction): doctor runs beside a live host, and a
 * head read before a commit compared with a count read after it would be a false alarm.
 */
export function runDoctor(db: Db): Violation[] {
  return db.transaction(() => check(db))();
}

function check(db: Db): Violation[] {
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
    violations.push({
      check: 'timeline.source',
      detail: `message ${row.messageId} names journal ${row.source}, which ${row.linked === undefined ? 'is missing' : `links to ${row.linked ?? 'nothing'}`}`,
    });
  }

  const dangling = db
    .prepare(
      `SELECT j.sequence, j.canonical_message_id AS messageId FROM journal j
       LEFT JOIN timeline t ON t.message_id = j.canonical_message_id
       WHERE j.canonical_message_id IS NOT NULL AND t.message_id IS NULL LIMIT 50`,
    )
    .all() as { sequence: number; messageId: string }[];
  for (const row of dangling)
    violations.push({
      check: 'journal.canonical',
      detail: `journal ${row.sequence} links to missing message ${row.messageId}`,
    });

  const orphanOps = db
    .prepare(
      `SELECT o.operation_id AS id, o.journal_sequence AS seq FROM operations o
       LEFT JOIN journal j ON j.sequence = o.journal_sequence WHERE j.sequence IS NULL OR j.operation_id IS NOT o.operation_id LIMIT 50`,
    )
    .all() as { id: string; seq: number }[];
  for (const row of orphanOps)
    violations.push({
      check: 'operation.intent',
      detail: `operation ${row.id} names journal ${row.seq}, which is missing or belongs to another operation`,
    });

  const timelineOps = db
    .prepare(
      `SELECT t.message_id AS id, t.operation_id AS op FROM timeline t
       LEFT JOIN operations o ON o.operation_id = t.operation_id WHERE t.operation_id IS NOT NULL AND o.operation_id IS NULL LIMIT 50`,
    )
    .all() as { id: string; op: string }[];
  for (const row of timelineOps)
    violations.push({ check: 'timeline.operation', detail: `message ${row.id} names missing operation ${row.op}` });

  // Notes' states are checked with every other kind's in checkAgents (8).
  checkAgents(db, violations);
  return violations;
}

/** Operation states that are not terminal for a prompt: it may still get an answer or be interrupted. */
const PENDING_PROMPT = "('prepared', 'attempted', 'accepted')";
/** Outcomes that are a verdict read from a terminal assistant message (settlement.ts): only a settled prompt has one. */
const ANSWER_OUTCOMES = "('answered', 'error', 'aborted')";
const quoted = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(', ')})`;

/** B5 assertions 5–8: agents, generations, prompt operations and the timeline's references. */
function checkAgents(db: Db, violations: Violation[]): void {
  // (5) At most one prompt in flight per agent, and the agent's busy pointer names it.
  const crowded = db
    .prepare(
      `SELECT agent_id AS agent, count(*) AS n FROM operations WHERE kind = 'prompt' AND state IN ${PENDING_PROMPT} GROUP BY agent_id HAVING n > 1 LIMIT 50`,
    )
    .all() as { agent: string; n: number }[];
  for (const row of crowded)
    violations.push({
      check: 'agent.one_prompt',
      detail: `agent ${row.agent} has ${row.n} prompts in flight; at most one is allowed`,
    });
  const badActive = db
    .prepare(
      `SELECT a.agent_id AS agent, a.active_operation_id AS op, o.state AS state FROM agents a
       LEFT JOIN operations o ON o.operation_id = a.active_operation_id
       WHERE a.active_operation_id IS NOT NULL AND (o.operation_id IS NULL OR o.kind <> 'prompt' OR o.agent_id IS NOT a.agent_id OR o.state NOT IN ${PENDING_PROMPT}) LIMIT 50`,
    )
    .all() as { agent: string; op: string; state: string | null }[];
  for (const row of badActive)
    violations.push({
      check: 'agent.active',
      detail: `agent ${row.agent} is busy with ${row.op}, which is ${row.state ?? 'missing'}, not a prompt of it in flight`,
    });

  // (6) Each generation's stdout/stderr head is the largest stored wire ordinal, with 1…head all present.
  const heads = db
    .prepare(
      `SELECT g.generation_id AS generation, s.stream AS stream, CASE s.stream WHEN 'stdout' THEN g.stdout_head ELSE g.stderr_head END AS head,
         (SELECT count(*) FROM journal j WHERE j.generation_id = g.generation_id AND j.wire_stream = s.stream AND j.wire_ordinal IS NOT NULL) AS rows,
         (SELECT coalesce(max(j.wire_ordinal), 0) FROM journal j WHERE j.generation_id = g.generation_id AND j.wire_stream = s.stream AND j.wire_ordinal IS NOT NULL) AS max,
         (SELECT coalesce(min(j.wire_ordinal), 1) FROM journal j WHERE j.generation_id = g.generation_id AND j.wire_stream = s.stream AND j.wire_ordinal IS NOT NULL) AS min
       FROM generations g CROSS JOIN (SELECT 'stdout' AS stream UNION ALL SELECT 'stderr') s`,
    )
    .all() as { generation: string; stream: string; head: number; rows: number; max: number; min: number }[];
  for (const row of heads) {
    // Ordinals are unique per (generation, stream), so rows = max with min 1 means no holes.
    if (row.head !== row.max || row.rows !== row.max || row.min !== 1) {
      violations.push({
        check: 'generation.ordinals',
        detail: `generation ${row.generation} ${row.stream}: head ${row.head}, max stored ordinal ${row.max}, ${row.rows} records from ${row.min}; they must be 1…head without holes`,
      });
    }
  }
  const strays = db
    .prepare(
      `SELECT j.sequence FROM journal j LEFT JOIN generations g ON g.generation_id = j.generation_id
       WHERE j.wire_ordinal IS NOT NULL AND (g.generation_id IS NULL OR j.wire_stream IS NULL) LIMIT 50`,
    )
    .all() as { sequence: number }[];
  for (const row of strays)
    violations.push({
      check: 'generation.ordinals',
      detail: `journal ${row.sequence} has a wire ordinal but no generation or stream`,
    });

  // (7) Timeline rows name an existing agent, generation and operation; a prompt's user message exists and is a user row.
  const refs = db
    .prepare(
      `SELECT t.message_id AS id, t.agent_id AS agent, t.generation_id AS generation, a.agent_id AS a, g.generation_id AS g, g.agent_id AS gAgent FROM timeline t
       LEFT JOIN agents a ON a.agent_id = t.agent_id LEFT JOIN generations g ON g.generation_id = t.generation_id
       WHERE (t.agent_id IS NOT NULL AND a.agent_id IS NULL) OR (t.generation_id IS NOT NULL AND (g.generation_id IS NULL OR g.agent_id IS NOT t.agent_id)) LIMIT 50`,
    )
    .all() as {
    id: string;
    agent: string | null;
    generation: string | null;
    a: string | null;
    g: string | null;
    gAgent: string | null;
  }[];
  for (const row of refs) {
    const what =
      row.agent !== null && row.a === null
        ? `missing agent ${row.agent}`
        : row.g === null
          ? `missing generation ${row.generation}`
          : `generation ${row.generation} of another agent (${row.gAgent})`;
    violations.push({ check: 'timeline.agent', detail: `message ${row.id} names ${what}` });
  }
  const users = db
    .prepare(
      `SELECT o.operation_id AS id, o.user_message_id AS message, t.role AS role, t.operation_id AS owner FROM operations o
       LEFT JOIN timeline t ON t.message_id = o.user_message_id
       WHERE o.kind = 'prompt' AND (o.user_message_id IS NULL OR t.message_id IS NULL OR t.role <> 'user' OR t.operation_id IS NOT o.operation_id) LIMIT 50`,
    )
    .all() as { id: string; message: string | null; role: string | null; owner: string | null }[];
  for (const row of users) {
    const what =
      row.message === null
        ? 'no user message'
        : row.role === null
          ? `missing message ${row.message}`
          : row.role !== 'user'
            ? `message ${row.message} with role ${row.role}`
            : `message ${row.message} of operation ${row.owner}`;
    violations.push({ check: 'operation.user_message', detail: `prompt ${row.id} names ${what}` });
  }

  // (8) Operation states: a prompt's from PROMPT_TRANSITIONS; everything else is only ever recorded.
  // A settled prompt carries its outcome; an answer verdict points at a real assistant row; an
  // interrupted (or later abandoned) prompt claims no answer.
  const states = db
    .prepare(
      `SELECT operation_id AS id, kind, state FROM operations
       WHERE (kind = 'prompt' AND state NOT IN ${quoted(PROMPT_STATES)}) OR (kind <> 'prompt' AND state <> 'recorded') LIMIT 50`,
    )
    .all() as { id: string; kind: string; state: string }[];
  for (const row of states)
    violations.push({
      check: 'operation.state',
      detail: `${row.kind} ${row.id} is in state ${JSON.stringify(row.state)}, which its lifecycle does not have`,
    });
  const verdicts = db
    .prepare(
      `SELECT o.operation_id AS id, o.state, o.outcome FROM operations o
       WHERE o.kind = 'prompt' AND (
         (o.state = 'settled' AND o.outcome IS NULL)
         OR (o.state IN ('interrupted', 'abandoned') AND o.outcome IN ${ANSWER_OUTCOMES})
         OR (o.outcome IN ${ANSWER_OUTCOMES} AND NOT EXISTS (SELECT 1 FROM timeline t WHERE t.operation_id = o.operation_id AND t.role = 'assistant'))
       ) LIMIT 50`,
    )
    .all() as { id: string; state: string; outcome: string | null }[];
  for (const row of verdicts) {
    const what =
      row.outcome === null
        ? 'settled without an outcome'
        : row.state === 'interrupted' || row.state === 'abandoned'
          ? `${row.state} but claims the outcome ${row.outcome}`
          : `claims the outcome ${row.outcome} without any assistant message in the timeline`;
    violations.push({ check: 'operation.outcome', detail: `prompt ${row.id} is ${what}` });
  }
}
