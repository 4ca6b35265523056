// Writer commands of extraction tasks on memory-state (seed 004 §2): plan (chunks + tasks,
// idempotent), claim (lease + random token; submitted and stale tasks never again), abandon, and
// the bookkeeping every submission shares — one accepted submission per task, a replay with the
// same digest returns the stored outcome, a different one is audited and refused, and a failed
// attempt is counted so that a task stops after TASK_ATTEMPTS_MAX until retried explicitly.
import { echoedWord } from '../../echo-text.js';
import { crypto } from '../../ground/lazy-builtin.js';
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { TASK_ATTEMPTS_MAX } from '../../limits.js';
import { sha256Hex } from '../../ground/digests.js';
import { memoryCommand } from '../command.js';
import { type Db, prepared } from '../database.js';
import { type Reader, reader, type Tx } from '../transaction.js';
import { type AdjudicationTask, type ExtractionTask, SUBMISSIONS_PER_BATCH_MAX } from '../../memory/contracts.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
export const ownerInput = z.object({ repositoryKey: hex64, worktreeKey: hex64 }).strict();

export interface TaskRow {
  task_id: string;
  kind: 'extraction' | 'adjudication' | 'consolidation';
  run_id: string | null;
  repository_key: string;
  worktree_key: string;
  chunk_ref: string | null;
  draft_batch_ref: string | null;
  task_json: string;
  lease_holder: string | null;
  lease_epoch: number;
  claim_token: string | null;
  lease_expires_at_ms: number | null;
  status: 'pending' | 'claimed' | 'submitted' | 'stale';
  attempts: number;
  last_error: string | null;
  superseded_by: string | null;
}

export const readTask = (tx: Reader<'memory'>, taskId: string) =>
  prepared(tx.db, 'SELECT * FROM tasks WHERE task_id = ?').get(taskId) as TaskRow | undefined;

/** What a command naming a task memory-state does not hold answers. */
export const noMemoryTask = (taskId: string): CmError =>
  new CmError('not_found', `No memory task ${echoedWord(taskId)}.`);

/** Whether memory-state holds the task (a read-only connection will do). */
export const hasMemoryTask = (db: Db, taskId: string): boolean => readTask(reader<'memory'>(db), taskId) !== undefined;

export const extractionTaskId = (chunkRef: string) => `ext-${sha256Hex(chunkRef).slice(0, 24)}`;

/** Whether a task's submission was accepted (its chunk is done, whatever the run that planned it). */
export const isTaskSubmitted = (db: Db, taskId: string): boolean =>
  prepared(db, "SELECT 1 FROM tasks WHERE task_id = ? AND status = 'submitted'").get(taskId) !== undefined;

/** The turn ranges ("start-end") of a session's chunks in a worktree whose drafts are in: turns already processed. */
export const processedTurnRanges = (db: Db, sessionKey: string, worktreeKey: string): string[] =>
  prepared(
    db,
    "SELECT turn_range FROM chunks WHERE session_key = ? AND worktree_key = ? AND status IN ('drafted', 'extracted')",
  )
    .pluck()
    .all(sessionKey, worktreeKey) as string[];

/** Where a project scope's worktree is: what names a candidate's repository and finds its root. */
export const bindingInput = z
  .object({ rootRealpath: z.string(), rootRealpathDigest: hex64, device: z.string(), inode: z.string() })
  .strict();

const planInput = z
  .object({
    runId: z.string().min(1),
    runner: z.string().min(1),
    request: z.record(z.string(), z.unknown()),
    requestDigest: hex64,
    owner: ownerInput,
    /** The repository binding (absolute root inside): null for the user scope. */
    binding: bindingInput.nullable(),
    chunks: z.array(
      z
        .object({
          chunkRef: z.string().min(1),
          sessionKey: z.string().min(1),
          turnRange: z.string(),
          chunkDigest: hex64,
          sourceInputDigest: hex64,
          /** The runner-facing ExtractionTask and the local pointers of its evidence ids. */
          task: z.record(z.string(), z.unknown()),
          pointers: z.array(z.record(z.string(), z.unknown())),
        })
        .strict(),
    ),
  })
  .strict();

