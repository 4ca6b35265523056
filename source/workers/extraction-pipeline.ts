// One extraction run: select turns (core.sqlite, read-only) → chunks → tasks (writer) → claim →
// runner → submit → adjudication (claim → runner → submit, retried when stale) → run summary.
// Each arrow is a committed writer command; a run killed anywhere resumes from what is committed:
// planning the same selection again creates nothing, a submitted task is never claimed again, and
// a replayed submission returns its stored outcome.
import { randomBytes, randomUUID } from 'node:crypto';
import { CmError } from '../errors.js';
import type { MemoryExtractReport, MemoryExtractRequest } from '../protocol.js';
import type { Db } from '../store/database.js';
import type { WriterClient } from './writer-client.js';
import { planChunks, type PlannedChunk } from '../memory/chunking.js';
import {
  CHUNKER_VERSION,
  CONTRACT_SCHEMA_VERSION,
  DRAFTS_PER_BATCH_MAX,
  FORMATS,
  memoryDigest,
  PROMPT_VERSION,
  RUNNER_OUTPUT_MAX_BYTES,
  type AdjudicationTask,
  type ExtractionTask,
} from '../memory/contracts.js';
import { scopeResolver, type Scope } from '../memory/repository.js';
import type { Runner, RunnerRegistry, RunnerTask } from '../memory/runner.js';
import { extractionTaskId } from '../memory/task-store.js';
import { selectTurns, type Selection } from '../memory/turn-source.js';
import { checkWindow, parseUtc, utcText, WINDOW_MAX_DAYS } from '../memory/window.js';

/** Extraction tasks one run works on (seed 004 §9); the rest stay pending for the next run. */
export const RUN_TASKS_MAX = 8;
/** How long a claim holds: far longer than the builtin runner needs, short enough that a dead holder's work is picked up soon. */
export const TASK_LEASE_MS = 60_000;
/** A runner answering after this is a failed attempt. */
export const RUNNER_TIMEOUT_MS = 120_000;
/** Adjudication tasks one run goes through (a stale one is replaced by a new one). */
const ADJUDICATION_ROUNDS_MAX = 6;

export type ExtractRequest = Omit<MemoryExtractRequest, 'cwd'> & {
  /** The caller's directory: its repository is the run's scope; a caller cannot widen it. Null: every session in its own scope (the host's automatic runs). */
  cwd: string | null;
};

export type ExtractReport = MemoryExtractReport;

export type Progress = (event: {
  phase: 'plan' | 'extract' | 'adjudicate' | 'done';
  done: number;
  total: number;
  runId: string;
}) => void;

type Writer = Pick<WriterClient, 'call' | 'storeId'>;

export class ExtractionPipeline {
  private memoryStateUuid: string | undefined;

  constructor(
    private readonly writer: Writer,
    private readonly core: Db,
    private readonly runners: RunnerRegistry,
    private readonly holder: string,
  ) {}

  private runnerOf(name: string | undefined): Runner {
    const runner = this.runners.get(name ?? 'builtin');
    if (!runner)
      throw new CmError(
        'usage',
        `No runner named ${JSON.stringify(name)}; available: ${[...this.runners.keys()].join(', ')}.`,
      );
    if (!runner.offline)
      throw new CmError(
        'usage',
        `The ${runner.name} runner sends bytes off this machine and needs an authorised plan, which this version does not make yet; use --runner builtin.`,
      );
    return runner;
  }

  /** `lastUntil`: where the last finished run of a scope ended (the default start of the window). */
  async extract(
    request: ExtractRequest,
    lastUntil: (owner: { repositoryKey: string; worktreeKey: string } | null) => number | null,
    progress: Progress = () => {},
  ): Promise<ExtractReport> {
    const runner = this.runnerOf(request.runner);
    const limit = request.limit ?? RUN_TASKS_MAX;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > RUN_TASKS_MAX)
      throw new CmError('usage', `--limit must be a whole number from 1 to ${RUN_TASKS_MAX} (tasks per run).`);
    const untilMs = request.until !== undefined ? parseUtc(request.until, '--until') : Date.now();
    const resolve = scopeResolver();
    const callerScope = request.cwd === null ? null : resolve(request.cwd);
    // A window the caller gave is checked as given; the default runs from the last run's end (at most
    // a year back), and right after a run it is the last millisecond: nothing new, never an error.
    const sinceMs =
      request.since !== undefined
        ? parseUtc(request.since, '--since')
        : Math.min(
            Math.max(lastUntil(callerScope) ?? Number.NEGATIVE_INFINITY, untilMs - WINDOW_MAX_DAYS * 86_400_000),
            untilMs - 1,
          );
    const window = checkWindow(sinceMs, untilMs);
    this.memoryStateUuid ??= (await this.writer.call('memoryOpen', {})).memoryStateUuid;
    const selection: Selection = {
      sinceMs: window.sinceMs,
      untilMs: window.untilMs,
      client: request.client,
      sessionKeys: request.sessions,
      query: request.query,
    };
    const turns = selectTurns(
      this.core,
      selection,
      (cwd) => callerScope === null || resolve(cwd).worktreeKey === callerScope.worktreeKey,
    );
    // One run per scope: chunks never mix repositories.
    const groups = new Map<string, { scope: Scope; chunks: PlannedChunk[] }>();
    for (const chunk of planChunks(turns)) {
      const scope = callerScope ?? resolve(chunk.cwd);
      let group = groups.get(scope.worktreeKey);
      if (!group) groups.set(scope.worktreeKey, (group = { scope, chunks: [] }));
      group.chunks.push(chunk);
    }
    if (callerScope && groups.size === 0) groups.set(callerScope.worktreeKey, { scope: callerScope, chunks: [] });

