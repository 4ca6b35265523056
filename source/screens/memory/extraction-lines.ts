// The extraction panel's text: the running run's progress, the last run's counts, chunk, task and
// candidate counts (`memory status`), and the quarantined candidates with their masked findings.
import type { MemoryReviewCandidate } from '../../api/memory-views.js';
import type { MemoryRunView, MemoryStatus } from '../../api/memory-runs.js';
import { planLines } from '../../runner-plan-text.js';
import type { ChooserOption } from '../widgets/chooser.js';
import type { ExtractionState } from './extraction-state.js';
import { findingText } from './review-lines.js';
import { type ScreenLine, wrapLines, idLabel } from './wrap-lines.js';
import { visibleText } from '../../memory/visible-text.js';
import { counted } from '../../ground/count-text.js';

const at = (instant: string) => `${instant.replace('T', ' ').slice(0, 19)} UTC`;

function runText(run: MemoryRunView): string {
  const summary = run.summary;
  // A run that stopped at its plan is recorded as failed; it sent nothing and waits for an approval.
  const awaiting = (summary as { awaiting?: string } | null)?.awaiting === 'authorisation';
  const state = awaiting ? 'stopped at its plan, nothing sent' : run.state;
  const parts = [`${run.runner} ${idLabel(run.runId)} · ${run.scope} · ${state} · started ${at(run.startedAt)}`];
  if (run.finishedAt) parts.push(`finished ${at(run.finishedAt)}`);
  if (summary?.turns !== undefined) parts.push(counted(summary.turns, 'turn'));
  if (summary?.chunks !== undefined) parts.push(counted(summary.chunks, 'chunk'));
  const made = summary?.candidates;
  if (made)
    parts.push(
      `candidates ${made.created ?? 0} created, ${made.skipped ?? 0} skipped, ${made.updated ?? 0} updated, ${made.merged ?? 0} merged, ${made.quarantined ?? 0} quarantined`,
    );
  if (summary?.failures && summary.failures.length > 0) parts.push(`failures: ${summary.failures.join('; ')}`);
  return parts.join(' · ');
}

/** "▓▓▓▓░░░░ 4/8" — a bar when the total is known. */
export function progressBar(done: number, total: number, width = 20): string {
  if (total <= 0) return `${done}`;
  const filled = Math.round((Math.min(done, total) / total) * width);
  return `${'▓'.repeat(filled)}${'░'.repeat(width - filled)} ${done}/${total}`;
}

export function extractionLines(status: MemoryStatus | null, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  if (!status) {
    add('reading memory status…', 'muted');
    return lines;
  }
  if (status.state === 'unavailable') {
    add(`memory-state is unavailable: ${status.reason ?? 'no reason given'}`, 'error');
    add('Capture keeps working. Run common-memory doctor to see what to do.', 'muted', '  ');
    return lines;
  }
  const active = status.activeRun;
  add(
    active
      ? `Running: ${idLabel(active.runId)} · ${active.phase} · ${progressBar(active.done, active.total)}`
      : `No extraction running · automatic extraction ${status.autoExtract ? 'on' : 'off'}`,
    active ? 'ok' : 'muted',
  );
  if (status.lastRun) add(`Last: ${runText(status.lastRun)}`, 'text');
  else add('No extraction has run yet: common-memory memory extract runs one.', 'muted');
  const { chunks, tasks, candidates } = status;
  add(
    `Chunks ${chunks.pending} pending · ${chunks.drafted} drafted · ${chunks.extracted} extracted · ${chunks.stale} stale`,
    'text',
  );
  add(
    `Tasks ${tasks.pending} pending · ${tasks.claimed} claimed · ${tasks.submitted} submitted · ${tasks.stale} stale · ${tasks.waitingForRetry} waiting for retry`,
    tasks.waitingForRetry > 0 ? 'error' : 'text',
  );
  add(
    `Candidates ${candidates.draft} draft · ${candidates.quarantined} quarantined · ${candidates.promoted} promoted · ${candidates.discarded} discarded · ${candidates.superseded} superseded · ${candidates.awaitingAdjudication} awaiting adjudication`,
    'text',
  );
  if (tasks.waitingForRetry > 0)
    add(
      'A task failed 5 times and waits: common-memory memory retry <task-id> gives it a fresh budget.',
      'muted',
      '  ',
    );
  return lines;
}

