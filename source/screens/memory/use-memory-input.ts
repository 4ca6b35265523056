// Keys of the Memory screen, per view: ] and [ change the view; the review queue and an open
// candidate, the promotion steps, the entry search and the extraction panel each answer their own
// commands. A discard question holds the screen's other keys until y, n or Esc answers it.
import type { Dispatch } from 'react';
import { PRIORITY } from '../keyboard/keyboard-router.js';
import { useChooserKeys } from '../keyboard/use-chooser-keys.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useHeldListKeys } from '../widgets/held-list-keys.js';
import { useLineInput } from '../widgets/line-input.js';
import { type EntriesAction, type EntriesState, listedRows } from './entries-state.js';
import type { ExtractionAction, ExtractionState } from './extraction-state.js';
import { busy, type PromoteAction, type PromoteState } from './promote-state.js';
import { candidatesOf, type ReviewAction, type ReviewState } from './review-state.js';

export type MemoryView = 'review' | 'promote' | 'entries' | 'extraction' | 'usage';
/** `short`: the title on the views' line where the whole line does not fit (60 columns). */
export const VIEWS: { name: MemoryView; title: string; short?: string }[] = [
  { name: 'review', title: 'Review' },
  { name: 'promote', title: 'Prepare & promote', short: 'Prepare' },
  { name: 'entries', title: 'Entries' },
  { name: 'extraction', title: 'Extraction' },
  { name: 'usage', title: 'Usage' },
];

const SCROLL = ['nextPage', 'previousPage', 'selectUp', 'selectDown', 'firstPage'] as const;
type ScrollCommand = (typeof SCROLL)[number];

/** How far a scroll key moves a text of `room` lines. */
export function scrollStep(command: ScrollCommand, room: number, top: number): number {
  if (command === 'nextPage') return room;
  if (command === 'previousPage') return -room;
  if (command === 'selectDown') return 1;
  if (command === 'selectUp') return -1;
  return -top;
}

export interface MemoryInput {
  view: MemoryView;
  setView(update: (view: MemoryView) => MemoryView): void;
  review: ReviewState;
  promote: PromoteState;
  entries: EntriesState;
  dispatchReview: Dispatch<ReviewAction>;
  dispatchPromote: Dispatch<PromoteAction>;
  dispatchEntries: Dispatch<EntriesAction>;
  /** Rows the current view's list or text has. */
  room: number;
  /** The open candidate's statement starts and last scroll position; the open text's last scroll position. */
  statementStarts: number[];
  lastTop: number;
  /** Moves the chosen candidates (marked, else the selected one) to Prepare & promote. */
  promoteChosen(): void;
  /** Prepares the open consolidation patch's taken operations on Prepare & promote. */
  preparePatch(): void;
  /** The Entries list's text above its rows: the lines it shows and its last scroll position (0: it fits). */
  listText?: { room: number; lastTop: number };
}

/**
 * The queue's keys that act on its rows: typed ahead while the queue is read (the screen opened,
 * s changed the scope), they wait for its rows (widgets/held-list-keys.ts), so "7jj⏎" opens the
 * third candidate of the queue shown, not the first, nor one of the queue that was left.
 */
const REVIEW_ROW_KEYS = [...SCROLL, 'openItem', 'markItem'] as const;
const REVIEW_LIST = [
  ...REVIEW_ROW_KEYS,
  'promoteChosen',
  'discardCandidate',
  'refresh',
  'toggleScope',
  'openPatch',
] as const;
const REVIEW_PATCH = ['selectUp', 'selectDown', 'markItem', 'promoteChosen', 'openPatch', 'back'] as const;
// In an open candidate m and p do what they do on its row (the line under its heading names them).
const REVIEW_OPEN = [
  ...SCROLL,
  'showEvidence',
  'confirmStatement',
  'discardCandidate',
  'markItem',
  'promoteChosen',
  'back',
] as const;
const ANSWERS = ['confirm', 'decline'] as const;

