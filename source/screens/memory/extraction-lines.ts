// The extraction panel's text: the running run's progress, the last run's counts, chunk, task and
// candidate counts (`memory status`), and the quarantined candidates with their masked findings.
import type { MemoryReviewCandidate, MemoryRunView, MemoryStatus } from '../../protocol.js';
import { findingText } from './review-lines.js';
import { type ScreenLine, wrapLines, idLabel } from './wrap-lines.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const at = (instant: string) => `${instant.replace('T', ' ').slice(0, 19)} UTC`;

function runText(run: MemoryRunView): string {
  const summary = run.summary;
  const parts = [`${run.runner} ${idLabel(run.runId)} · ${run.scope} · ${run.state} · started ${at(run.startedAt)}`];
  if (run.finishedAt) parts.push(`finished ${at(run.finishedAt)}`);
  if (summary?.turns !== undefined) parts.push(plural(summary.turns, 'turn'));
  if (summary?.chunks !== undefined) parts.push(plural(summary.chunks, 'chunk'));
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

/** Wrapped once per review answer, not once per status poll: a queue may hold thousands. */
export function quarantineLines(quarantined: MemoryReviewCandidate[], columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [{ text: '', tone: 'muted' }];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  add(`Quarantined candidates (${quarantined.length}) · findings masked, the secret is never shown`, 'heading');
  if (quarantined.length === 0) add('none', 'muted', '  ');
  for (const candidate of quarantined) {
    add(`${idLabel(candidate.candidateId)} ${candidate.content}`, 'text', '  ');
    for (const finding of candidate.findings)
      add(findingText(finding), finding.severity === 'block' ? 'error' : 'muted', '    ');
  }
  return lines;
}
