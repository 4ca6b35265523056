// One extraction run: select turns (core.sqlite, read-only) → chunks → tasks (writer) → claim →
// runner → submit → adjudication (claim → runner → submit, retried when stale) → run summary.
// Each arrow is a committed writer command; a run killed anywhere resumes from what is committed:
// planning the same selection again creates nothing, a submitted task is never claimed again, and
// a replayed submission returns its stored outcome.
import { randomBytes, randomUUID } from 'node:crypto';
import { CmError } from '../errors.js';
import type { MemoryExtractReport } from '../api/memory-runs.js';
import type { MemoryExtractRequest } from '../api/memory.js';
import type { Db } from '../store/database.js';
import type { WriterPort } from '../store/writer-commands.js';
import { CHUNK_MAX_BYTES, contextText, planChunks, type PlannedChunk } from '../memory/chunking.js';
import {
  CHUNKER_VERSION,
  CONTRACT_SCHEMA_VERSION,
  DRAFTS_PER_BATCH_MAX,
  FORMATS,
  memoryDigest,
  PROMPT_VERSION,
  RUNNER_OUTPUT_MAX_BYTES,
  SUBMISSIONS_PER_BATCH_MAX,
  type ExtractionTask,
} from '../memory/contracts.js';
import { PROBE_VERSION } from '../effects/conformance.js';
import { bindingRecord, scopeResolver, type Scope } from '../effects/repository.js';
import { openMemoryStateReadOnly } from '../store/memory/state-database.js';
import { storeFiles } from '../home.js';
import { dirname } from 'node:path';
import {
  isExternal,
  offlineNeedsNoProbe,
  unknownRunner,
  type ContextTurn,
  type ExternalRunner,
  type Runner,
  type RunnerRegistry,
  type RunnerTask,
  type RunOptions,
} from '../memory/runner.js';
import {
  approvedPlans,
  authorizationManifest,
  executionPlan,
  type Approval,
  type RunnerExecutionPlan,
} from '../memory/runner-plan.js';
import { screenRunnerTask, type ScreenedRunnerTask } from '../memory/runner-input-lint.js';
import { CONSOLIDATION_FORMATS } from '../memory/consolidation/patch.js';
import type { ConsolidationTask } from '../memory/consolidation/task.js';
import { extractionTaskId, isTaskSubmitted, processedTurnRanges, type StoredTask } from '../store/memory/task-store.js';
import { repetitionDraftBatch } from '../memory/repetition.js';
import { repetitionChunks, type RepetitionChunk } from './repetition-pass.js';
import { lastSealMs, resolveSessionKeys, selectTurns, type Selection } from '../store/core/turn-source.js';
import { utcText } from '../memory/window.js';
import { checkRunOptions, refuseRunRequest, runWindow } from '../memory/run-request.js';

/** How long a claim holds: far longer than the builtin runner needs, short enough that a dead holder's work is picked up soon. */
export const TASK_LEASE_MS = 60_000;
/** A runner answering after this is a failed attempt. */
export const RUNNER_TIMEOUT_MS = 120_000;
/** The outer bound of an external runner, whose own profile timeout (at most 30 min) kills it first. */
const RUNNER_TIMEOUT_MAX_MS = 31 * 60_000;
/** Earlier turns of a session an extraction task may carry as context (seed 002 `conversation_context`). */
export const CONTEXT_TURNS_MAX = 2;
/** Adjudication tasks one run goes through (a stale one is replaced by a new one). */
const ADJUDICATION_ROUNDS_MAX = 6;

export type ExtractRequest = Omit<MemoryExtractRequest, 'cwd'> & {
  /** The caller's directory: its repository is the run's scope; a caller cannot widen it. Null: every session in its own scope (the host's automatic runs). */
  cwd: string | null;
  /** The id of the (first) run, when a follower already holds it (the host's followed runs); otherwise a new one. */
  runId?: string | undefined;
};

export type ExtractReport = MemoryExtractReport;

export type Progress = (event: {
  phase: 'plan' | 'extract' | 'adjudicate' | 'done';
  done: number;
  total: number;
  runId: string;
}) => void;

