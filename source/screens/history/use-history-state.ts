// History screen state: which stream, where the page starts, the stack of earlier page starts,
// follow mode and the note input. Keys become named actions; every decision is made here from
// the newest state, so keys that arrive together never act on a stale page.
import { useReducer } from 'react';
import type { JournalRow, TimelineRow } from '../../api/history.js';
import type { Page, Receipt, Stream } from '../../api/common.js';
import type { ShownError } from '../format.js';
import { editLine, emptyLine, type LineEdit, type LineState } from '../keyboard/line-edit.js';

export type HistoryRow = JournalRow | TimelineRow;

export interface LoadedPage {
  stream: Stream;
  /** The keyset position this page was read after. */
  after: number;
  rows: HistoryRow[];
  nextAfter: number;
  head: number;
}

export interface PageRead {
  id: number;
  stream: Stream;
  after: number;
  limit: number;
  storeId: string | undefined;
  /** Background reads (follow polls, after a note) show no spinner. */
  quiet: boolean;
}

export interface NoteAttempt {
  text: string;
  operationId: string;
}

export interface NoteState {
  open: boolean;
  line: LineState;
  submitting: NoteAttempt | null;
  /** Retrying the same text reuses this operation ID: if the failed attempt did commit, the host replays its receipt instead of writing the note twice. */
  failed: NoteAttempt | null;
  receipt: Receipt | null;
  error: ShownError | null;
}

export interface HistoryState {
  stream: Stream;
  limit: number;
  after: number;
  /** Starts of the pages before this one, so going back returns to exactly the rows seen. */
  pageStarts: number[];
  page: LoadedPage | null;
  read: PageRead | null;
  lastReadId: number;
  /** The first page tells us the store; later reads name it, so a cursor never crosses stores. */
  storeId: string | undefined;
  error: ShownError | null;
  following: boolean;
  failures: number;
  note: NoteState;
}

export type HistoryAction =
  | { type: 'toggleStream' }
  | { type: 'nextPage' }
  | { type: 'previousPage' }
  | { type: 'firstPage' }
  | { type: 'refresh' }
  | { type: 'setLimit'; limit: number }
  | { type: 'pageLoaded'; id: number; page: Page<HistoryRow> }
  | { type: 'pageFailed'; id: number; error: ShownError }
  | { type: 'toggleFollow' }
  | { type: 'followStep' }
  | { type: 'openNote' }
  | { type: 'editNote'; edit: LineEdit }
  | { type: 'cancelNote' }
  | { type: 'submitNote'; freshOperationId: string }
  | { type: 'noteSaved'; receipt: Receipt }
  | { type: 'noteFailed'; error: ShownError };

const closedNote: NoteState = {
  open: false,
  line: emptyLine,
  submitting: null,
  failed: null,
  receipt: null,
  error: null,
};

export function initialHistoryState(limit: number): HistoryState {
  const state: HistoryState = {
    stream: 'journal',
    limit,
    after: 0,
    pageStarts: [],
    page: null,
    read: null,
    lastReadId: 0,
    storeId: undefined,
    error: null,
    following: false,
    failures: 0,
    note: closedNote,
  };
  return startRead(state, {}, false);
}

/** Applies `changes` and asks for the page at the resulting position; a newer read supersedes any in flight. */
function startRead(state: HistoryState, changes: Partial<HistoryState>, quiet: boolean): HistoryState {
  const next = { ...state, ...changes };
  const id = state.lastReadId + 1;
  return {
    ...next,
    lastReadId: id,
    read: { id, stream: next.stream, after: next.after, limit: next.limit, storeId: next.storeId, quiet },
  };
}

/** The loaded page when it is the one for the current position, else null (still loading). */
export function currentPage(state: HistoryState): LoadedPage | null {
  const { page } = state;
  return page && page.stream === state.stream && page.after === state.after ? page : null;
}

/** More rows exist past this page: advancing to its nextAfter shows the very next row. */
export function canAdvance(state: HistoryState): boolean {
  const page = currentPage(state);
  return page !== null && page.rows.length > 0 && page.nextAfter < page.head;
}

