// Reads of memory-state for status, the review listing and recall: plain SQL over a read-only
// connection. Nothing here prints a secret: a candidate with findings is shown masked.
import { readAnchorSummary } from './verdict-read.js';
import { basename } from 'node:path';
import { USER_SCOPE } from '../../effects/repository.js';
import { utcDay } from '../../memory/window.js';
import type { MemoryCandidateOrigin, MemoryReview, MemoryReviewCandidate } from '../../api/memory-views.js';
import type { MemoryExtractReport, MemoryExtractRun, MemoryRunView, MemoryStatus } from '../../api/memory-runs.js';
import { type ReviewCursor, reviewCursorText } from '../../memory/review-cursor.js';
import { type Db, prepared } from '../database.js';
import type { Draft } from '../../memory/contracts.js';
import type { CandidateFinding } from './extraction-submit.js';
import { snapshotEntryFor } from '../../memory/candidate-entry.js';
import { revisedEntries, revisionPriority } from './candidate-support.js';
import { recall, type Owner } from './recall.js';
import { renderEntry } from '../../memory/snapshot.js';
import { TASK_ATTEMPTS_MAX } from '../../limits.js';
import { emptySummary, readReteachesOf, readUsageSummaryView, unavailableSummary } from './usage-reads.js';

const counts = <K extends string>(db: Db, sql: string, keys: readonly K[], ...params: unknown[]): Record<K, number> => {
  const out = Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
  for (const row of db.prepare(sql).all(...params) as Array<{ key: string; n: number }>)
    if (row.key in out) out[row.key as K] = row.n;
  return out;
};

export function emptyMemoryStatus(
  state: MemoryStatus['state'],
  reason: string | null,
  runners: MemoryStatus['runners'],
  autoExtract: boolean,
): MemoryStatus {
  return {
    state,
    reason,
    chunks: { pending: 0, drafted: 0, extracted: 0, stale: 0 },
    tasks: { pending: 0, claimed: 0, submitted: 0, stale: 0, waitingForRetry: 0 },
    candidates: { draft: 0, quarantined: 0, promoted: 0, discarded: 0, superseded: 0, awaitingAdjudication: 0 },
    runners,
    runnersProblem: null,
    spend: { day: utcDay(Date.now()), bytesSent: 0, byProfile: [] },
    lastRun: null,
    activeRun: null,
    autoExtract,
    promotions: { generated: 0, approved: 0, applying: 0, applied: 0, voided: 0 },
    anchors: { state: 'unverified', reason: null, staleEntries: { project: 0, user: 0 }, verifiedAt: null },
    usage: state === 'unavailable' ? unavailableSummary(reason ?? 'memory-state cannot be read') : emptySummary(),
    // Unreadable is not "none left out": absent, as from a host older than the field.
    ...(state === 'unavailable' ? {} : { leftOutFiles: [] }),
  };
}

function runView(row: {
  run_id: string;
  runner: string;
  request_json: string;
  state: MemoryRunView['state'];
  summary_json: string | null;
  started_at_ms: number;
  finished_at_ms: number | null;
}): MemoryRunView {
  return {
    runId: row.run_id,
    runner: row.runner,
    scope: (JSON.parse(row.request_json) as { scope?: 'project' | 'user' }).scope ?? 'user',
    state: row.state,
    startedAt: new Date(row.started_at_ms).toISOString(),
    finishedAt: row.finished_at_ms === null ? null : new Date(row.finished_at_ms).toISOString(),
    summary: row.summary_json === null ? null : (JSON.parse(row.summary_json) as MemoryRunView['summary']),
  };
}

/**
 * An extraction run as memory-state recorded it, for a follower the process that ran it cannot
 * answer (it stopped, or it is not this process): a run recorded running was stopped with it.
 */
export function readStoredExtractRun(db: Db, runId: string): MemoryExtractRun | undefined {
  const row = db.prepare('SELECT * FROM runs WHERE run_id = ?').get(runId) as Parameters<typeof runView>[0] | undefined;
  if (!row) return undefined;
  const run = runView(row);
  const summary = (run.summary ?? {}) as Partial<MemoryExtractReport> & { awaiting?: string };
  const base = {
    runId,
    progress: null,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    report: null,
    error: null,
  };
  if (run.state === 'done')
    return {
      ...base,
      state: 'done',
      report: { ...summary, runIds: [runId] } as MemoryExtractReport,
      stoppedBecause: null,
    };
  return {
    ...base,
    state: 'stopped',
    stoppedBecause:
      run.state === 'running'
        ? 'the process that ran it stopped before it ended; what it finished is kept — run memory extract again to go on'
        : summary.awaiting === 'authorisation'
          ? "it ended waiting for an approval of its runner's plan — run memory extract again to see the plan"
          : 'it ended without a report — memory status shows the last run',
  };
}