export class ExtractionPipeline {
  private memoryStateUuid: string | undefined;
  /** Bytes an external runner was sent in the current scope's run (the run budget counts them all). */
  private runBytesSent = 0;

  constructor(
    private readonly writer: WriterPort,
    private readonly core: Db,
    /** A function is asked at each run: profiles are read from the data home's configuration then. */
    private readonly runners: RunnerRegistry | ((wanted: string) => RunnerRegistry),
    private readonly holder: string,
    /**
     * Aborted when whoever runs the pipeline goes away (a command working alone, stopped): the
     * runner in flight is told to stop, as at its time-out, and its task is left for the next run.
     */
    private readonly stop?: AbortSignal,
  ) {}

  /** The runner a run names (`builtin` when none), from the data home's profiles read now. */
  runnerOf(name: string | undefined): Runner {
    const runners = typeof this.runners === 'function' ? this.runners(name ?? 'builtin') : this.runners;
    const runner = runners.get(name ?? 'builtin');
    if (!runner) throw unknownRunner(name, [...runners.keys()]);
    return runner;
  }

  /**
   * What a run would refuse before it plans anything — its runner, its options, its window — refused
   * now: a host asks before it gives the run an id, so that nothing says a run started.
   */
  checkRun(
    request: ExtractRequest,
    lastUntil: (owner: { repositoryKey: string; worktreeKey: string } | null) => number | null,
  ): void {
    refuseRunRequest(request, {
      runner: (name) => this.runnerOf(name),
      lastUntil: () => lastUntil(request.cwd === null ? null : scopeResolver()(request.cwd)),
      sessions: (keys) => resolveSessionKeys(this.core, keys),
    });
  }

