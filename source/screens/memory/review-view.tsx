// Review: the queue (one row per candidate, only the rows that fit are rendered) or one candidate
// opened with its statements, evidence and findings. The reducer owns every decision.
import { Box, Text } from 'ink';
import { memo, useMemo } from 'react';
import type { MemoryReviewCandidate } from '../../api/memory-views.js';
import { truncate } from '../format.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { listWindow } from '../widgets/list-window.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { WrappedText } from '../widgets/wrapped-text.js';
import { LinePane, position } from './line-pane.js';
import { candidateLines } from './review-lines.js';
import { candidatesOf, openCandidate, openPatch, type ReviewState } from './review-state.js';
import { describeOperation } from '../../memory/consolidation/patch.js';
import { isRevisionClient } from '../../memory/revision-clients.js';
import { visibleText } from '../../memory/visible-text.js';
import { idLabel, type ScreenLine, wrapLines } from './wrap-lines.js';

/** The candidate's repository (its worktree directory's name), or "user" for the user scope. */
export const scopeName = (candidate: MemoryReviewCandidate): string =>
  candidate.scope === 'user' ? 'user' : (candidate.repository ?? 'repository?');

/** The first non-blank line, one row's worth: control characters as spaces, hidden ones as ⟨U+XXXX⟩ (visible-text.ts). */
export function firstLine(text: string): string {
  return visibleText(
    (text.split('\n').find((line) => line.trim() !== '') ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim(),
  );
}

const CandidateRow = memo(function CandidateRow({
  candidate,
  selected,
  marked,
  columns,
}: {
  candidate: MemoryReviewCandidate;
  selected: boolean;
  marked: boolean;
  columns: number;
}) {
  const theme = useTheme();
  const status = candidate.status === 'quarantined' ? 'QUARANTINED' : 'draft';
  // Whose it is: the queue holds every repository's, and each is promoted into its own.
  const prefix = `${selected ? '›' : ' '}${marked ? '+' : ' '} ${status.padEnd(11)} ${candidate.type.padEnd(12)} ${truncate(scopeName(candidate), 12).padEnd(12)} `;
  // An agent's proposal says so in the row: a person should know it is not their own words. A
  // revision of an approved entry (e on Entries, memory revise) is the person's own.
  const summary =
    candidate.origin.kind === 'proposal'
      ? `${isRevisionClient(candidate.origin.client) ? 'revision' : 'proposed'}: ${candidate.title === null ? firstLine(candidate.content) : firstLine(candidate.title)}`
      : firstLine(candidate.content);
  return (
    <Text
      wrap="truncate-end"
      inverse={selected}
      color={candidate.status === 'quarantined' ? theme.error : undefined}
    >{`${prefix}${truncate(summary, columns - prefix.length - 1)}`}</Text>
  );
});

/**
 * The queue's header: the scope, the marks and where the selection is. Short enough for one line
 * at 60 columns, the narrowest supported, with seven-digit counts; what the queue holds is the
 * line under it, so the position never wraps onto another line as the counts grow.
 */
export function queueHeading(state: ReviewState): string {
  const candidates = candidatesOf(state);
  if (!state.data) return 'Review';
  const parts = ['Review', state.filter === 'all' ? 'all scopes' : `${state.data.callerScope} scope only`];
  if (state.marked.size > 0) parts.push(`${state.marked.size} marked`);
  if (candidates.length > 0) parts.push(`${state.selected + 1} of ${state.data.total}`);
  return parts.join(' · ');
}

/** What the queue holds, under the header: within 60 columns up to a million candidates with a page read (wrapped, never cut, beyond); null before the first read. */
export function queueSummary(state: ReviewState): string | null {
  const candidates = candidatesOf(state);
  if (!state.data) return null;
  const quarantined = candidates.filter((candidate) => candidate.status === 'quarantined').length;
  const { total } = state.data;
  // A long queue is read a page at a time, as ↓ gets near the end of what is read.
  const read = candidates.length < total ? `, newest ${candidates.length} read` : '';
  return `${total} queued${read} (${candidates.length - quarantined} draft, ${quarantined} quarantined)`;
}

/**
 * The consolidation patches waiting for review, one line each: how many operations, over which
 * scope; c opens the newest (PatchDetail; c there opens the next) to take or leave out its operations and prepare them.
 * Then the queue's s and r keys, which the help line has no room for within 80 columns.
 */
export function patchSummaries(state: ReviewState): string[] {
  const patches = state.data?.patches ?? [];
  const lines = patches.map((patch, index) => {
    const where = patch.scope === 'user' ? 'user scope' : 'this repository';
    const opens = index === 0 ? 'c opens it to prepare' : `c then ${'c '.repeat(index)}opens it`;
    return `Consolidation patch ${patch.taskId}: ${patch.operations.length} operation(s) over ${where}; ${opens}.`;
  });
  // The queue's own keys, here because the help line is full at 80 columns.
  if (state.data)
    lines.push(
      `${keyLabel('toggleScope')} ${state.filter === 'all' ? 'this scope' : 'all scopes'} · ${keyLabel('refresh')} refresh`,
    );
  return lines;
}

export function ReviewQueue({ state, room, columns }: { state: ReviewState; room: number; columns: number }) {
  const theme = useTheme();
  const candidates = candidatesOf(state);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the heading changes with the data, the selection and the marks only
  const heading = useMemo(() => queueHeading(state), [state.data, state.selected, state.marked]);
  // Counting quarantined rows walks the queue: once per answer, not once per key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the summary changes with the data only
  const summary = useMemo(() => queueSummary(state), [state.data]);
  // Both wrap rather than lose their end on a terminal narrower than any supported one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the patches change with the data (and the keys' line with the filter) only
  const patches = useMemo(() => patchSummaries(state), [state.data, state.filter]);
  const titleLines = [
    ...wrapLines(heading, columns, 'heading'),
    ...(summary === null ? [] : wrapLines(summary, columns, 'text')),
    ...patches.flatMap((line) => wrapLines(line, columns, 'muted')),
  ];
  const window = listWindow(candidates.length, state.selected, Math.max(1, room - titleLines.length));
  return (
    <Box flexDirection="column">
      <LinePane lines={titleLines} top={0} room={titleLines.length} />
      {state.load && !state.load.quiet ? <Spinner /> : null}
      {state.data && candidates.length === 0 ? (
        <WrappedText color={theme.muted}>
          {`Nothing to review: no draft or quarantined candidates ${state.filter === 'all' ? 'in any scope' : 'in this scope (s: all scopes)'}. Candidates come from extraction (] Extraction shows it; common-memory memory extract runs it) and from agents' memory_propose; consolidation patches from c on Entries.`}
        </WrappedText>
      ) : null}
      {candidates.slice(window.start, window.end).map((candidate, offset) => (
        <CandidateRow
          key={candidate.candidateId}
          candidate={candidate}
          selected={window.start + offset === state.selected}
          marked={state.marked.has(candidate.candidateId)}
          columns={columns}
        />
      ))}
    </Box>
  );
}

export function useCandidateLines(state: ReviewState, columns: number) {
  const candidate = openCandidate(state);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the lines follow the open candidate, its evidence and confirmations
  return useMemo(
    () => (candidate ? candidateLines(candidate, state, columns) : { lines: [], starts: [] }),
    [candidate, state.open?.statement, state.open?.evidence, state.evidence, state.confirmed, columns],
  );
}

/** An open candidate's heading and the line of its m and p keys under it: the candidate's text has the rest. */
export const CANDIDATE_HEADING_LINES = 2;

/**
 * The open candidate's m and p, which the help line has no room for at 80 columns: what m does to
 * it and what p would take (the marked ones, as on the list, else this one).
 */
export function openCandidateKeys(state: ReviewState): string {
  const marked = state.marked.has(state.open?.candidateId ?? '');
  // A quarantined one cannot be promoted (p refuses it, marked or not): the line says what it can do.
  if (openCandidate(state)?.status === 'quarantined') {
    const keys = ['quarantined: out of every plan', `${keyLabel('discardCandidate')} discards it`];
    if (marked) keys.push(`${keyLabel('markItem')} unmark`);
    else if (state.marked.size > 0) keys.push(`${keyLabel('promoteChosen')} promote the ${state.marked.size} marked`);
    return keys.join(' · ');
  }
  const takes = state.marked.size > 0 ? `the ${state.marked.size} marked` : 'this one';
  return `${keyLabel('markItem')} ${marked ? 'unmark' : 'mark'} · ${keyLabel('promoteChosen')} promote ${takes}`;
}

export function CandidateDetail({ state, lines, room }: { state: ReviewState; lines: ScreenLine[]; room: number }) {
  const theme = useTheme();
  const top = state.open?.top ?? 0;
  const candidate = openCandidate(state);
  const textRoom = room - CANDIDATE_HEADING_LINES;
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {`Review › candidate ${idLabel(candidate?.candidateId)}${state.marked.has(candidate?.candidateId ?? '') ? ' · marked' : ''}${position(top, textRoom, lines.length)}`}
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        {openCandidateKeys(state)}
      </Text>
      <LinePane lines={lines} top={top} room={textRoom} />
    </Box>
  );
}

