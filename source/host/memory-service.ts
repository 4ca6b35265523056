// The memory pipeline behind the application API: extraction runs in the runners thread (started
// with a real host, which also extracts newly sealed turns by itself unless the setting turns it
// off; on first use when a CLI command holds the lease); scans, prepare and promote in the memory
// files thread (the same: at start in a host, on first use otherwise); confirm, discard and approve
// are writer commands; reads over read-only connections. Opening memory finishes the promotions a
// crash interrupted.
import { existsSync } from 'node:fs';
import { CmError } from '../errors.js';
import { AUTO_EXTRACT_ENV } from '../limits.js';
import { memoryPatchAt, memoryRecallAt, memoryReviewAt, storedExtractRunAt } from '../pipeline/memory-access.js';
import { memoryStatusAt } from '../pipeline/memory-status.js';
import {
  followFiles,
  memoryGetAt,
  memorySearchAt,
  memoryStaleAt,
  watchedPathsOf,
} from '../pipeline/approved-access.js';
import { gitDirectoryOf, MEMORY_WATCH_DEBOUNCE_MS, MEMORY_WATCH_MAX_ROOTS, MemoryRootWatcher } from './memory-watch.js';
import { readPlanAt } from '../pipeline/promotion.js';
import { candidateOwnerOf, unfinishedPlanIds } from '../store/memory/promotion-store.js';
import { bindingRecord, publicScope, resolveScope } from '../effects/repository.js';
import { withMemoryState } from '../store/memory/state-database.js';
import { MemoryFilesClient } from '../workers/memory-files-client.js';
import { holderName } from '../pipeline/extraction-pipeline.js';
import { storeFiles } from '../home.js';
import type { FlushExtraction } from '../api/capture.js';
import { ExtractRuns } from './extract-runs.js';
import { FollowedProbes } from './followed-probes.js';
import type {
  MemoryApproveRequest,
  MemoryConfirmRequest,
  MemoryConsolidateRequest,
  MemoryDiscardRequest,
  MemoryExtractRequest,
  MemoryPrepareRequest,
  MemoryRetireRequest,
  MemoryPromoteRequest,
  MemoryProposeRequest,
  MemoryRecallRequest,
  MemoryReviewRequest,
  MemoryRoutes,
  MemorySearchRequest,
} from '../api/memory.js';
import type { MethodsOf } from '../api/route.js';
import type { MemoryConsolidateResult, MemoryPromoteResult } from '../api/memory-views.js';
import type {
  MemoryExtractReport,
  MemoryExtractRun,
  MemoryStatus,
  MemoryReverifyResult,
  MemoryReverifyRun,
} from '../api/memory-runs.js';
import { RunnersClient } from '../workers/runners-client.js';
import { refuseUnknownRunner } from '../effects/runner-profiles.js';
import { collectUsage, memorySuggestionsAt } from '../pipeline/usage-access.js';
import type { MemorySuggestionsRequest } from '../api/memory-usage.js';
import type { WriterClient } from '../workers/writer-client.js';
import { withStepAfterVoid } from '../memory/plan-voided.js';

/** A host folds given snapshots and agents' reads into the counts at most this often when asked for status. */
const USAGE_COLLECT_EVERY_MS = 5_000;

/** Whether a host extracts newly sealed turns by itself: on, unless COMMON_MEMORY_AUTO_EXTRACT is "off" or "0". */
export function autoExtractEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[AUTO_EXTRACT_ENV]?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}