export function readMemoryStatus(db: Db, runners: MemoryStatus['runners'], autoExtract: boolean): MemoryStatus {
  return db.transaction((): MemoryStatus => {
    const status = emptyMemoryStatus('ready', null, runners, autoExtract);
    // A memory-state of an earlier version (not yet migrated by a writer) has sent nothing.
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'runner_sends'").get()) {
      const byProfile = sentByProfileOn(db, status.spend.day);
      status.spend = { ...status.spend, bytesSent: byProfile.reduce((sum, row) => sum + row.bytes, 0), byProfile };
    }
    status.chunks = counts(db, 'SELECT status AS key, count(*) AS n FROM chunks GROUP BY status', [
      'pending',
      'drafted',
      'extracted',
      'stale',
    ] as const);
    const tasks = counts(db, 'SELECT status AS key, count(*) AS n FROM tasks GROUP BY status', [
      'pending',
      'claimed',
      'submitted',
      'stale',
    ] as const);
    const waiting = db
      .prepare("SELECT count(*) FROM tasks WHERE status = 'pending' AND attempts >= ?")
      .pluck()
      .get(TASK_ATTEMPTS_MAX) as number;
    status.tasks = { ...tasks, waitingForRetry: waiting };
    const candidates = counts(db, 'SELECT status AS key, count(*) AS n FROM candidates GROUP BY status', [
      'draft',
      'quarantined',
      'promoted',
      'discarded',
      'superseded',
    ] as const);
    const awaiting = db
      .prepare("SELECT count(*) FROM candidates WHERE status = 'draft' AND adjudication = 'pending'")
      .pluck()
      .get() as number;
    status.candidates = { ...candidates, awaitingAdjudication: awaiting };
    const last = db.prepare('SELECT * FROM runs ORDER BY started_at_ms DESC, run_id DESC LIMIT 1').get() as
      | Parameters<typeof runView>[0]
      | undefined;
    status.lastRun = last ? runView(last) : null;
    status.promotions = counts(db, 'SELECT status AS key, count(*) AS n FROM promotion_journal GROUP BY status', [
      'generated',
      'approved',
      'applying',
      'applied',
      'voided',
    ] as const);
    status.anchors = readAnchorSummary(db);
    status.usage = readUsageSummaryView(db);
    status.leftOutFiles = readLeftOutFiles(db);
    return status;
  })();
}

type LeftOutFile = NonNullable<MemoryStatus['leftOutFiles']>[number];

/** What a person does about a file left out, by why it was. */
function leftOutFix(kind: string, scope: 'project' | 'user', path: string): string {
  const sync = scope === 'project' ? 'common-memory memory sync in that worktree' : 'common-memory memory sync';
  // The file as memory lint takes it: from the worktree's root, or under the data home (whose
  // path never leaves memory-state, as a worktree's does not).
  const file = scope === 'project' ? `.common-memory/memory/${path}` : `<data home>/memory/${path}`;
  switch (kind) {
    case 'blocked':
      return `take the secret or the instruction to the model out of the file (common-memory memory lint ${file} names it), or remove the file; then run ${sync}`;
    default:
      return `fix the file as the message says, then run ${sync}`;
  }
}

/**
 * The files each owner's last scan left out (kept with its stamps, so a blocked
 * file stays named until it is fixed), user scope first, then by repository and path.
 */