/** Records (or reactivates) the worktree a repository's candidates are promoted into. */
export function bindRepository(
  db: Tx<'memory'>['db'],
  owner: { repositoryKey: string; worktreeKey: string },
  binding: z.infer<typeof bindingInput>,
): void {
  prepared(
    db,
    `INSERT INTO repository_bindings (repository_key, worktree_key, root_realpath, root_realpath_digest, common_dir_device, common_dir_inode)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (repository_key, worktree_key) DO UPDATE SET status = 'active'`,
  ).run(
    owner.repositoryKey,
    owner.worktreeKey,
    binding.rootRealpath,
    binding.rootRealpathDigest,
    binding.device,
    binding.inode,
  );
}

function plan(tx: Tx<'memory'>, input: z.infer<typeof planInput>) {
  const { db, nowMs } = tx;
  const { repositoryKey, worktreeKey } = input.owner;
  if (input.binding) bindRepository(db, input.owner, input.binding);
  prepared(
    db,
    `INSERT INTO runs (run_id, repository_key, worktree_key, runner, request_json, request_digest, state, started_at_ms) VALUES (?, ?, ?, ?, ?, ?, 'running', ?)`,
  ).run(
    input.runId,
    repositoryKey,
    worktreeKey,
    input.runner,
    JSON.stringify(input.request),
    input.requestDigest,
    nowMs,
  );
  const insertChunk = prepared(
    db,
    `INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, created_at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chunk_ref) DO NOTHING`,
  );
  const insertTask = prepared(
    db,
    `INSERT INTO tasks (task_id, kind, run_id, repository_key, worktree_key, chunk_ref, task_json, created_at_ms)
    VALUES (?, 'extraction', ?, ?, ?, ?, ?, ?) ON CONFLICT (task_id) DO NOTHING`,
  );
  let created = 0;
  const taskIds: string[] = [];
  const open: string[] = [];
  for (const chunk of input.chunks) {
    const taskId = extractionTaskId(chunk.chunkRef);
    if (chunk.task['taskId'] !== taskId)
      throw new CmError(
        'invalid_input',
        `memoryPlan: chunk ${chunk.chunkRef} carries task ${String(chunk.task['taskId'])}, expected ${taskId}.`,
      );
    insertChunk.run(
      chunk.chunkRef,
      repositoryKey,
      worktreeKey,
      chunk.sessionKey,
      chunk.turnRange,
      chunk.chunkDigest,
      chunk.sourceInputDigest,
      nowMs,
    );
    created += insertTask.run(
      taskId,
      input.runId,
      repositoryKey,
      worktreeKey,
      chunk.chunkRef,
      JSON.stringify({ task: chunk.task, pointers: chunk.pointers }),
      nowMs,
    ).changes;
    taskIds.push(taskId);
    if (['pending', 'claimed'].includes(readTask(tx, taskId)!.status)) open.push(taskId);
  }
  /** open: the tasks still to be done (pending, or claimed by a live or an expired lease). */
  return { runId: input.runId, taskIds, open, created };
}

const claimInput = z
  .object({
    holder: z.string().min(1).max(128),
    leaseMs: z.number().int().min(1000).max(3_600_000),
    /** Claim the first claimable of these, in order. */
    taskIds: z.array(z.string()).min(1).max(1000),
  })
  .strict();

/**
 * A task as the tasks table keeps it (task_json): the runner-facing task the planner wrote, whose
 * `format` says its kind, and for extraction the local pointers of its evidence ids.
 */
export interface StoredTask {
  task: ExtractionTask | AdjudicationTask;
  pointers?: unknown[];
}

export interface Claim {
  taskId: string;
  kind: 'extraction' | 'adjudication' | 'consolidation';
  claimToken: string;
  leaseEpoch: number;
  leaseExpiresAtMs: number;
  stored: StoredTask;
}