  /** `lastUntil`: where the last finished run of a scope ended (the default start of the window). */
  async extract(
    request: ExtractRequest,
    lastUntil: (owner: { repositoryKey: string; worktreeKey: string } | null) => number | null,
    progress: Progress = () => {},
  ): Promise<ExtractReport> {
    const runner = this.runnerOf(request.runner);
    if (isExternal(runner)) await this.conformance(runner, false);
    const limit = checkRunOptions(request);
    const resolve = scopeResolver();
    const callerScope = request.cwd === null ? null : resolve(request.cwd);
    const window = runWindow(
      request,
      () => lastUntil(callerScope),
      () => lastSealMs(this.core),
    );
    this.memoryStateUuid ??= (await this.writer.call('memoryOpen', {})).memoryStateUuid;
    const selection: Selection = {
      sinceMs: window.sinceMs,
      untilMs: window.untilMs,
      client: request.client,
      sessionKeys: request.sessions && resolveSessionKeys(this.core, request.sessions),
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
      await this.runScope(scope, chunks, runner, limit, requestRecord, report, progress, request, request.runId);
      if (report.pendingPlan) break; // one approval at a time: the next scope waits for the next run
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
    approval: Approval,
    presetRunId?: string,
  ): Promise<void> {
    const owner = { repositoryKey: scope.repositoryKey, worktreeKey: scope.worktreeKey };
    const runId = presetRunId !== undefined && report.runIds.length === 0 ? presetRunId : `run-${randomUUID()}`;
    const repetitions = this.repetitions(scope, chunks);
    this.runBytesSent = 0;
    report.runIds.push(runId);
    report.chunks += chunks.length;
    progress({ phase: 'plan', done: 0, total: chunks.length, runId });
    const planned = await this.writer.call('memoryPlan', {
      runId,
      runner: runner.name,
      request: requestRecord,
      requestDigest: memoryDigest(requestRecord),
      owner,
      binding: bindingRecord(scope),
      chunks: [...chunks, ...repetitions.map((repetition) => repetition.chunk)].map((chunk) =>
        this.extractionTask(chunk, owner),
      ),
    });
    report.tasks.planned += planned.taskIds.length;
    report.tasks.created += planned.created;

    // A repetition's task is answered here, offline, whatever the runner: it is never sent anywhere.
    const statements = new Map(
      repetitions.map((repetition) => [extractionTaskId(repetition.chunk.chunkRef), repetition.statement]),
    );
    let open = planned.open.filter((id) => !statements.has(id));
    const gate = isExternal(runner) ? await this.authorise(runner, open.slice(0, limit), approval, report) : null;
    if (gate) {
      if (report.pendingPlan) {
        report.tasks.pending += open.length;
        await this.writer.call('memoryFinishRun', {
          runId,
          state: 'failed',
          summary: { awaiting: 'authorisation', manifestDigest: report.pendingPlan.manifest.manifestDigest },
        });
        progress({ phase: 'done', done: 1, total: 1, runId });
        return;
      }
      open = open.filter((id) => gate.has(id));
    }
    // After the gate: a run that waits for an approval (or is over budget) changes nothing yet.
    await this.answerRepetitions(
      planned.open.filter((id) => statements.has(id)),
      statements,
      report,
    );
    let budgetStop = false;
    let worked = 0;
    const total = Math.min(limit, planned.taskIds.length);
    if (!isExternal(runner)) open = await this.extractOffline(runner, open, limit, { runId, total }, report, progress);
    while (isExternal(runner) && open.length > 0 && worked < limit) {
      const { claim, waiting } = await this.writer.call('memoryClaimTask', {
        holder: this.holder,
        leaseMs: leaseFor(runner),
        taskIds: open,
      });
      open = open.filter((id) => !waiting.includes(id));
      report.tasks.waitingForRetry += waiting.length;
      if (!claim) break;
      open = open.filter((id) => id !== claim.taskId);
      worked += 1;
      const task = extractionTaskOf(claim.stored.task);
      const work = isExternal(runner)
        ? this.withContext(runner, { kind: 'extraction', task })
        : { kind: 'extraction' as const, task };
      // Progress before the runner answers too: a model's runner may take minutes over one task.
      progress({ phase: 'extract', done: worked - 1, total: Math.min(limit, planned.taskIds.length), runId });
      const output = await this.runOnce(runner, work, { runId, claim, gate });
      if (output.ok === 'unsent') {
        report.tasks.failed += 1;
        report.failures.push(`${claim.taskId}: ${output.reason}`);
        if (output.budget) {
          budgetStop = true;
          break;
        }
        continue;
      }
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

    for (let round = 0; round < ADJUDICATION_ROUNDS_MAX && !budgetStop; round++) {
      const { taskId, folded } = await this.writer.call('memoryPlanAdjudication', { owner, runId });
      report.candidates.skipped += folded;
      if (taskId === null) break;
      let adjudicationGate: Map<string, string> | null = null;
      if (isExternal(runner)) {
        // A digest that approved this run's extraction is spent: the adjudication, made from its
        // results, waits for its own approval (not "a digest that does not match").
        const given = gate && gate.size > 0 ? {} : approval;
        adjudicationGate = await this.authorise(runner, [taskId], given, report);
        if (report.pendingPlan || adjudicationGate.size === 0) break;
      }
      const { claim } = await this.writer.call('memoryClaimTask', {
        holder: this.holder,
        leaseMs: leaseFor(runner),
        taskIds: [taskId],
      });
      if (!claim) break; // held by a live claim elsewhere, or out of attempts: the next run goes on
      const output = await this.runOnce(runner, runnerTaskOf(claim.stored.task), {
        runId,
        claim,
        gate: adjudicationGate,
      });
      progress({ phase: 'adjudicate', done: round + 1, total: round + 1, runId });
      if (output.ok === 'unsent') {
        report.failures.push(`${taskId}: ${output.reason}`);
        break;
      }
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

  /** The repetition chunks of a scope's run whose task is not answered yet (repetition-pass.ts). */
  private repetitions(scope: Scope, chunks: readonly PlannedChunk[]): RepetitionChunk[] {
    const resolve = scopeResolver();
    const state = openMemoryStateReadOnly(storeFiles(dirname(this.core.name)).memoryState);
    try {
      // Done: its task was answered. A chunk planned but not answered (a run that waited for an
      // approval, or died holding the claim) is planned again, which finds its task open.
      return repetitionChunks(
        this.core,
        chunks,
        (cwd) => resolve(cwd).worktreeKey === scope.worktreeKey,
        (chunkRef) => state !== undefined && isTaskSubmitted(state.db, extractionTaskId(chunkRef)),
      );
    } finally {
      state?.db.close();
    }
  }

  /**
   * Claims the repetition tasks and submits the one draft of each, citing every occurrence
   * (repetition.ts): one commit to claim them and one to submit them.
   */
  private async answerRepetitions(
    taskIds: readonly string[],
    statements: ReadonlyMap<string, string>,
    report: ExtractReport,
  ): Promise<void> {
    for (let from = 0; from < taskIds.length; from += SUBMISSIONS_PER_BATCH_MAX) {
      const batch = taskIds.slice(from, from + SUBMISSIONS_PER_BATCH_MAX);
      // A task held by a live claim elsewhere is not claimed: that holder answers it.
      const { claims } = await this.writer.call('memoryClaimTasks', {
        holder: this.holder,
        leaseMs: TASK_LEASE_MS,
        taskIds: batch,
        max: batch.length,
      });
      if (claims.length === 0) continue;
      const outcomes = await this.writer.call('memorySubmitExtractions', {
        submissions: claims.map((claim) => ({
          taskId: claim.taskId,
          claimToken: claim.claimToken,
          output: JSON.stringify(
            repetitionDraftBatch(extractionTaskOf(claim.stored.task), statements.get(claim.taskId)!),
          ),
        })),
      });
      outcomes.forEach((outcome, index) => {
        if (outcome.outcome === 'accepted') {
          report.repetition ??= { tasks: 0, candidates: 0 };
          report.repetition.tasks += 1;
          report.repetition.candidates += outcome.candidateIds.length;
          report.candidates.quarantined += outcome.quarantined;
        } else {
          report.failures.push(`${claims[index]!.taskId}: ${outcome.reason}`);
        }
      });
    }
  }

  /**
   * The extraction tasks of an offline runner, which answers in milliseconds: claimed together,
   * answered one by one, submitted together — two commits for a run's tasks instead of two for
   * each, every submission decided as alone. Returns the tasks left open.
   */
  private async extractOffline(
    runner: Runner,
    open: string[],
    limit: number,
    run: { runId: string; total: number },
    report: ExtractReport,
    progress: Progress,
  ): Promise<string[]> {
    let worked = 0;
    while (open.length > 0 && worked < limit) {
      const { claims, waiting } = await this.writer.call('memoryClaimTasks', {
        holder: this.holder,
        leaseMs: leaseFor(runner),
        taskIds: open,
        max: limit - worked,
      });
      const taken = new Set(claims.map((claim) => claim.taskId));
      open = open.filter((id) => !waiting.includes(id) && !taken.has(id));
      report.tasks.waitingForRetry += waiting.length;
      if (claims.length === 0) break;
      progress({ phase: 'extract', done: worked, total: run.total, runId: run.runId });
      const submissions: Array<{ taskId: string; claimToken: string; output: string }> = [];
      for (const claim of claims) {
        const task = extractionTaskOf(claim.stored.task);
        const output = await this.runOnce(
          runner,
          { kind: 'extraction', task },
          { runId: run.runId, claim, gate: null },
        );
        if (output.ok === true) {
          submissions.push({ taskId: claim.taskId, claimToken: claim.claimToken, output: output.text });
          continue;
        }
        if (output.ok === false)
          await this.writer.call('memoryAbandonTask', {
            taskId: claim.taskId,
            claimToken: claim.claimToken,
            reason: output.reason,
          });
        report.tasks.failed += 1;
        report.failures.push(`${claim.taskId}: ${output.reason}`);
      }
      const outcomes = submissions.length > 0 ? await this.writer.call('memorySubmitExtractions', { submissions }) : [];
      outcomes.forEach((outcome, index) => {
        if (outcome.outcome === 'accepted') {
          report.tasks.submitted += 1;
          report.candidates.created += outcome.candidateIds.length;
          report.candidates.quarantined += outcome.quarantined;
        } else {
          report.tasks.failed += 1;
          report.failures.push(`${submissions[index]!.taskId}: ${outcome.reason}`);
        }
      });
      worked += claims.length;
      progress({ phase: 'extract', done: worked, total: run.total, runId: run.runId });
    }
    return open;
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
      task,
      // Plain copies: the writer command's schema takes records, which an interface is not to the compiler.
      pointers: chunk.catalogue.map((pointer) => ({ ...pointer })),
    };
  }

  /**
   * An external runner is used only after it passed the deny-all probe for its current profile,
   * client version and probe version (cached); `force` probes again. A failure is refused with the
   * item that failed, before any of the user's bytes are sent.
   */
  async conformance(
    runner: ExternalRunner,
    force: boolean,
  ): Promise<{ runner: string; passed: true; cached: boolean; probeVersion: string }> {
    const fingerprint = runner.conformanceKey();
    const probeVersion = PROBE_VERSION;
    if (!force) {
      const cached = await this.writer.call('memoryConformance', {
        runnerProfile: runner.name,
        fingerprint,
        probeVersion,
      });
      if (cached.passedAtMs !== null) return { runner: runner.name, passed: true, cached: true, probeVersion };
    }
    const verdict = await runner.probe();
    await this.writer.call('memoryRecordConformance', {
      runnerProfile: runner.name,
      fingerprint,
      probeVersion,
      passed: verdict.passed,
    });
    if (!verdict.passed) {
      // "runner": it did not run or answer (could not start, timed out, exited non-zero): there is
      // nothing it did to restrict; the profile must be made to run first.
      const fix =
        verdict.failed!.item === 'runner'
          ? "make the profile's argv in runners.json run and answer (for codex or claude, its binary)"
          : 'restrict the profile in runners.json';
      throw new CmError(
        'runner_unavailable',
        `The ${runner.name} runner failed its conformance probe (${verdict.probeVersion}) at "${verdict.failed!.item}": ${verdict.failed!.detail}. Nothing of yours was sent; ${fix}, then run common-memory memory reverify-runner --runner ${runner.name}.`,
      );
    }
    return { runner: runner.name, passed: true, cached: false, probeVersion };
  }

  /** `memory reverify-runner`: the probe again, whatever the cache says. */
  reverify(name: string) {
    const runner = this.runnerOf(name);
    if (!isExternal(runner)) throw offlineNeedsNoProbe(runner.name);
    return this.conformance(runner, true);
  }

  /**
   * The authorisation gate of an external runner: the plans of these tasks (their stored bytes),
   * checked against the profile's budgets, then against the approval given. Returns the plan
   * digests by task id when approved (every decision logged); otherwise sets report.pendingPlan.
   * Consolidation's tasks go through this same gate (consolidation-runner.ts).
   */
  async authorise(
    runner: ExternalRunner,
    taskIds: string[],
    approval: Approval,
    report: Pick<ExtractReport, 'failures' | 'pendingPlan'> & { tasks: { submitted: number } },
  ): Promise<Map<string, string>> {
    const plans: RunnerExecutionPlan[] = [];
    for (const taskId of taskIds) {
      const stored = await this.writer.call('memoryReadTask', { taskId });
      if (!stored) continue;
      // Secrets are replaced before the bytes are built: the plan's digest covers the bytes without them.
      const screened = screenRunnerTask(this.withContext(runner, runnerTaskOf(stored.task)));
      plans.push(executionPlan(runner, screened.work, runner.input(screened.work), screened));
    }
    const manifest = authorizationManifest(plans);
    const gate = new Map<string, string>();
    if (plans.length === 0) return gate;
    const { budget, name } = runner.profile;
    const overBudget = (message: string) => {
      if (!report.tasks.submitted) throw new CmError('limit_exceeded', message);
      // Later in a run that already sent work: that work stays applied; this task waits for the next run.
      report.failures.push(`runner-budget: ${message}`);
      return gate;
    };
    if (this.runBytesSent + manifest.totalBytes > budget.runBytes)
      return overBudget(
        `The ${name} runner would send ${this.runBytesSent + manifest.totalBytes} bytes in this run, over its run budget of ${budget.runBytes}; nothing was sent. Use a smaller --limit, or raise budget.runBytes of "${name}" in runners.json.`,
      );
    const spend = await this.writer.call('memoryRunnerSpend', { runnerProfile: name });
    if (spend.bytes + manifest.totalBytes > budget.dayBytes)
      return overBudget(
        `The ${name} runner has sent ${spend.bytes} bytes today (UTC ${spend.day}); this run's ${manifest.totalBytes} more would pass its day budget of ${budget.dayBytes}; nothing was sent. Wait for the next UTC day, or raise budget.dayBytes of "${name}" in runners.json.`,
      );
    const decided = approvedPlans(plans, manifest, approval);
    const log = (plan: RunnerExecutionPlan, decision: 'approved' | 'refused', reason: string | null) => ({
      planDigest: plan.planDigest,
      taskId: plan.taskId,
      runnerInputDigest: plan.runnerInputDigest,
      inputCoverageDigest: plan.inputCoverageDigest,
      provider: plan.provider,
      model: plan.model,
      endpoint: plan.endpoint,
      bytes: plan.bytesToSend,
      via: decided.via ?? (approval.approveManifest !== undefined ? ('manifest' as const) : ('digest' as const)),
      manifestDigest: manifest.manifestDigest,
      runnerProfile: name,
      decision,
      reason,
    });
    if (decided.approved.length === 0) {
      if (decided.mismatch !== null)
        await this.writer.call('memoryRecordAuthorization', {
          decisions: plans.map((plan) =>
            log(plan, 'refused', `the digest given (${decided.mismatch}) is not this plan's`),
          ),
        });
      const single = plans.length === 1;
      report.pendingPlan = {
        runner: name,
        reason: decided.mismatch === null ? 'authorisation-needed' : 'digest-mismatch',
        given: decided.mismatch,
        manifest,
        plans,
        approveWith: single
          ? `--approve-plan ${plans[0]!.planDigest}`
          : `--approve-manifest ${manifest.manifestDigest}`,
      };
      return gate;
    }
    await this.writer.call('memoryRecordAuthorization', {
      decisions: decided.approved.map((plan) => log(plan, 'approved', null)),
    });
    for (const plan of decided.approved) gate.set(plan.taskId, plan.planDigest);
    return gate;
  }

  /**
   * Context disclosure, its own permission: with the profile's `conversationContext`, an extraction
   * task also carries up to CONTEXT_TURNS_MAX earlier turns of its session — of the same scope, and
   * already processed (their chunk drafted or extracted) — nearest first to keep; without it, only
   * the chunk's own turns. Context is optional: the farthest turn is dropped first while the chunk
   * and its context pass CHUNK_MAX_BYTES, so a chunk at the limit (a turn isolated whole) gets none.
   */
  private withContext(runner: ExternalRunner, work: RunnerTask): RunnerTask {
    if (work.kind !== 'extraction' || !runner.profile.conversationContext) return work;
    const { task } = work;
    const state = openMemoryStateReadOnly(storeFiles(dirname(this.core.name)).memoryState);
    if (!state) return work;
    let processed: string[];
    try {
      processed = processedTurnRanges(state.db, task.session.sessionKey, task.binding.owner.worktreeKey);
    } finally {
      state.db.close();
    }
    const done = (ordinal: number) =>
      processed.some((range) => {
        const [start, end] = range.split('-').map(Number) as [number, number];
        return ordinal >= start && ordinal <= end;
      });
    const resolve = scopeResolver();
    const earlier = selectTurns(
      this.core,
      { sinceMs: 0, untilMs: Date.parse(task.session.timeWindow.end) + 1, sessionKeys: [task.session.sessionKey] },
      (cwd) => resolve(cwd).worktreeKey === task.binding.owner.worktreeKey,
    )
      .filter((turn) => turn.client === task.session.client && turn.ordinal < task.chunk.turnRange.start)
      .sort((a, b) => a.ordinal - b.ordinal)
      .slice(-CONTEXT_TURNS_MAX)
      .filter((turn) => done(turn.ordinal));
    const context: ContextTurn[] = earlier.map((turn) => {
      const text = contextText(turn);
      return { turnKey: turn.turnKey, text, bytes: Buffer.byteLength(text, 'utf8') };
    });
    let size = Buffer.byteLength(task.chunk.transcript, 'utf8') + context.reduce((sum, turn) => sum + turn.bytes, 0);
    while (context.length > 0 && size > CHUNK_MAX_BYTES) size -= context.shift()!.bytes;
    return context.length > 0 ? { ...work, context } : work;
  }

  /**
   * One bounded runner call: a throw, a time-out or an oversized answer is a failed attempt with its
   * reason. An external runner sends only a task an approved plan covers, only the bytes that plan
   * declared, and only within the day's budget; otherwise nothing is sent and the task goes back
   * to pending with no attempt counted (`unsent`).
   */
  async runOnce(
    runner: Runner,
    work: RunnerTask,
    context: { runId: string; claim: { taskId: string; claimToken: string }; gate: Map<string, string> | null },
  ): Promise<
    { ok: true; text: string } | { ok: false; reason: string } | { ok: 'unsent'; reason: string; budget: boolean }
  > {
    let send = (options: RunOptions) => runner.run(work, options);
    if (isExternal(runner)) {
      const unsent = async (reason: string, budget: boolean) => {
        await this.writer.call('memoryReleaseUnsent', { ...context.claim, reason });
        return { ok: 'unsent' as const, reason, budget };
      };
      const planDigest = context.gate?.get(work.task.taskId);
      let screened: ScreenedRunnerTask;
      try {
        screened = screenRunnerTask(work);
      } catch (error) {
        return unsent(`runner-input-secret: ${(error as Error).message}`, false);
      }
      const input = runner.input(screened.work);
      const plan = executionPlan(runner, screened.work, input, screened);
      if (planDigest === undefined || plan.planDigest !== planDigest)
        return unsent(
          'runner-plan-changed: its bytes are not those of the approved plan; nothing was sent (run memory extract again to see the new plan)',
          false,
        );
      const recorded = await this.writer.call('memoryRecordSend', {
        taskId: work.task.taskId,
        planDigest,
        runnerProfile: runner.profile.name,
        runId: context.runId,
        bytes: input.length,
        dayBudgetBytes: runner.profile.budget.dayBytes,
      });
      if (!recorded.recorded)
        return unsent(
          `runner-budget: the ${runner.profile.name} runner's day budget of ${runner.profile.budget.dayBytes} bytes would be passed; nothing was sent`,
          true,
        );
      this.runBytesSent += input.length;
      send = (options) => runner.send(input, screened.work, options);
    }
    const timeoutMs = isExternal(runner) ? RUNNER_TIMEOUT_MAX_MS : RUNNER_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const signal = this.stop ? AbortSignal.any([controller.signal, this.stop]) : controller.signal;
    try {
      const text = await Promise.race([
        send({ signal, maxOutputBytes: RUNNER_OUTPUT_MAX_BYTES }),
        new Promise<never>((_resolve, reject) =>
          signal.addEventListener('abort', () =>
            reject(new Error(this.stop?.aborted ? 'stopped with its command' : `no answer within ${timeoutMs} ms`)),
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

/** A claim outlives the runner's own time-out, so that only a dead holder loses it. */
export const leaseFor = (runner: Runner) =>
  isExternal(runner) ? Math.max(TASK_LEASE_MS, runner.profile.timeoutMs + 60_000) : TASK_LEASE_MS;

/** A stored task as the runner receives it: its format says its kind. */
function runnerTaskOf(task: StoredTask['task']): RunnerTask {
  const format: string = task.format;
  if (format === CONSOLIDATION_FORMATS.task)
    return { kind: 'consolidation', task: task as unknown as ConsolidationTask };
  return task.format === FORMATS.adjudicationTask ? { kind: 'adjudication', task } : { kind: 'extraction', task };
}

/** A task claimed among extraction tasks: an adjudication task there is a planning bug, said so. */
function extractionTaskOf(task: StoredTask['task']): ExtractionTask {
  if (task.format !== FORMATS.extractionTask)
    throw new CmError('internal', `Task ${task.taskId} was claimed as an extraction task but is ${task.format}.`);
  return task;
}

export const holderName = (label: string) => `${label}:${randomBytes(6).toString('hex')}`;