/** The runs of one automatic pass in a few counts: what flush says it did. */
export function flushExtraction(
  state: FlushExtraction['state'],
  reports: readonly MemoryExtractReport[],
  error: string | null,
): FlushExtraction {
  const last = reports.at(-1);
  const sum = (pick: (report: MemoryExtractReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
  return {
    state,
    runs: sum((r) => r.runIds.length),
    // Passes over the same window read the same turns: each window's turns count once.
    turns: [...new Map(reports.map((r) => [`${r.window.since}/${r.window.until}`, r.turns])).values()].reduce(
      (total, turns) => total + turns,
      0,
    ),
    candidates: {
      created: sum((r) => r.candidates.created + (r.repetition?.candidates ?? 0)),
      updated: sum((r) => r.candidates.updated),
      merged: sum((r) => r.candidates.merged),
      quarantined: sum((r) => r.candidates.quarantined),
    },
    tasksLeft: last ? last.tasks.pending + last.tasks.waitingForRetry : 0,
    tasksFailed: sum((r) => r.tasks.failed),
    error,
  };
}

/** Every method of the memory area (the compiler asks for each one the area declares). */
export class MemoryService implements MethodsOf<MemoryRoutes> {
  private runners: Promise<RunnersClient> | undefined;
  /** The runners thread once started: whose progress a followed run shows. */
  private runnersStarted: RunnersClient | undefined;
  /** Extraction runs clients follow (memory extract through a host). */
  private readonly followed = new ExtractRuns(
    () => this.runnersStarted?.active ?? null,
    (runId) => storedExtractRunAt(storeFiles(this.home).memoryState, runId),
  );

  private constructor(
    private readonly home: string,
    private readonly writer: WriterClient,
    private readonly hostId: string,
    private readonly auto: boolean,
    /** A real host (its memory files work on a thread of its own), or a command working alone. */
    private readonly serve: boolean,
  ) {}

  /** `serve`: a real host, whose runners start now (and extract by themselves when enabled). */
  static async start(home: string, writer: WriterClient, hostId: string, serve: boolean): Promise<MemoryService> {
    const service = new MemoryService(home, writer, hostId, serve && autoExtractEnabled(), serve);
    if (serve) {
      // A real host follows the memory files as they change (memory-watch.ts), and verifies the
      // entries' anchors again when they or the worktree's git state change.
      service.watcher = new MemoryRootWatcher((cwd) => {
        followFiles(storeFiles(home).memoryState, cwd);
        return service.verifyQuietly(cwd);
      });
      service.treeWatcher = new MemoryRootWatcher(
        (cwd) => service.verifyQuietly(cwd),
        MEMORY_WATCH_DEBOUNCE_MS,
        MEMORY_WATCH_MAX_ROOTS,
        false,
      );
      service.watchRoots(process.cwd());
      // Started, not awaited: the host is ready (and the TUI shows its data) while the runners
      // thread loads. A first use waits for it; a damaged memory-state must not stop the host,
      // so a failed start is forgotten and the runners report it on first use instead.
      const starting = service.startRunners();
      service.runners = starting;
      starting.catch(() => {
        if (service.runners === starting) service.runners = undefined;
      });
      // Interrupted promotions finish, then memory files edited while no host ran are picked up; a
      // failure shows in `memory status` (unfinished plans) or the next sync (coverage), never stops the host.
      service.startSync = service
        .resume()
        .then(() => service.memorySync({ cwd: process.cwd() }))
        .then(() => service.collectQuietly())
        .catch(() => undefined);
    } else if (service.unfinishedPromotions() > 0) {
      // A command holding the lease is an open too: a plan a crash left applying is finished first.
      const finished = await service.resume().catch(() => []);
      for (const result of finished) service.finishedAtOpen.set(result.planId, result);
    }
    return service;
  }

  /**
   * The plans this command's own open finished (a crash had left them applying), by id: `memory
   * promote` of one of them is the run that wrote its files, not a promote of a plan already applied.
   */
  private readonly finishedAtOpen = new Map<string, MemoryPromoteResult>();

  private filesClient: MemoryFilesClient | undefined;
  private watcher: MemoryRootWatcher | undefined;
  /** The git directories of the worktrees served: a commit, checkout or pull verifies their entries again. */
  private treeWatcher: MemoryRootWatcher | undefined;

  /** Watches the memory roots a session at `cwd` reads, and its worktree's git directory (a real host only). */
  private watchRoots(cwd: string): void {
    if (!this.watcher) return;
    const { roots, worktree } = watchedPathsOf(this.home, cwd);
    this.watcher.watch(roots.map((path) => ({ path, cwd })));
    const gitDir = worktree ? gitDirectoryOf(worktree) : null;
    if (gitDir) this.treeWatcher?.watch([{ path: gitDir, cwd }]);
  }

  /** The host's own verification after a change it saw: its failure is the next run's to report. */
  private async verifyQuietly(cwd: string): Promise<unknown> {
    try {
      await this.writer.call('memoryOpen', {});
      const verified = await this.track(this.files().verify(cwd));
      await this.collectQuietly();
      return verified;
    } catch {
      return undefined;
    }
  }

  /** The memory roots this host watches now. */
  watchedRoots(): string[] {
    return this.watcher?.watched() ?? [];
  }

  private files(): MemoryFilesClient {
    // A serving host's on a thread of its own; a command working alone's on its own thread.
    this.filesClient ??= (this.serve ? MemoryFilesClient.start : MemoryFilesClient.startHere)(
      this.home,
      storeFiles(this.home).memoryState,
      this.writer,
    );
    return this.filesClient;
  }

  /** Plans left applying (0 when memory-state cannot be read: its commands say why). */
  private unfinishedPromotions(): number {
    try {
      return withMemoryState(storeFiles(this.home).memoryState, () => [], unfinishedPlanIds).length;
    } catch {
      return 0;
    }
  }

  /** Work of the files thread still running: awaited before the thread and the writer go away. */
  private readonly inFlight = new Set<Promise<unknown>>();

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.then(
      () => this.inFlight.delete(work),
      () => this.inFlight.delete(work),
    );
    return work;
  }

  private async resume() {
    await this.writer.call('memoryOpen', {});
    return this.track(this.files().resume());
  }

  private startRunners(): Promise<RunnersClient> {
    const core = storeFiles(this.home).core;
    const holder = holderName(`host-${this.hostId}`);
    // A serving host's on a thread of its own; a command working alone's on its own thread.
    return (
      this.serve
        ? RunnersClient.start(core, this.writer, this.auto, holder)
        : RunnersClient.startHere(core, this.writer, holder)
    ).then((client) => (this.runnersStarted = client));
  }

  /** The sync a real host runs at start; awaited before the writer goes away. */
  private startSync: Promise<unknown> | undefined;

  async close(): Promise<void> {
    this.watcher?.close();
    this.treeWatcher?.close();
    await this.startSync;
    await Promise.allSettled([...this.inFlight]);
    await this.filesClient?.close();
    this.filesClient = undefined;
    const runners = this.runners;
    this.runners = undefined;
    this.runnersStarted = undefined;
    if (runners) await (await runners.catch(() => undefined))?.close();
  }

  /** The runners thread, started on first use (a failed start is retried at the next). */
  private async runnersThread(): Promise<RunnersClient> {
    this.runners ??= this.startRunners();
    return this.runners.catch((error: unknown) => {
      this.runners = undefined;
      throw error;
    });
  }

  async memoryExtract(request: MemoryExtractRequest): Promise<MemoryExtractReport> {
    return (await this.runnersThread()).extract(request);
  }

  /** Starts an extraction run a client follows by its id (memoryExtractRun); answers at once. */
  async memoryExtractStart(request: MemoryExtractRequest): Promise<MemoryExtractRun> {
    // What the run would refuse at once (its runner, options, window) is refused before a run id is given out for it.
    const runners = await this.runnersThread();
    await runners.check(request);
    return this.followed.start(request, (withId) => runners.extract(withId));
  }

  async memoryExtractRun(request: { runId: string }): Promise<MemoryExtractRun> {
    return this.followed.view(request.runId);
  }

  /**
   * Flush's extraction: the builtin runner's automatic pass over every turn sealed by `sealedByMs`,
   * whether or not a host runs (off when the setting turns automatic extraction off).
   */
  async extractSealed(sealedByMs: number): Promise<FlushExtraction> {
    if (!autoExtractEnabled()) return flushExtraction('off', [], null);
    try {
      return flushExtraction('done', await (await this.runnersThread()).autoExtract(sealedByMs), null);
    } catch (error) {
      return flushExtraction('failed', [], error instanceof Error ? error.message : String(error));
    }
  }

  async memoryReverifyRunner({ runner }: { runner: string }): Promise<MemoryReverifyResult> {
    return (await this.runnersThread()).reverify(runner);
  }

  /** Conformance probes clients follow (memory reverify-runner through a host). */
  private readonly probes = new FollowedProbes();

  /** Starts a probe a client follows by its id (memoryReverifyProbe); answers at once. */
  async memoryReverifyStart({ runner }: { runner: string }): Promise<MemoryReverifyRun> {
    const runners = await this.runnersThread();
    return this.probes.start(() => runners.reverify(runner));
  }

  async memoryReverifyProbe({ probeId }: { probeId: string }): Promise<MemoryReverifyRun> {
    return this.probes.view(probeId);
  }

  /** Gives a task that spent its attempt budget a fresh one. */
  memoryRetry({ taskId }: { taskId: string }) {
    return this.writer.call('memoryRetryTask', { taskId });
  }

  /**
   * Folds the snapshots given and the reads agents made since the last time into the usefulness
   * counts; a failure leaves the counts as they were (a read of them says so if they are unreadable).
   */
  private async collectQuietly(throttled = false): Promise<void> {
    // The Extraction view reads status every second: the counts need not follow that closely.
    const now = Date.now();
    if (throttled && now - this.collectedAtMs < USAGE_COLLECT_EVERY_MS) return;
    this.collectedAtMs = now;
    try {
      const files = storeFiles(this.home);
      // Nothing to count before memory-state exists; a read never creates it.
      if (!existsSync(files.memoryState)) return;
      await this.writer.call('memoryOpen', {});
      await collectUsage(this.writer, files.memoryState, files.ledger);
    } catch {
      // the counts stay the last collection's
    }
  }

  /** When the counts were last collected here (0: not yet). */
  private collectedAtMs = 0;

  async memorySuggestions(request: MemorySuggestionsRequest) {
    await this.collectQuietly();
    return memorySuggestionsAt(storeFiles(this.home).memoryState, request);
  }

  async memoryStatus(): Promise<MemoryStatus> {
    if (this.unfinishedPromotions() > 0) await this.resume().catch(() => undefined);
    await this.collectQuietly(true);
    const client = this.runners ? await this.runners.catch(() => undefined) : undefined;
    return memoryStatusAt(storeFiles(this.home).memoryState, this.auto, client?.active ?? null);
  }

  async memoryReview(request: MemoryReviewRequest) {
    return memoryReviewAt(storeFiles(this.home).memoryState, request);
  }

  async memoryRecall(request: MemoryRecallRequest) {
    return memoryRecallAt(storeFiles(this.home).memoryState, request.text, request.cwd, request.limit);
  }

  /** Scans the memory roots of `cwd` into the approved projection (the files thread reads, the writer stores). */
  async memorySync({ cwd }: { cwd: string }) {
    this.watchRoots(cwd);
    await this.writer.call('memoryOpen', {});
    return this.track(this.files().sync(cwd));
  }

  /** The caller's repository (or the user scope outside git): whose candidates it may act on. */
  private owner(cwd: string) {
    const { repositoryKey, worktreeKey } = publicScope(resolveScope(cwd));
    return { repositoryKey, worktreeKey };
  }

  /**
   * Whose candidate it is: its own scope, whichever directory the person works from (one inbox for
   * every repository); the caller's for an id memory-state does not hold (the writer says not found).
   */
  private candidateOwner(candidateId: string, cwd: string) {
    const own = withMemoryState(
      storeFiles(this.home).memoryState,
      () => undefined,
      (db) => candidateOwnerOf(db, candidateId),
    );
    return own ? { repositoryKey: own.repositoryKey, worktreeKey: own.worktreeKey } : this.owner(cwd);
  }

  memoryConfirm(request: MemoryConfirmRequest) {
    return this.writer.call('memoryConfirmStatement', {
      ...this.candidateOwner(request.candidateId, request.cwd),
      candidateId: request.candidateId,
      statementId: request.statementId,
    });
  }

  memoryPropose(request: MemoryProposeRequest) {
    const { cwd, ...proposal } = request;
    const scope = resolveScope(cwd);
    const { repositoryKey, worktreeKey } = publicScope(scope);
    return this.writer.call('memoryProposeCandidate', {
      repositoryKey,
      worktreeKey,
      binding: bindingRecord(scope),
      ...proposal,
    });
  }

  memoryDiscard(request: MemoryDiscardRequest) {
    return this.writer.call('memoryDiscardCandidate', {
      ...this.candidateOwner(request.candidateId, request.cwd),
      candidateId: request.candidateId,
    });
  }

  async memoryPrepare(request: MemoryPrepareRequest) {
    await this.writer.call('memoryOpen', {});
    return this.track(this.files().prepare(request));
  }

  async memoryRetire(request: MemoryRetireRequest) {
    await this.writer.call('memoryOpen', {});
    return this.track(this.files().retire(request));
  }

  /**
   * `memory consolidate`: in the memory files thread (it reads the root and runs the runner off the
   * main thread), the scope's projection brought up to date and its scenes read, then a
   * consolidation task claimed, run by the built-in runner and submitted with a compare-and-swap on
   * every entry it rests on. With `runner`, the task is made for that profile and run in the runners
   * thread through the same plan, approval and submission as extraction's external runners.
   */
  async memoryConsolidate(request: MemoryConsolidateRequest): Promise<MemoryConsolidateResult> {
    this.watchRoots(request.cwd);
    // A runner that is not a profile is refused before a task is made for it (and others made stale).
    refuseUnknownRunner(this.home, request.runner);
    await this.writer.call('memoryOpen', {});
    const made = await this.track(this.files().consolidate(request));
    // An external runner's task, planned there, is run by the runners thread (the authorised-bytes gate).
    const { runner, approvePlan, approveManifest } = request;
    if (runner === undefined || runner === 'builtin' || request.preview || made.outcome !== 'pending') return made;
    return (await this.runnersThread()).consolidate({ made, runner, approvePlan, approveManifest });
  }

  async memoryPatch(request: { taskId: string }) {
    return memoryPatchAt(storeFiles(this.home).memoryState, request.taskId);
  }

  async memoryPlan(request: { planId: string }) {
    return readPlanAt(storeFiles(this.home).memoryState, request.planId);
  }

  async memoryApprove(request: MemoryApproveRequest) {
    const { voided, view } = await this.writer.call('memoryApprovePlan', request);
    if (voided !== null)
      throw new CmError(
        'operation_conflict',
        `${withStepAfterVoid(`Plan ${view.planId} is voided and nothing was approved: ${voided}`, voided, '; ')}.`,
      );
    return view;
  }

  async memoryVoid(request: MemoryPromoteRequest) {
    const { already, view } = await this.writer.call('memoryWithdrawPlan', request);
    return { ...view, alreadyVoided: already };
  }

  async memoryPromote(request: MemoryPromoteRequest) {
    await this.writer.call('memoryOpen', {});
    const result = await this.track(this.files().promote(request.planId));
    const atOpen = this.finishedAtOpen.get(request.planId);
    this.finishedAtOpen.delete(request.planId);
    return result.alreadyApplied && atOpen ? atOpen : result;
  }

  /** Verifies the anchors of the approved entries of `cwd`'s worktree and stores the verdicts. */
  async memoryVerify({ cwd }: { cwd: string }) {
    this.watchRoots(cwd);
    await this.writer.call('memoryOpen', {});
    return this.track(this.files().verify(cwd));
  }

  async memoryStale({ cwd }: { cwd: string }) {
    return memoryStaleAt(storeFiles(this.home).memoryState, cwd);
  }

  async memorySearch(request: MemorySearchRequest) {
    this.watchRoots(request.cwd);
    return memorySearchAt(storeFiles(this.home).memoryState, request.cwd, request.query, request.limit);
  }

  async memoryGet(request: { entryId: string; cwd: string }) {
    this.watchRoots(request.cwd);
    return memoryGetAt(storeFiles(this.home).memoryState, request.cwd, request.entryId);
  }
}