/** tx-claim: pending, or claimed with an expired lease (that earlier attempt counts as failed); never submitted or stale. */
function claim(tx: Tx<'memory'>, input: z.infer<typeof claimInput>): { claim: Claim | null; waiting: string[] } {
  const waiting: string[] = [];
  for (const taskId of input.taskIds) {
    const task = readTask(tx, taskId);
    if (!task) continue;
    const expired = task.status === 'claimed' && (task.lease_expires_at_ms ?? 0) < tx.nowMs;
    if (task.status !== 'pending' && !expired) continue;
    const attempts = task.attempts + (expired ? 1 : 0);
    if (attempts >= TASK_ATTEMPTS_MAX) {
      if (expired)
        prepared(
          tx.db,
          "UPDATE tasks SET status = 'pending', attempts = ?, last_error = 'lease expired', lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL WHERE task_id = ?",
        ).run(attempts, taskId);
      waiting.push(taskId);
      continue;
    }
    const claimToken = crypto().randomBytes(16).toString('hex');
    const leaseExpiresAtMs = tx.nowMs + input.leaseMs;
    prepared(
      tx.db,
      `UPDATE tasks SET status = 'claimed', lease_holder = ?, lease_epoch = lease_epoch + 1, claim_token = ?, lease_expires_at_ms = ?, attempts = ?,
         last_error = CASE WHEN ? THEN 'lease expired' ELSE last_error END WHERE task_id = ?`,
    ).run(input.holder, claimToken, leaseExpiresAtMs, attempts, expired ? 1 : 0, taskId);
    return {
      claim: {
        taskId,
        kind: task.kind,
        claimToken,
        leaseEpoch: task.lease_epoch + 1,
        leaseExpiresAtMs,
        stored: JSON.parse(task.task_json) as StoredTask,
      },
      waiting,
    };
  }
  return { claim: null, waiting };
}

export type SubmissionRefusal =
  | { outcome: 'lease_lost'; reason: string }
  | { outcome: 'conflict'; reason: string }
  | { outcome: 'rejected'; reason: string; attempts: number };

/**
 * The checks every submission starts with: a stored submission answers a replay (same digest) or
 * refuses a different answer (audited); otherwise the claim token must hold a live lease.
 */
export function beginSubmission(
  tx: Tx<'memory'>,
  taskId: string,
  claimToken: string,
  output: string,
): { task: TaskRow; digest: string; replay?: unknown; refusal?: SubmissionRefusal } {
  const task = readTask(tx, taskId);
  if (!task) throw noMemoryTask(taskId);
  const digest = sha256Hex(output);
  const stored = prepared(
    tx.db,
    'SELECT response_digest AS digest, outcome_json AS outcome FROM submissions WHERE task_id = ?',
  ).get(taskId) as { digest: string; outcome: string } | undefined;
  if (stored) {
    if (stored.digest === digest)
      return { task, digest, replay: { ...(JSON.parse(stored.outcome) as object), replayed: true } };
    prepared(
      tx.db,
      'INSERT INTO submission_conflicts (task_id, response_digest, reason, received_at_ms) VALUES (?, ?, ?, ?)',
    ).run(taskId, digest, 'different answer after an accepted one', tx.nowMs);
    return {
      task,
      digest,
      refusal: {
        outcome: 'conflict',
        reason: `task ${taskId} already has an accepted submission with another digest; this one was recorded and refused`,
      },
    };
  }
  if (task.status !== 'claimed' || task.claim_token !== claimToken || (task.lease_expires_at_ms ?? 0) < tx.nowMs) {
    return {
      task,
      digest,
      refusal: {
        outcome: 'lease_lost',
        reason: `the lease on task ${taskId} was lost (it is ${task.status}${task.claim_token !== claimToken ? ', claimed by another holder' : ''}); the submission was refused`,
      },
    };
  }
  return { task, digest };
}

/** A failed attempt: counted, the lease released, the task claimable again (until the budget is spent). */
export function failAttempt(tx: Tx<'memory'>, task: TaskRow, reason: string): SubmissionRefusal {
  const attempts = task.attempts + 1;
  prepared(
    tx.db,
    "UPDATE tasks SET status = 'pending', attempts = ?, last_error = ?, lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL WHERE task_id = ?",
  ).run(attempts, reason.slice(0, 1000), task.task_id);
  return { outcome: 'rejected', reason, attempts };
}

/** The accepted submission: stored with its outcome, the task submitted for good. */
export function acceptSubmission(tx: Tx<'memory'>, task: TaskRow, digest: string, outcome: object): void {
  prepared(
    tx.db,
    'INSERT INTO submissions (task_id, response_digest, outcome_json, received_at_ms) VALUES (?, ?, ?, ?)',
  ).run(task.task_id, digest, JSON.stringify(outcome), tx.nowMs);
  prepared(tx.db, "UPDATE tasks SET status = 'submitted', lease_expires_at_ms = NULL WHERE task_id = ?").run(
    task.task_id,
  );
}