function advance(state: HistoryState, changes: Partial<HistoryState>, quiet: boolean): HistoryState {
  const page = currentPage(state);
  if (!page) return state;
  return startRead(state, { ...changes, pageStarts: [...state.pageStarts, state.after], after: page.nextAfter }, quiet);
}

export function historyReducer(state: HistoryState, action: HistoryAction): HistoryState {
  switch (action.type) {
    case 'toggleStream':
      return startRead(
        state,
        {
          stream: state.stream === 'journal' ? 'timeline' : 'journal',
          after: 0,
          pageStarts: [],
          page: null,
          error: null,
          following: false,
        },
        false,
      );
    case 'nextPage':
      if (!currentPage(state)) return state; // still loading: its nextAfter is not known yet
      // At the end, re-read this page instead: rows may have arrived since, and an empty page would show nothing.
      return canAdvance(state)
        ? advance(state, { following: false }, false)
        : startRead(state, { following: false }, false);
    case 'previousPage': {
      const previous = state.pageStarts.at(-1);
      if (previous === undefined) return state;
      return startRead(state, { after: previous, pageStarts: state.pageStarts.slice(0, -1), following: false }, false);
    }
    case 'firstPage':
      return startRead(state, { after: 0, pageStarts: [], following: false }, false);
    case 'refresh':
      return startRead(state, {}, false);
    case 'setLimit':
      return action.limit === state.limit ? state : startRead(state, { limit: action.limit }, true);
    case 'pageLoaded': {
      const { read } = state;
      if (!read || read.id !== action.id) return state; // superseded by a newer read
      const { rows, nextAfter, head, storeId } = action.page;
      return {
        ...state,
        read: null,
        storeId,
        error: null,
        failures: 0,
        page: { stream: read.stream, after: read.after, rows, nextAfter, head },
      };
    }
    case 'pageFailed':
      if (!state.read || state.read.id !== action.id) return state;
      return { ...state, read: null, error: action.error, failures: state.failures + 1 };
    case 'toggleFollow':
      return state.following
        ? { ...state, following: false }
        : startRead(state, { following: true, failures: 0 }, true);
    case 'followStep':
      if (!state.following || state.read) return state;
      return canAdvance(state) ? advance(state, {}, true) : startRead(state, {}, true);
    case 'openNote':
      return { ...state, note: { ...state.note, open: true, receipt: null, error: null } };
    case 'editNote':
      if (state.note.submitting) return state;
      return { ...state, note: { ...state.note, line: editLine(state.note.line, action.edit) } };
    case 'cancelNote':
      // A note in flight cannot be called back; wait for its answer so its receipt is not lost.
      if (state.note.submitting) return state;
      return { ...state, note: closedNote };
    case 'submitNote': {
      const { note } = state;
      if (note.submitting) return state;
      const text = note.line.text;
      if (text.trim() === '')
        return { ...state, note: { ...note, error: { code: 'invalid_input', message: 'A note needs some text.' } } };
      const attempt = note.failed?.text === text ? note.failed : { text, operationId: action.freshOperationId };
      return { ...state, note: { ...note, submitting: attempt, failed: null, error: null } };
    }
    case 'noteSaved':
      // Re-read quietly so the new note shows up when this page reaches the head.
      return startRead(state, { note: { ...closedNote, receipt: action.receipt } }, true);
    case 'noteFailed':
      return {
        ...state,
        note: { ...state.note, submitting: null, failed: state.note.submitting, error: action.error },
      };
  }
}

/**
 * The state kept when the screen was left, shown again: the same stream, page, follow mode and note
 * line, the page read again quietly (its rows stay shown meanwhile). A note being saved then lost
 * its answer: it stays typed as a failed attempt, so Enter saves it again under the same operation
 * ID and the host replays the first save's receipt if that one committed.
 */
export function resumedHistory(kept: HistoryState): HistoryState {
  const { note } = kept;
  const resumedNote = note.submitting ? { ...note, submitting: null, failed: note.submitting } : note;
  return startRead({ ...kept, read: null, error: null, failures: 0, note: resumedNote }, {}, true);
}

export function useHistoryState(limit: number, kept?: HistoryState) {
  return useReducer(historyReducer, limit, (rows) => (kept ? resumedHistory(kept) : initialHistoryState(rows)));
}