type RunnerView = MemoryStatus['runners'][number];

/** Where a runner's bytes go: nowhere (offline), or its provider, model and endpoint. */
const runnerWhere = (runner: RunnerView): string =>
  runner.offline
    ? `${runner.name}: offline, nothing leaves this machine`
    : `${runner.name}: ${runner.provider} ${runner.model} at ${runner.endpoint}`;

/** A runner in one line: where its bytes go and what it sent today (UTC) against its budgets. */
export function runnerText(runner: RunnerView): string {
  return runner.offline
    ? runnerWhere(runner)
    : `${runnerWhere(runner)} · sent today ${runner.sentToday ?? 0} of ${runner.budget?.dayBytes} bytes · ${runner.budget?.runBytes} a run`;
}

/**
 * The runner chooser's options: the runners as listed when it opened, each as the list says it;
 * where that is longer than the line, the others say only where their bytes go (the list below
 * the chooser has their budgets).
 */
export function runnerOptions(names: readonly string[], status: MemoryStatus | null): ChooserOption[] {
  return names.map((name) => {
    const runner = status?.runners.find((item) => item.name === name);
    return runner ? { label: runnerText(runner), short: runnerWhere(runner) } : { label: name };
  });
}

/** The runners, what each external one sent today (UTC) against its budget, and the chosen one. */
export function runnerLines(status: MemoryStatus | null, chosen: string | null, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  if (!status || status.state === 'unavailable') return [];
  add(`Runners · sent off this machine today (UTC ${status.spend.day}): ${status.spend.bytesSent} bytes`, 'heading');
  const current = chosen ?? 'builtin';
  for (const runner of status.runners) {
    const mark = runner.name === current ? '▸ ' : '  ';
    add(`${mark}${runnerText(runner)}`, runner.name === current ? 'ok' : 'text');
  }
  if (status.runnersProblem) add(`runners.json: ${status.runnersProblem}`, 'error', '  ');
  return lines;
}

/** The run in flight, the plan waiting for approval (whole), or the last run's result. */
export function runLines(state: ExtractionState, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  if (state.request) {
    add(
      state.request.approvePlan || state.request.approveManifest
        ? `Sending the approved bytes to the ${state.request.runner} runner…`
        : `Extracting with the ${state.request.runner} runner…`,
      'ok',
    );
    return lines;
  }
  if (state.error) {
    add(`extract: error ${state.error.code}: ${state.error.message}`, 'error');
    return lines;
  }
  if (state.pending) {
    const [head, ...rest] = planLines(state.pending);
    add(head!, 'heading');
    for (const line of rest) add(line.trim(), 'text', line.startsWith('    ') ? '    ' : '  ');
    add('a sends exactly these bytes (this digest) · Esc drops the plan, nothing is sent', 'muted');
    return lines;
  }
  const report = state.report;
  if (!report) return [];
  const c = report.candidates;
  add(
    `Run: ${report.tasks.submitted} task(s) submitted, ${report.tasks.failed} failed, ${report.tasks.pending} left · candidates ${c.created} drafted, ${c.stored} stored, ${c.quarantined} quarantined`,
    report.tasks.failed > 0 ? 'error' : 'ok',
  );
  for (const failure of report.failures) add(`failed: ${failure}`, 'error', '  ');
  return lines;
}

/** Wrapped once per review answer, not once per status poll: a queue may hold thousands. */
export function quarantineLines(quarantined: MemoryReviewCandidate[], columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [{ text: '', tone: 'muted' }];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  add(`Quarantined candidates (${quarantined.length}) · findings masked, the secret is never shown`, 'heading');
  if (quarantined.length === 0) add('none', 'muted', '  ');
  for (const candidate of quarantined) {
    add(`${idLabel(candidate.candidateId)} ${visibleText(candidate.content)}`, 'text', '  ');
    for (const finding of candidate.findings)
      add(findingText(finding), finding.severity === 'block' ? 'error' : 'muted', '    ');
  }
  return lines;
}