    const report: ExtractReport = {
      runIds: [],
      window: { since: utcText(window.sinceMs), until: utcText(window.untilMs) },
      turns: turns.length,
      chunks: 0,
      tasks: { planned: 0, created: 0, submitted: 0, failed: 0, pending: 0, waitingForRetry: 0, stale: 0 },
      candidates: { created: 0, skipped: 0, updated: 0, merged: 0, stored: 0, quarantined: 0 },
      failures: [],
    };
    for (const { scope, chunks } of groups.values()) {
      const requestRecord = {
        sinceMs: window.sinceMs,
        untilMs: window.untilMs,
        query: request.query ?? null,
        client: request.client ?? null,
        sessions: request.sessions ?? null,
        auto: request.cwd === null,
        scope: scope.scope,
      };
      await this.runScope(scope, chunks, runner, limit, requestRecord, report, progress);
    }
    return report;
  }

  private async runScope(
    scope: Scope,
    chunks: PlannedChunk[],
    runner: Runner,
    limit: number,
    requestRecord: Record<string, unknown>,
    report: ExtractReport,
    progress: Progress,
  ): Promise<void> {
    const owner = { repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
    const runId = `run-${randomUUID()}`;
    report.runIds.push(runId);
    report.chunks += chunks.length;
    progress({ phase: 'plan', done: 0, total: chunks.length, runId });
    const planned = await this.writer.call('memoryPlan', {
      runId,
      runner: runner.name,
      request: requestRecord,
      requestDigest: memoryDigest(requestRecord),
      owner,
      binding:
        scope.scope === 'project'
          ? {
              rootRealpath: scope.rootRealpath,
              rootRealpathDigest: scope.rootRealpathDigest,
              device: scope.commonDirectoryIdentity.device,
              inode: scope.commonDirectoryIdentity.inode,
            }
          : null,
      chunks: chunks.map((chunk) => this.extractionTask(chunk, owner)),
    });
    report.tasks.planned += planned.taskIds.length;
    report.tasks.created += planned.created;

    let open = [...planned.open];
    let worked = 0;
    while (open.length > 0 && worked < limit) {
      const { claim, waiting } = await this.writer.call('memoryClaimTask', {
        holder: this.holder,
        leaseMs: TASK_LEASE_MS,
        taskIds: open,
      });
      open = open.filter((id) => !waiting.includes(id));
      report.tasks.waitingForRetry += waiting.length;
      if (!claim) break;
      open = open.filter((id) => id !== claim.taskId);
      worked += 1;
      const task = claim.stored.task as unknown as ExtractionTask;
      const output = await this.runOnce(runner, { kind: 'extraction', task });
      if (output.ok) {
        const outcome = await this.writer.call('memorySubmitExtraction', {
          taskId: claim.taskId,
          claimToken: claim.claimToken,
          output: output.text,
        });
        if (outcome.outcome === 'accepted') {
          report.tasks.submitted += 1;
          report.candidates.created += outcome.candidateIds.length;
          report.candidates.quarantined += outcome.quarantined;
        } else {
          report.tasks.failed += 1;
          report.failures.push(`${claim.taskId}: ${outcome.reason}`);
        }
      } else {
        await this.writer.call('memoryAbandonTask', {
          taskId: claim.taskId,
          claimToken: claim.claimToken,
          reason: output.reason,
        });
        report.tasks.failed += 1;
        report.failures.push(`${claim.taskId}: ${output.reason}`);
      }
      progress({ phase: 'extract', done: worked, total: Math.min(limit, planned.taskIds.length), runId });
    }
    report.tasks.pending += open.length;

    for (let round = 0; round < ADJUDICATION_ROUNDS_MAX; round++) {
      const { taskId } = await this.writer.call('memoryPlanAdjudication', { owner, runId });
      if (taskId === null) break;
      const { claim } = await this.writer.call('memoryClaimTask', {
        holder: this.holder,
        leaseMs: TASK_LEASE_MS,
        taskIds: [taskId],
      });
      if (!claim) break; // held by a live claim elsewhere, or out of attempts: the next run goes on
      const output = await this.runOnce(runner, {
        kind: 'adjudication',
        task: claim.stored.task as unknown as AdjudicationTask,
      });
      progress({ phase: 'adjudicate', done: round + 1, total: round + 1, runId });
      if (!output.ok) {
        await this.writer.call('memoryAbandonTask', { taskId, claimToken: claim.claimToken, reason: output.reason });
        report.failures.push(`${taskId}: ${output.reason}`);
        continue;
      }
      const outcome = await this.writer.call('memorySubmitAdjudication', {
        taskId,
        claimToken: claim.claimToken,
        output: output.text,
      });
      if (outcome.outcome === 'accepted') {
        report.candidates.stored += outcome.stored;
        report.candidates.skipped += outcome.skipped;
        report.candidates.updated += outcome.updated;
        report.candidates.merged += outcome.merged;
      } else if (outcome.outcome === 'stale') {
        report.tasks.stale += 1;
      } else {
        report.failures.push(`${taskId}: ${outcome.reason}`);
      }
    }
    await this.writer.call('memoryFinishRun', {
      runId,
      state: 'done',
      summary: { ...report, runIds: undefined } as Record<string, unknown>,
    });
    progress({ phase: 'done', done: 1, total: 1, runId });
  }

  private extractionTask(chunk: PlannedChunk, owner: { repositoryKey: string; worktreeKey: string }) {
    const task: ExtractionTask = {
      format: FORMATS.extractionTask,
      taskId: extractionTaskId(chunk.chunkRef),
      binding: {
        memoryStateUuid: this.memoryStateUuid!,
        storeId: this.writer.storeId,
        owner,
        sourceInputDigest: chunk.sourceInputDigest,
        turnRevisions: chunk.turnRevisions,
        promptVersion: PROMPT_VERSION,
        schemaVersion: CONTRACT_SCHEMA_VERSION,
        chunkerVersion: CHUNKER_VERSION,
      },
      session: {
        client: chunk.client,
        sessionKey: chunk.sessionKey,
        timeWindow: { start: utcText(chunk.startMs), end: utcText(chunk.endMs) },
      },
      evidenceCatalog: chunk.catalogue.map((entry) => ({
        evidenceId: entry.evidenceId,
        kind: 'turn' as const,
        pointerDigest: entry.pointerDigest,
        display: `${chunk.client} ${chunk.sessionKey} ${entry.turnKey}`,
      })),
      chunk: {
        chunkRef: chunk.chunkRef,
        turnRange: chunk.turnRange,
        coverage: chunk.coverage,
        transcript: chunk.transcript,
      },
      contract: { draftSchema: FORMATS.draftBatch, maxCandidates: DRAFTS_PER_BATCH_MAX, promptVersion: PROMPT_VERSION },
    };
    return {
      chunkRef: chunk.chunkRef,
      sessionKey: chunk.sessionKey,
      turnRange: `${chunk.turnRange.start}-${chunk.turnRange.end}`,
      chunkDigest: chunk.chunkDigest,
      sourceInputDigest: chunk.sourceInputDigest,
      task: task as unknown as Record<string, unknown>,
      pointers: chunk.catalogue as unknown as Record<string, unknown>[],
    };
  }

  /** One bounded runner call: a throw, a time-out or an oversized answer is a failed attempt with its reason. */
  private async runOnce(
    runner: Runner,
    work: RunnerTask,
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), RUNNER_TIMEOUT_MS);
    try {
      const text = await Promise.race([
        runner.run(work, { signal: controller.signal, maxOutputBytes: RUNNER_OUTPUT_MAX_BYTES }),
        new Promise<never>((_resolve, reject) =>
          controller.signal.addEventListener('abort', () =>
            reject(new Error(`no answer within ${RUNNER_TIMEOUT_MS} ms`)),
          ),
        ),
      ]);
      if (typeof text !== 'string') return { ok: false, reason: `the ${runner.name} runner answered with no text` };
      return { ok: true, text };
    } catch (error) {
      return { ok: false, reason: `the ${runner.name} runner failed: ${(error as Error).message ?? String(error)}` };
    } finally {
      clearTimeout(timer);
    }
  }
}

export const holderName = (label: string) => `${label}:${randomBytes(6).toString('hex')}`;