const claimManyInput = z
  .object({
    holder: z.string().min(1).max(128),
    leaseMs: z.number().int().min(1000).max(3_600_000),
    /** Claim the first claimable of these, in order, up to `max` of them. */
    taskIds: z.array(z.string()).min(1).max(1000),
    max: z.number().int().min(1).max(SUBMISSIONS_PER_BATCH_MAX),
  })
  .strict();

/**
 * Up to `max` claims in one transaction, each as `claim` makes it: an offline runner answers in
 * milliseconds, so one commit for a run's tasks costs less than the tasks' own work.
 */
function claimMany(tx: Tx<'memory'>, input: z.infer<typeof claimManyInput>): { claims: Claim[]; waiting: string[] } {
  const claims: Claim[] = [];
  const waiting: string[] = [];
  let taskIds = input.taskIds;
  while (claims.length < input.max && taskIds.length > 0) {
    const next = claim(tx, { holder: input.holder, leaseMs: input.leaseMs, taskIds });
    waiting.push(...next.waiting);
    if (!next.claim) break;
    const taken = next.claim.taskId;
    claims.push(next.claim);
    taskIds = taskIds.filter((id) => id !== taken && !next.waiting.includes(id));
  }
  return { claims, waiting };
}

const abandonInput = z.object({ taskId: z.string(), claimToken: z.string(), reason: z.string().max(1000) }).strict();

export const taskCommands = {
  memoryPlan: memoryCommand({
    replayable: true,
    schema: planInput,
    run: (tx, _context, input) => plan(tx, input),
  }),
  memoryClaimTask: memoryCommand({
    replayable: true,
    schema: claimInput,
    run: (tx, _context, input) => claim(tx, input),
  }),
  memoryClaimTasks: memoryCommand({
    replayable: true,
    schema: claimManyInput,
    run: (tx, _context, input) => claimMany(tx, input),
  }),
  /** The current holder gives up (a runner failure, a time-out): a counted attempt, claimable again. */
  memoryAbandonTask: memoryCommand({
    replayable: true,
    schema: abandonInput,
    run: (tx, _context, input) => {
      const task = readTask(tx, input.taskId);
      if (!task) throw noMemoryTask(input.taskId);
      if (task.status !== 'claimed' || task.claim_token !== input.claimToken) return { outcome: 'lease_lost' as const };
      return {
        outcome: 'abandoned' as const,
        attempts: failAttempt(tx, task, input.reason).outcome === 'rejected' ? task.attempts + 1 : task.attempts,
      };
    },
  }),
  /** An explicit retry of a task that spent its attempt budget. */
  memoryRetryTask: memoryCommand({
    schema: z.object({ taskId: z.string() }).strict(),
    run: (tx, _context, input) => {
      const task = readTask(tx, input.taskId);
      if (!task) throw noMemoryTask(input.taskId);
      if (task.status !== 'pending')
        throw new CmError(
          'operation_conflict',
          `Task ${input.taskId} is ${task.status}; only a pending task waits for a retry.`,
        );
      prepared(tx.db, 'UPDATE tasks SET attempts = 0 WHERE task_id = ?').run(input.taskId);
      return { taskId: input.taskId, attempts: 0 };
    },
  }),
  /**
   * At the start of a lease holder (host or command), every claim left is an earlier holder's: only
   * the holder of the data home's lease claims, so those holders are gone. Their attempts count.
   */
  memoryReleaseClaims: memoryCommand({
    replayable: true,
    schema: z.object({}).strict(),
    run: (tx) => {
      const released = prepared(
        tx.db,
        "UPDATE tasks SET status = 'pending', attempts = attempts + 1, last_error = 'its holder stopped before submitting', lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL WHERE status = 'claimed'",
      ).run().changes;
      prepared(tx.db, "UPDATE runs SET state = 'failed', finished_at_ms = ? WHERE state = 'running'").run(tx.nowMs);
      return { released };
    },
  }),
  memoryFinishRun: memoryCommand({
    replayable: true,
    schema: z
      .object({ runId: z.string(), state: z.enum(['done', 'failed']), summary: z.record(z.string(), z.unknown()) })
      .strict(),
    run: (tx, _context, input) => {
      prepared(tx.db, 'UPDATE runs SET state = ?, summary_json = ?, finished_at_ms = ? WHERE run_id = ?').run(
        input.state,
        JSON.stringify(input.summary),
        tx.nowMs,
        input.runId,
      );
      return { runId: input.runId };
    },
  }),
};