export function readLeftOutFiles(db: Db): LeftOutFile[] {
  if (!db.prepare("SELECT 1 FROM pragma_table_info('approved_projection') WHERE name = 'scan_json'").get()) return [];
  const rows = prepared(
    db,
    `SELECT p.scope, p.repository_key, b.root_realpath, json_extract(p.scan_json, '$.leftOut') AS problems
       FROM approved_projection p
       LEFT JOIN repository_bindings b USING (repository_key, worktree_key)
      WHERE p.scan_json IS NOT NULL AND json_valid(p.scan_json) AND json_extract(p.scan_json, '$.leftOut') IS NOT NULL
      ORDER BY p.scope = 'project', b.root_realpath, p.repository_key`,
  ).all() as Array<{
    scope: 'project' | 'user';
    repository_key: string;
    root_realpath: string | null;
    problems: string;
  }>;
  const out: LeftOutFile[] = [];
  for (const row of rows) {
    let problems: unknown;
    try {
      problems = JSON.parse(row.problems);
    } catch {
      continue;
    }
    if (!Array.isArray(problems)) continue;
    for (const problem of problems as Array<Record<string, unknown>>) {
      if (typeof problem?.path !== 'string' || typeof problem.message !== 'string') continue;
      const kind = typeof problem.kind === 'string' ? problem.kind : 'malformed';
      out.push({
        scope: row.scope,
        repositoryKey: row.repository_key,
        // The directory's name only: absolute paths never leave memory-state.
        repository: row.scope === 'user' || row.root_realpath === null ? null : basename(row.root_realpath),
        path: problem.path,
        kind,
        line: typeof problem.line === 'number' ? problem.line : null,
        rule:
          typeof problem.rule === 'string'
            ? problem.rule
            : kind === 'blocked'
              ? (/ block ([^\s(]+)/.exec(problem.message)?.[1] ?? null)
              : null,
        message: problem.message,
        fix: leftOutFix(kind, row.scope, problem.path),
        ...(typeof problem.entryId === 'string' ? { entryId: problem.entryId } : {}),
      });
    }
  }
  return out.sort(
    (a, b) =>
      Number(a.scope === 'project') - Number(b.scope === 'project') ||
      (a.repository ?? '').localeCompare(b.repository ?? '') ||
      a.path.localeCompare(b.path),
  );
}

/** A page of the review queue: the owner filter (null: every owner), at most `limit`, after the cursor. */
export interface ReviewPage {
  owner: Owner | null;
  limit: number;
  after: ReviewCursor | null;
}

/** Draft and quarantined candidates, newest first, with statements, evidence, masked findings and their scope. */
export function readMemoryReview(db: Db, page: ReviewPage): Pick<MemoryReview, 'candidates' | 'total' | 'nextAfter'> {
  return db.transaction((): Pick<MemoryReview, 'candidates' | 'total' | 'nextAfter'> => {
    const owner = page.owner;
    const ownerArgs = [owner?.repositoryKey ?? null, owner?.repositoryKey ?? null, owner?.worktreeKey ?? null];
    const where = `c.status IN ('draft', 'quarantined') AND (? IS NULL OR (c.repository_key = ? AND c.worktree_key = ?))`;
    const total = db
      .prepare(`SELECT count(*) FROM candidates c WHERE ${where}`)
      .pluck()
      .get(...ownerArgs) as number;
    const after = page.after;
    const rows = db
      .prepare(
        `SELECT c.candidate_id, c.status, c.adjudication, c.decision, c.payload_json, c.findings_json, c.created_at_ms,
                c.repository_key, b.root_realpath
         FROM candidates c LEFT JOIN repository_bindings b USING (repository_key, worktree_key)
         WHERE ${where} AND (? IS NULL OR c.created_at_ms < ? OR (c.created_at_ms = ? AND c.candidate_id > ?))
         ORDER BY c.created_at_ms DESC, c.candidate_id LIMIT ?`,
      )
      .all(
        ...ownerArgs,
        after?.createdAtMs ?? null,
        after?.createdAtMs ?? null,
        after?.createdAtMs ?? null,
        after?.candidateId ?? null,
        page.limit + 1,
      ) as Array<{
      candidate_id: string;
      status: 'draft' | 'quarantined';
      adjudication: MemoryReviewCandidate['adjudication'];
      decision: string | null;
      payload_json: string;
      findings_json: string;
      created_at_ms: number;
      repository_key: string;
      root_realpath: string | null;
    }>;
    const more = rows.length > page.limit;
    if (more) rows.pop();
    const last = rows.at(-1);
    const evidence = db.prepare(
      'SELECT statement_id AS statementId, evidence_id AS evidenceId, client, session_key AS sessionKey, turn_key AS turnKey FROM evidence_refs WHERE candidate_id = ? ORDER BY statement_id, evidence_id',
    );
    const support = db.prepare(
      'SELECT statement_id AS statementId, claim_support AS claimSupport FROM assessments WHERE candidate_id = ?',
    );
    const reteaches = readReteachesOf(
      db,
      rows.map((row) => row.candidate_id),
    );
    const candidates = rows.map((row): MemoryReviewCandidate => {
      const payload = JSON.parse(row.payload_json) as Draft & {
        masked?: { content: string; statements: Record<string, string>; title?: string; appliesWhen?: string | null };
        origin?: MemoryCandidateOrigin;
        title?: string;
      };
      const findings = JSON.parse(row.findings_json) as CandidateFinding[];
      const refs = evidence.all(row.candidate_id) as Array<{
        statementId: string;
        evidenceId: string;
        client: string;
        sessionKey: string;
        turnKey: string;
      }>;
      const claims = new Map(
        (support.all(row.candidate_id) as Array<{ statementId: string; claimSupport: string }>).map((s) => [
          s.statementId,
          s.claimSupport,
        ]),
      );
      // Shown masked whenever a finding exists (and always for a quarantined candidate).
      const masked = findings.length > 0 || row.status === 'quarantined' ? payload.masked : undefined;
      const scope = row.repository_key === USER_SCOPE.repositoryKey ? 'user' : 'project';
      const content = masked?.content ?? payload.content;
      const title = (masked ? masked.title : payload.title) ?? null;
      // A person's revision keeps its entry's priority (prepare writes it so), not the proposal's 50.
      const priority =
        revisionPriority(db, row.candidate_id, row.repository_key, USER_SCOPE.repositoryKey) ?? payload.priority;
      // What the model will read: the entry's lines as the snapshot frames them — under the id of the
      // approved entry it revises, as prepare writes it, else its own.
      const snapshot = renderEntry(
        snapshotEntryFor(
          {
            candidateId: row.candidate_id,
            title,
            content,
            appliesWhen: (masked && masked.appliesWhen !== undefined ? masked.appliesWhen : payload.scene) ?? null,
            priority,
          },
          scope,
          revisedEntries(db, row.candidate_id)[0] ?? null,
        ),
      );
      return {
        candidateId: row.candidate_id,
        status: row.status,
        adjudication: row.adjudication,
        decision: row.decision,
        content,
        title,
        type: payload.type,
        priority,
        confidence: payload.confidence,
        // Extraction drafts of the built-in runner say which signals made them; other drafts none.
        signals: payload.signals ?? [],
        statements: payload.statements.map((statement) => ({
          statementId: statement.statementId,
          text: masked?.statements[statement.statementId] ?? statement.text,
          evidence: refs
            .filter((ref) => ref.statementId === statement.statementId)
            .map(({ evidenceId, client, sessionKey, turnKey }) => ({ evidenceId, client, sessionKey, turnKey })),
          claimSupport: claims.get(statement.statementId) ?? 'unverified',
        })),
        findings: findings.map(({ field, line, column, rule, severity, excerpt, transform }) => ({
          field,
          line,
          column,
          rule,
          severity,
          excerpt,
          ...(typeof transform === 'string' ? { transform } : {}),
        })),
        createdAt: new Date(row.created_at_ms).toISOString(),
        // Extraction's payloads carry no origin: they came from captured turns (their evidence says which).
        origin: payload.origin ?? { kind: 'extraction' },
        scope,
        repositoryKey: row.repository_key,
        // The directory's name only: absolute paths never leave memory-state.
        repository: row.root_realpath === null ? null : basename(row.root_realpath),
        snapshot,
        ...(reteaches.has(row.candidate_id) ? { reteaches: reteaches.get(row.candidate_id)! } : {}),
      };
    });
    const nextAfter =
      more && last ? reviewCursorText({ createdAtMs: last.created_at_ms, candidateId: last.candidate_id }) : null;
    return { candidates, total, nextAfter };
  })();
}

export function readMemoryRecall(db: Db, owner: Owner, text: string, k?: number) {
  const result = recall(db, owner, text, k);
  return {
    recallQueryDigest: result.recallQueryDigest,
    resultSetDigest: result.resultSetDigest,
    items: result.items.map(({ rank, sourceKind, id }) => ({ rank, sourceKind, id })),
  };
}

/**
 * Where the last finished run of a kind ended (ms), automatic or manual, of one scope or any;
 * null before any. Turns sealed from then on wait for the next run of that kind.
 */
export function readLastUntil(db: Db, automatic: boolean, owner: Owner | null = null): number | null {
  return db
    .prepare(
      `SELECT max(json_extract(request_json, '$.untilMs')) FROM runs WHERE state = 'done' AND json_extract(request_json, '$.auto') = ?
         AND (? IS NULL OR (repository_key = ? AND worktree_key = ?))`,
    )
    .pluck()
    .get(automatic ? 1 : 0, owner?.repositoryKey ?? null, owner?.repositoryKey ?? null, owner?.worktreeKey ?? null) as
    | number
    | null;
}

/** Where the last finished automatic run ended (ms), of any scope; null before any. */
export const readLastAutoUntil = (db: Db): number | null => readLastUntil(db, true);

/** Bytes each profile sent on a UTC day. */
export function sentByProfileOn(db: Db, day: string): Array<{ profile: string; bytes: number; tasks: number }> {
  return prepared(
    db,
    `SELECT runner_profile AS profile, sum(bytes) AS bytes, count(*) AS tasks FROM runner_sends WHERE utc_day = ?
      GROUP BY runner_profile ORDER BY runner_profile`,
  ).all(day) as Array<{ profile: string; bytes: number; tasks: number }>;
}