function useReviewKeys(input: MemoryInput, active: boolean): string | null {
  const { review, dispatchReview: dispatch, room } = input;
  const asking = review.asking !== null;
  const listActive = active && !asking && review.open === null && review.patch === null;
  const heldNote = useHeldListKeys(
    REVIEW_ROW_KEYS,
    (command) => {
      if (command === 'openItem') dispatch({ type: 'open' });
      else if (command === 'markItem') dispatch({ type: 'toggleMark' });
      else if (command === 'firstPage') dispatch({ type: 'select', delta: -review.selected });
      else dispatch({ type: 'select', delta: scrollStep(command, room, 0) });
    },
    // A quiet reload (the periodic one) keeps the rows on screen: keys act on them at once.
    { loading: review.load !== null && !review.load.quiet, length: candidatesOf(review).length },
    { isActive: listActive },
  );
  useCommandKeys(
    ['promoteChosen', 'discardCandidate', 'refresh', 'toggleScope', 'openPatch'],
    (command) => {
      if (command === 'promoteChosen') input.promoteChosen();
      else if (command === 'discardCandidate') dispatch({ type: 'askDiscard' });
      else if (command === 'refresh') dispatch({ type: 'reload' });
      else if (command === 'toggleScope') dispatch({ type: 'toggleFilter' });
      else dispatch({ type: 'openPatch' });
    },
    { isActive: listActive },
  );
  useCommandKeys(
    REVIEW_PATCH,
    (command) => {
      if (command === 'back') dispatch({ type: 'closePatch' });
      else if (command === 'markItem') dispatch({ type: 'togglePatchOperation' });
      else if (command === 'promoteChosen') input.preparePatch();
      else if (command === 'openPatch') dispatch({ type: 'openPatch', next: true });
      else dispatch({ type: 'choosePatchOperation', delta: command === 'selectUp' ? -1 : 1 });
    },
    { isActive: active && review.patch !== null },
  );
  useCommandKeys(
    REVIEW_OPEN,
    (command) => {
      if (command === 'back') dispatch({ type: 'close' });
      else if (command === 'showEvidence') dispatch({ type: 'toggleEvidence', starts: input.statementStarts, room });
      else if (command === 'confirmStatement') dispatch({ type: 'confirmStatement' });
      else if (command === 'discardCandidate') dispatch({ type: 'askDiscard' });
      else if (command === 'markItem') dispatch({ type: 'toggleMark' });
      else if (command === 'promoteChosen') input.promoteChosen();
      else if (command === 'selectUp' || command === 'selectDown')
        dispatch({
          type: 'chooseStatement',
          delta: command === 'selectUp' ? -1 : 1,
          starts: input.statementStarts,
          room,
        });
      else
        dispatch({ type: 'scroll', delta: scrollStep(command, room, review.open?.top ?? 0), lastTop: input.lastTop });
    },
    { isActive: active && !asking && review.open !== null },
  );
  useCommandKeys(ANSWERS, (answer) => dispatch({ type: 'answerDiscard', yes: answer === 'confirm' }), {
    isActive: active && asking,
    priority: PRIORITY.screen + 1,
    holds: [...REVIEW_OPEN, ...REVIEW_LIST, 'nextView', 'previousView'],
  });
  return heldNote;
}

function usePromoteKeys(input: MemoryInput, active: boolean) {
  const { promote, dispatchPromote: dispatch, room, lastTop } = input;
  const { phase } = promote;
  // The scope chooser: ↑↓ (or s) move between project and user, Enter prepares the plan for it.
  useChooserKeys(
    { onMove: (delta) => dispatch({ type: 'moveScope', delta }), onChoose: () => dispatch({ type: 'prepare' }) },
    { isActive: active && phase === 'choose' },
  );
  useCommandKeys(['toggleScope'], () => dispatch({ type: 'toggleScope' }), { isActive: active && phase === 'choose' });
  useCommandKeys(
    [...SCROLL, 'approvePlan', 'openItem', 'back'],
    (command) => {
      if (command === 'approvePlan') dispatch({ type: 'approve' });
      else if (command === 'openItem') dispatch({ type: 'prepare' });
      else if (command === 'back') dispatch({ type: 'back' });
      else dispatch({ type: 'scroll', delta: scrollStep(command, room, promote.top), lastTop });
    },
    { isActive: active && (phase === 'plan' || phase === 'done') && !busy(phase) },
  );
}

