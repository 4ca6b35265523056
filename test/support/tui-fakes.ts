// A fake Application for in-process screen tests (no host, no store) and the host status it gives.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentView } from '../../source/api/agents.js';
import type { ImportReport } from '../../source/api/capture.js';
import type { MemoryStatus } from '../../source/api/memory-runs.js';
import type { Application } from '../../source/api/application.js';
import type { HostStatus } from '../../source/api/history.js';
import type { MemoryReview, MemoryReviewCandidate } from '../../source/api/memory-views.js';
import type { ServiceStatus } from '../../source/service/service-manager.js';

/** Answers the methods given; any other call waits for ever (the screen shows "…"), as a slow host would. */
// biome-ignore lint/suspicious/noExplicitAny: each fake method takes its own request type
export function fakeApp(methods: Record<string, (...args: any[]) => Promise<unknown>>): Application {
  return new Proxy({} as Application, {
    get: (_target, property) =>
      typeof property === 'string' ? (methods[property] ?? (() => new Promise(() => {}))) : undefined,
  });
}

/** A data home and client config dirs that are never created: the screens only read them. */
export function absentDirs(name: string) {
  const home = join(tmpdir(), `${name}-never-created`);
  return { home, dirs: { codexDir: join(home, 'codex'), claudeDir: join(home, 'claude'), piDir: join(home, 'pi') } };
}

export function hostStatus(changes: Partial<HostStatus> = {}): HostStatus {
  return {
    storeId: 'store-0001',
    hostId: 'host-0001',
    pid: 4242,
    startedAt: '2026-12-02T10:00:00.000Z',
    mode: 'host',
    heads: { journal: 12, timeline: 7 },
    ledger: { state: 'ready', entries: 0, roots: 0, activeRoots: 0, reason: null, lastError: null },
    waiting: { events: 0, turns: 0 },
    lastEventAt: { codex: null, claude: null },
    ...changes,
  };
}

/** The background service as the Dashboard's probe answers: not installed, unless `changes` say otherwise. */
export function serviceStatus(changes: Partial<ServiceStatus> = {}): ServiceStatus {
  return {
    kind: 'systemd',
    name: 'common-memory-host',
    path: '/home/someone/.config/systemd/user/common-memory-host.service',
    logPath: '/home/someone/.common-memory/service.log',
    file: 'absent',
    installed: false,
    enabled: false,
    running: false,
    state: 'not installed',
    problem: null,
    ...changes,
  };
}

/** `memory status` of a store where nothing was extracted yet, with these runners (runners.json's profiles). */
export function memoryStatusWith(runners: MemoryStatus['runners']): MemoryStatus {
  return {
    state: 'ready',
    reason: null,
    chunks: { pending: 0, drafted: 0, extracted: 0, stale: 0 },
    tasks: { pending: 0, claimed: 0, submitted: 0, stale: 0, waitingForRetry: 0 },
    candidates: { draft: 0, quarantined: 0, promoted: 0, discarded: 0, superseded: 0, awaitingAdjudication: 0 },
    runners,
    runnersProblem: null,
    spend: { day: '2026-12-02', bytesSent: 0, byProfile: [] },
    lastRun: null,
    activeRun: null,
    autoExtract: true,
    promotions: { generated: 0, approved: 0, applying: 0, applied: 0, voided: 0 },
    anchors: { state: 'unverified', reason: null, staleEntries: { project: 0, user: 0 }, verifiedAt: null },
  };
}

/** A draft candidate from extraction in the project scope, as the Review queue lists one; `changes` override. */
export function reviewCandidate(changes: Partial<MemoryReviewCandidate> = {}): MemoryReviewCandidate {
  return {
    candidateId: 'cand-00000001',
    status: 'draft',
    adjudication: 'done',
    decision: null,
    content: 'Always use named exports in TypeScript modules.',
    title: null,
    type: 'work_method',
    priority: 1,
    confidence: 'medium',
    statements: [],
    findings: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    origin: { kind: 'extraction' },
    scope: 'project',
    repositoryKey: 'repo-key',
    repository: 'repo',
    ...changes,
  };
}

/** The Review queue as the host answers it: `candidates` in all scopes of a project caller, one page. */
export function reviewQueue(candidates: MemoryReviewCandidate[] = []): MemoryReview {
  return {
    scope: 'all',
    callerScope: 'project',
    repositoryKey: 'repo-key',
    candidates,
    total: candidates.length,
    nextAfter: null,
    patches: [],
  };
}

/** Candidate `n` of a numbered queue: `cand-0000000n`, "Candidate number n.". */
export const numberedCandidate = (n: number): MemoryReviewCandidate =>
  reviewCandidate({ candidateId: `cand-${String(n).padStart(8, '0')}`, content: `Candidate number ${n}.` });

/** A fake Application whose Review queue the test changes between reads (`queue.rows`, newest first); reads counted. */
export function changingQueue(rows: MemoryReviewCandidate[]) {
  const queue = { rows, reads: 0 };
  const app = fakeApp({
    status: async () => hostStatus(),
    memoryReview: async () => {
      queue.reads += 1;
      return reviewQueue(queue.rows);
    },
  });
  return { app, queue };
}

/** Agent `n` of a numbered list: `agent-n`, named `agentn`, never started. */
export const numberedAgent = (n: number): AgentView => ({
  agentId: `agent-${n}`,
  name: `agent${n}`,
  model: null,
  generation: null,
  activeOperationId: null,
  createdAt: '2026-12-02T10:00:00.000Z',
});

/** The report of an import from Claude Code of 3 files (5 turns) that drafted candidates; `changes` override. */
export function importReport(changes: Partial<ImportReport> = {}): ImportReport {
  return {
    client: 'claude',
    root: '/home/user/.claude',
    dryRun: false,
    files: 3,
    sessions: 3,
    turns: 5,
    skipped: 0,
    quarantined: 0,
    bytes: 4096,
    turnsAlreadyStored: 0,
    alreadyImported: 0,
    capturedLive: 0,
    openTurns: 0,
    firstAt: '2026-11-30T20:56:56.000Z',
    lastAt: '2026-11-30T20:58:31.000Z',
    repositories: [],
    notes: [],
    extraction: {
      state: 'done',
      runs: 1,
      turns: 5,
      candidates: { created: 1, updated: 0, merged: 0, quarantined: 2 },
      tasksLeft: 0,
      tasksFailed: 0,
      error: null,
    },
    ...changes,
  };
}

/** Memory status with three runners (builtin, ext: an external one, local), nothing run yet. */
export const memoryStatus: MemoryStatus = memoryStatusWith([
  { name: 'builtin', offline: true },
  {
    name: 'ext',
    offline: false,
    provider: 'example-provider',
    model: 'example-model',
    endpoint: 'https://api.example.com/v1',
    budget: { runBytes: 1000, dayBytes: 5000 },
    sentToday: 0,
  },
  { name: 'local', offline: true },
]);
