// Memory: the review → promote half, in five views switched with ] and [ — Review (the queue of
// candidates; statements, evidence, findings; confirm, discard, mark), Prepare & promote (scope →
// the plan's diff → approve with a key → write → result), Entries (search approved memory, open
// an entry, the memory files left out), Extraction (a run with a chosen runner, the plan an external runner waits at and
// its approval key, what was sent today, counts, quarantined candidates), and Usage (given, read and
// re-taught counts, retirement suggestions). The states live here, so
// switching views never loses a plan or a selection; the views only render them.
import { Box, Text } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { HEADER_LINES } from '../shell/header.js';
import { useEnvironment, useHelp, useKept } from '../shell/shell-context.js';
import { useTerminalSize } from '../terminal-size.js';
import { textColumns } from '../../text-columns.js';
import { useTheme } from '../widgets/theme.js';
import { type EntriesState, entriesReducer, listedRows, resumedEntries } from './entries-state.js';
import {
  entryActionHelp,
  entryActionLines,
  type EntryActionsState,
  entryActionsReducer,
  initialEntryActions,
  useEntryActionEffects,
  useEntryActionKeys,
} from './entry-actions.js';
import { useEntryEditor } from './entry-editor.js';
import { EntriesView, listTextRoom, useEntryLines } from './entries-view.js';
import { type ExtractionState, extractionReducer, initialExtractionState } from './extraction-state.js';
import { ExtractionView, useExtractionLines } from './extraction-view.js';
import { LinePane } from './line-pane.js';
import { helpFor, messageLines } from './memory-messages.js';
import { wrapLines } from './wrap-lines.js';
import { type PromoteState, promoteReducer, resumedPromote } from './promote-state.js';
import { PromoteView, usePromoteLines } from './promote-view.js';
import {
  candidatesOf,
  openPatch,
  type ReviewState,
  resumedReview,
  reviewReducer,
  takenOperations,
  targetCandidate,
} from './review-state.js';
import {
  CANDIDATE_HEADING_LINES,
  CandidateDetail,
  firstLine,
  PatchDetail,
  ReviewQueue,
  useCandidateLines,
} from './review-view.js';
import { useEntriesEffects, usePromoteEffects, useReviewEffects } from './use-memory-effects.js';
import { type MemoryView, useMemoryInput, VIEWS } from './use-memory-input.js';
import { UsageView, useUsageLines } from './usage-view.js';

/** Header, help line, the spare row under the frame, and this screen's view line. */
const CHROME = HEADER_LINES + 3;

/** The views' line, longest first: the one that fits is shown (80 columns the first, 60 the third). */
const VIEW_LINES = [
  { short: false, keys: ' · ] next view · [ previous' },
  { short: true, keys: ' · ] next view · [ previous' },
  { short: true, keys: ' · ] next · [ prev' },
  { short: true, keys: '' },
];

const viewTitles = (view: MemoryView, short: boolean) =>
  VIEWS.map((item) => {
    const title = short ? (item.short ?? item.title) : item.title;
    return { name: item.name, text: item.name === view ? `[${title}]` : title };
  });

/** The views' line within `columns`: the whole titles and key words where they fit, else shorter ones. */
function viewLine(view: MemoryView, columns: number) {
  const fitting = (line: (typeof VIEW_LINES)[number]) =>
    textColumns(
      viewTitles(view, line.short)
        .map((title) => title.text)
        .join(' ') + line.keys,
    ) <= columns;
  const line = VIEW_LINES.find(fitting) ?? VIEW_LINES.at(-1)!;
  return { titles: viewTitles(view, line.short), keys: line.keys };
}

function ViewLine({ view, columns }: { view: MemoryView; columns: number }) {
  const theme = useTheme();
  const { titles, keys } = viewLine(view, columns);
  return (
    <Text wrap="truncate-end">
      {titles.map((item, index) => (
        <Text key={item.name}>
          {index === 0 ? '' : ' '}
          {item.name === view ? (
            <Text bold color={theme.accent}>
              {item.text}
            </Text>
          ) : (
            <Text color={theme.muted}>{item.text}</Text>
          )}
        </Text>
      ))}
      <Text color={theme.muted}>{keys}</Text>
    </Text>
  );
}

/** What Memory keeps while another screen is shown. */
interface KeptMemory {
  view: MemoryView;
  review: ReviewState;
  promote: PromoteState;
  entries: EntriesState;
  run: ExtractionState;
  extractionTop: number;
  /** Entries' verification or revision in flight (followed on return, not sent again), or its result. */
  actions: EntryActionsState;
}