function useEntriesKeys(input: MemoryInput, active: boolean): string | null {
  const { entries, dispatchEntries: dispatch, room, lastTop } = input;
  const text = input.listText ?? { room, lastTop: 0 };
  useCommandKeys(
    ['openSearch', 'back'],
    (command) => dispatch({ type: command === 'openSearch' ? 'openSearch' : 'back' }),
    { isActive: active && !entries.typing },
  );
  useCommandKeys(
    [...SCROLL, 'openItem'],
    (command) => {
      if (command === 'openItem') dispatch({ type: 'openEntry' });
      else dispatch({ type: 'scroll', delta: scrollStep(command, room, entries.top), lastTop });
    },
    { isActive: active && !entries.typing && entries.open !== null },
  );
  // The list's keys typed ahead while its rows are read — the stale entries as the view opens, a
  // search's results after Enter ("/pnpm⏎j⏎") — wait for those rows (widgets/held-list-keys.ts):
  // on the list still shown they would move over, or open, an entry of the list being replaced.
  // A search read again (files changed) keeps its rows on screen: keys act on them at once.
  return useHeldListKeys(
    [...SCROLL, 'openItem'],
    (command) => {
      if (command === 'openItem') dispatch({ type: 'openEntry' });
      else if (command === 'firstPage') {
        dispatch({ type: 'select', delta: -entries.selected });
        dispatch({ type: 'scrollList', delta: -entries.listTop, lastTop: text.lastTop });
      }
      // The text above the list (left-out files) longer than its room: PgDn/PgUp scroll it, and
      // so do ↑↓ when no row is listed to select.
      else if (
        text.lastTop > 0 &&
        (command === 'nextPage' || command === 'previousPage' || listedRows(entries).length === 0)
      )
        dispatch({ type: 'scrollList', delta: scrollStep(command, text.room, entries.listTop), lastTop: text.lastTop });
      else dispatch({ type: 'select', delta: scrollStep(command, room, 0) });
    },
    {
      loading:
        (entries.search !== null && !entries.search.again) ||
        (entries.result === null && entries.stale === null && entries.staleLoad !== null),
      length: listedRows(entries).length,
    },
    { isActive: active && !entries.typing && entries.open === null },
  );
}

function useEntriesLineInput(input: MemoryInput, active: boolean) {
  const { entries, dispatchEntries: dispatch } = input;
  useLineInput(active && entries.typing, {
    onEdit: (edit) => dispatch({ type: 'edit', edit }),
    onSubmit: () => dispatch({ type: 'submitSearch' }),
    onCancel: () => dispatch({ type: 'cancelSearch' }),
  });
}

export interface ExtractionInput {
  scroll(delta: number): void;
  top: number;
  run: ExtractionState;
  dispatch: Dispatch<ExtractionAction>;
  /** The runners memory status lists (builtin first), for the runner key. */
  runners: string[];
}

/** The Usage view's text: scrolled, nothing else. */
export interface UsageInput {
  scroll(delta: number): void;
  top: number;
}

/** Returns the note of keys typed ahead onto a list and dropped (it loaded empty), or null. */
export function useMemoryInput(input: MemoryInput, extraction: ExtractionInput, usage?: UsageInput): string | null {
  const { view } = input;
  const typing = view === 'entries' && input.entries.typing;
  useCommandKeys(
    ['nextView', 'previousView'],
    (command) => {
      const step = command === 'nextView' ? 1 : VIEWS.length - 1;
      input.setView((current) => {
        const index = VIEWS.findIndex((item) => item.name === current);
        return VIEWS[(index + step) % VIEWS.length]!.name;
      });
    },
    { isActive: !typing },
  );
  const reviewNote = useReviewKeys(input, view === 'review');
  usePromoteKeys(input, view === 'promote');
  const entriesNote = useEntriesKeys(input, view === 'entries');
  useEntriesLineInput(input, view === 'entries');
  useCommandKeys(SCROLL, (command) => extraction.scroll(scrollStep(command, input.room, extraction.top)), {
    isActive: view === 'extraction',
  });
  useCommandKeys(SCROLL, (command) => usage?.scroll(scrollStep(command, input.room, usage.top)), {
    isActive: view === 'usage' && usage !== undefined,
  });
  const { dispatch, run } = extraction;
  useCommandKeys(
    ['chooseRunner', 'runExtraction', 'approvePlan', 'back'],
    (command) => {
      if (command === 'chooseRunner') dispatch({ type: 'openRunners', names: extraction.runners });
      else if (command === 'runExtraction') dispatch({ type: 'run' });
      else if (command === 'approvePlan') dispatch({ type: 'approve' });
      else dispatch({ type: 'drop' });
    },
    { isActive: view === 'extraction' && run.request === null },
  );
  // The runner chooser, while open, takes ↑↓, Enter and Esc before the panel; its other keys wait.
  useChooserKeys(
    {
      onMove: (delta) => dispatch({ type: 'moveRunner', delta }),
      onChoose: () => dispatch({ type: 'chooseRunner' }),
      onClose: () => dispatch({ type: 'closeRunners' }),
    },
    {
      isActive: view === 'extraction' && run.choosing !== null,
      priority: PRIORITY.screen + 1,
      holds: [...SCROLL, 'chooseRunner', 'runExtraction', 'approvePlan', 'nextView', 'previousView'],
    },
  );
  return view === 'entries' ? entriesNote : reviewNote;
}