/**
 * An open consolidation patch: one row per operation, numbered as the CLI numbers them, each
 * taken ([x]) or left out ([ ]), with what it does and the entries (with revisions) it rests on.
 */
export function patchDetailLines(state: ReviewState, columns: number): ScreenLine[] {
  const patch = openPatch(state);
  if (!patch || !state.patch) return [];
  const where = patch.scope === 'user' ? 'the user scope' : 'this repository';
  const lines: ScreenLine[] = wrapLines(
    `${patch.operations.length} operation(s) over ${where}, by ${patch.runner}. m takes or leaves out the one under ›; p prepares the plan of those taken.`,
    columns,
    'muted',
  );
  for (const [index, operation] of patch.operations.entries()) {
    const cursor = index === state.patch.selected ? '›' : ' ';
    const mark = state.patch.taken.has(index + 1) ? '[x]' : '[ ]';
    const text = `${cursor} ${mark} ${index + 1}. ${describeOperation(operation).replace(/\s+/g, ' ')}`;
    lines.push(...wrapLines(text, columns, index === state.patch.selected ? 'selected' : 'text', '        ', true));
  }
  return lines;
}

export function PatchDetail({ state, room, columns }: { state: ReviewState; room: number; columns: number }) {
  const theme = useTheme();
  const lines = patchDetailLines(state, columns);
  const taken = state.patch?.taken.size ?? 0;
  const count = openPatch(state)?.operations.length ?? 0;
  const patches = state.data?.patches ?? [];
  const waiting = patches.length;
  const at = patches.findIndex((patch) => patch.taskId === state.patch?.taskId);
  // The operation under the cursor stays on screen: the view starts at its first line when needed.
  const start = lines.findIndex((line) => line.tone === 'selected');
  const top = Math.max(0, Math.min(start, lines.length - (room - 1)));
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {`Review › patch ${idLabel(state.patch?.taskId)}${waiting > 1 ? ` (${at + 1} of ${waiting} waiting)` : ''} · ${taken} of ${count} taken`}
      </Text>
      <LinePane lines={lines} top={start < room - 1 ? 0 : top} room={room - 1} />
    </Box>
  );
}