export function Memory() {
  const { app, cwd = process.cwd() } = useEnvironment();
  const { rows, columns } = useTerminalSize();
  // Left for another screen, Memory unmounts: what it kept comes back (the view, Review's place and
  // marks, the candidates chosen for a plan, Entries' query, selection and open entry, Extraction's
  // runner, chooser and plan, a run in flight followed).
  const [kept, keep] = useKept<KeptMemory>('memory');
  const [view, setView] = useState<MemoryView>(kept?.view ?? 'review');
  const [review, dispatchReview] = useReducer(reviewReducer, kept?.review, resumedReview);
  const [promote, dispatchPromote] = useReducer(promoteReducer, kept?.promote, resumedPromote);
  const [entries, dispatchEntries] = useReducer(entriesReducer, kept?.entries, resumedEntries);
  const [extractionTop, setExtractionTop] = useState(kept?.extractionTop ?? 0);
  const [run, dispatchRun] = useReducer(extractionReducer, kept?.run ?? initialExtractionState);
  const [actions, dispatchActions] = useReducer(entryActionsReducer, kept?.actions ?? initialEntryActions);
  useEffect(() => keep({ view, review, promote, entries, run, extractionTop, actions }));
  useReviewEffects(app, cwd, review, dispatchReview);
  usePromoteEffects(app, cwd, promote, dispatchPromote);
  useEntriesEffects(app, cwd, entries, dispatchEntries);
  useEntryActionEffects(app, cwd, actions, dispatchActions);
  const edit = useEntryEditor();

  // Keys typed ahead onto a list that loaded empty, said under the view (useMemoryInput below
  // returns it; kept here a render later, as the room of the view depends on the lines under it).
  const [heldNote, setHeldNote] = useState<string | null>(null);
  const messages = useMemo(
    () => [
      ...messageLines(view, review, promote, entries, columns),
      ...(view === 'entries' && !entries.error ? entryActionLines(actions, columns) : []),
      ...(heldNote ? wrapLines(heldNote, columns, 'muted') : []),
    ],
    [view, review, promote, entries, actions, columns, heldNote],
  );
  const room = Math.max(3, rows - CHROME - messages.length);
  const candidate = useCandidateLines(review, columns);
  const planText = usePromoteLines(promote, columns);
  const entryText = useEntryLines(entries, columns);
  const {
    lines: extraction,
    runners,
    runnerChoices,
  } = useExtractionLines(app, cwd, review, { state: run, dispatch: dispatchRun }, columns, view === 'extraction');
  const [usageTop, setUsageTop] = useState(0);
  const usageText = useUsageLines(app, cwd, columns, view === 'usage');
  const textRoom = room - 1;
  const lastTop = (lines: number) => Math.max(0, lines - textRoom);
  // An open candidate's text has the room under its heading and its keys' line.
  const candidateRoom = room - CANDIDATE_HEADING_LINES;
  const candidateLastTop = Math.max(0, candidate.lines.length - candidateRoom);
  // The Entries list's text above its rows (heading, left-out files) scrolls in what the rows leave.
  const entriesListRoom = listTextRoom(room, entryText.length, listedRows(entries).length);
  const entriesListText = { room: entriesListRoom, lastTop: Math.max(0, entryText.length - entriesListRoom) };

  // Promoted candidates leave the queue: read it again once a plan is applied.
  const applied = promote.result?.status === 'applied' ? promote.result.planId : null;
  useEffect(() => {
    if (applied) dispatchReview({ type: 'reload', quiet: true });
  }, [applied]);
  // A retired entry leaves the stale list; a re-verification changes verdicts: Entries reads them again.
  const retired = applied && promote.retire ? applied : null;
  useEffect(() => {
    if (retired) dispatchEntries({ type: 'reread', closeEntry: true });
  }, [retired]);
  useEffect(() => {
    if (actions.verified > 0) dispatchEntries({ type: 'reread', closeEntry: false });
  }, [actions.verified]);
  // A revision made on Entries is a new candidate: Review reads its queue again (kept on screen).
  useEffect(() => {
    if (actions.reviewChanged > 0) dispatchReview({ type: 'reload', quiet: true });
  }, [actions.reviewChanged]);
  // What Review last said is about the candidate it was said on: shown another view, it is gone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is the view changing
  useEffect(() => {
    dispatchReview({ type: 'viewChanged' });
  }, [view]);
  // Files change by hand while the screen is open (a fix, a pull, a sync in another terminal):
  // Entries reads its stale list, the left-out files and the last search again each time it is
  // shown, not only when the screen mounts.
  const entriesShown = useRef(false);
  useEffect(() => {
    if (view !== 'entries') return;
    if (entriesShown.current) dispatchEntries({ type: 'reread', closeEntry: false });
    entriesShown.current = true;
  }, [view]);
  // A search the person starts ends what an entry action last said (a search read again after one does not).
  const searchStarted = entries.search && !entries.search.again ? entries.search.id : null;
  useEffect(() => {
    if (searchStarted !== null) dispatchActions({ type: 'said', notice: null, error: null });
  }, [searchStarted]);
  useEntryActionKeys(
    {
      entries,
      actions,
      dispatch: dispatchActions,
      retire: (entry) => {
        dispatchPromote({
          type: 'retire',
          entry: { entryId: entry.entryId, scope: entry.scope === 'user' ? 'user' : 'project', title: entry.title },
        });
        setView('promote');
      },
      edit,
    },
    view === 'entries',
  );

  const promoteChosen = useCallback(() => {
    const candidates = candidatesOf(review);
    const marked = candidates.filter((item) => review.marked.has(item.candidateId));
    const target = targetCandidate(review);
    const chosen = marked.length > 0 ? marked : target ? [target] : [];
    // Prepare could only refuse a quarantined candidate (exit 11 on the CLI): say so here, where it is chosen.
    const quarantined = chosen.filter((item) => item.status === 'quarantined').map((item) => item.candidateId);
    if (quarantined.length > 0) {
      dispatchReview({ type: 'quarantinedChosen', candidateIds: quarantined, marked: marked.length > 0 });
      return;
    }
    dispatchPromote({
      type: 'choose',
      chosen: chosen.map((item) => ({
        candidateId: item.candidateId,
        label: firstLine(item.content),
        scope: item.scope,
        repository: item.repository,
      })),
    });
    setView('promote');
  }, [review]);

  const preparePatch = useCallback(() => {
    const patch = openPatch(review);
    if (!patch || !review.patch) return;
    const operations = takenOperations(review);
    if (operations.length === 0) {
      dispatchReview({ type: 'nothingTaken' });
      return;
    }
    dispatchPromote({
      type: 'patch',
      patch: { taskId: patch.taskId, scope: patch.scope, operations, count: patch.operations.length },
    });
    setView('promote');
  }, [review]);

  const droppedNote = useMemoryInput(
    {
      view,
      setView,
      review,
      promote,
      entries,
      dispatchReview,
      dispatchPromote,
      dispatchEntries,
      room: view === 'review' ? (review.open && !review.patch ? candidateRoom : room - 1) : textRoom,
      statementStarts: candidate.starts,
      lastTop: view === 'review' ? candidateLastTop : lastTop(view === 'promote' ? planText.length : entryText.length),
      promoteChosen,
      preparePatch,
      listText: entriesListText,
    },
    {
      top: extractionTop,
      scroll: (delta) => setExtractionTop((top) => Math.min(lastTop(extraction.length), Math.max(0, top + delta))),
      run,
      dispatch: (action) => {
        setExtractionTop(0); // the plan or the result is at the top
        dispatchRun(action);
      },
      runners,
    },
    {
      top: usageTop,
      scroll: (delta) => setUsageTop((top) => Math.min(lastTop(usageText.length), Math.max(0, top + delta))),
    },
  );
  useEffect(() => setHeldNote(droppedNote), [droppedNote]);
  useHelp(
    [
      ...helpFor(
        view,
        review,
        promote,
        entries,
        run,
        view === 'entries' && !entries.open ? entriesListText.lastTop : candidateLastTop,
      ),
      ...(view === 'entries' ? entryActionHelp(entries) : []),
    ],
    !(view === 'entries' && entries.typing),
  );

  return (
    <Box flexDirection="column" flexGrow={1}>
      <ViewLine view={view} columns={columns} />
      <Box flexDirection="column" height={room} overflow="hidden">
        {view === 'review' ? (
          review.patch ? (
            <PatchDetail state={review} room={room} columns={columns} />
          ) : review.open ? (
            <CandidateDetail state={review} lines={candidate.lines} room={room} />
          ) : (
            <ReviewQueue state={review} room={room} columns={columns} />
          )
        ) : null}
        {view === 'promote' ? <PromoteView state={promote} lines={planText} room={room} columns={columns} /> : null}
        {view === 'entries' ? <EntriesView state={entries} lines={entryText} room={room} columns={columns} /> : null}
        {view === 'extraction' ? (
          <ExtractionView
            lines={extraction}
            top={extractionTop}
            room={room}
            columns={columns}
            chooser={run.choosing ? { options: runnerChoices, highlighted: run.choosing.highlighted } : null}
          />
        ) : null}
        {view === 'usage' ? <UsageView lines={usageText} top={usageTop} room={room} /> : null}
      </Box>
      <LinePane lines={messages} top={0} room={messages.length} />
    </Box>
  );
}
