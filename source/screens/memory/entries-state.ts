// Entries state: the search line, the last search's answer (with generation and coverage), the
// stale entries listed before any search, the memory files left out, the selected row, the scroll
// position of the text above the list, and the open entry with its scroll position.
import type { MemoryEntryView, MemorySearchResult, MemoryStaleResult } from '../../api/memory-views.js';
import type { LeftOutFile } from './entries-lines.js';
import type { ShownError } from '../format.js';
import { editLine, emptyLine, type LineEdit, type LineState } from '../keyboard/line-edit.js';
import { moveSelection } from '../widgets/list-window.js';

export interface EntriesState {
  typing: boolean;
  /** The search line being typed; the query searched is `search` in flight, then `result`'s. */
  line: LineState;
  /** A search in flight; `again`: the last one read anew (files or verdicts changed), the selection kept in range. */
  search: { id: number; query: string; again?: boolean } | null;
  lastId: number;
  result: (MemorySearchResult & { query: string }) | null;
  selected: number;
  open: { id: number; entryId: string } | null;
  entry: MemoryEntryView | null;
  top: number;
  error: ShownError | null;
  /** The stale entries of this worktree (memoryStale), read when the screen opens; listed until a search. */
  staleLoad: { id: number } | null;
  stale: MemoryStaleResult | null;
  /** The files nothing gives back (memory status), read once the stale list is: after any scan that read made. */
  leftOutLoad: { id: number } | null;
  leftOut: LeftOutFile[] | null;
  /** The first line shown of the text above the list (the heading, the left-out files), when it is longer than its room. */
  listTop: number;
}

/** The rows the list shows and Enter opens: the last search's, or before any search the stale entries. */
export function listedRows(
  state: EntriesState,
): Array<{ entryId: string; title: string; scope: string; path: string }> {
  return state.result ? state.result.results : (state.stale?.entries ?? []);
}

/**
 * The query the list's heading names: the one being searched (its spinner beside it), else the one
 * whose results are shown; null before any search. Never the line being typed or cancelled.
 */
export const shownQuery = (state: EntriesState): string | null => state.search?.query ?? state.result?.query ?? null;

export type EntriesAction =
  | { type: 'openSearch' }
  | { type: 'edit'; edit: LineEdit }
  | { type: 'cancelSearch' }
  | { type: 'submitSearch' }
  | { type: 'searched'; id: number; result: MemorySearchResult }
  | { type: 'select'; delta: number }
  | { type: 'openEntry' }
  | { type: 'entryRead'; id: number; entry: MemoryEntryView }
  | { type: 'failed'; id: number; error: ShownError }
  | { type: 'scroll'; delta: number; lastTop: number }
  | { type: 'staleLoaded'; id: number; stale: MemoryStaleResult }
  | { type: 'leftOutLoaded'; id: number; files: LeftOutFile[] }
  | { type: 'scrollList'; delta: number; lastTop: number }
  /** Verdicts or files changed (a re-verification, a retirement): the stale list and the open entry are read again. */
  | { type: 'reread'; closeEntry: boolean }
  | { type: 'back' };

/**
 * The row selected once the list is read again: the entry selected before, wherever it now is
 * (entries came in above it or left); on the same row, or the last, when that entry is gone.
 */
function keptSelection(state: EntriesState, rows: readonly { entryId: string }[]): number {
  const was = listedRows(state)[state.selected]?.entryId;
  const at = rows.findIndex((row) => row.entryId === was);
  return at >= 0 ? at : Math.min(state.selected, Math.max(0, rows.length - 1));
}

export const initialEntriesState: EntriesState = {
  typing: false,
  line: emptyLine,
  search: null,
  lastId: 0,
  result: null,
  selected: 0,
  open: null,
  entry: null,
  top: 0,
  error: null,
  staleLoad: { id: 0 },
  stale: null,
  leftOutLoad: null,
  leftOut: null,
  listTop: 0,
};

export function entriesReducer(state: EntriesState, action: EntriesAction): EntriesState {
  switch (action.type) {
    case 'openSearch':
      // An empty line each time: typing never appends to a query searched or cancelled before.
      return { ...state, typing: true, line: emptyLine, open: null, entry: null };
    case 'edit':
      return { ...state, line: editLine(state.line, action.edit) };
    case 'cancelSearch':
      return { ...state, typing: false };
    case 'submitSearch': {
      const query = state.line.text.trim();
      if (query === '') return { ...state, typing: false };
      const id = state.lastId + 1;
      return { ...state, typing: false, lastId: id, search: { id, query }, error: null };
    }
    case 'searched':
      if (state.search?.id !== action.id) return state;
      return {
        ...state,
        result: { ...action.result, query: state.search.query },
        search: null,
        listTop: state.search.again ? state.listTop : 0,
        selected: state.search.again ? keptSelection(state, action.result.results) : 0,
      };
    case 'select':
      return { ...state, selected: moveSelection(state.selected, action.delta, listedRows(state).length) };
    case 'openEntry': {
      const hit = listedRows(state)[state.selected];
      if (!hit) return state;
      const id = state.lastId + 1;
      return { ...state, lastId: id, open: { id, entryId: hit.entryId }, entry: null, top: 0, error: null };
    }
    case 'entryRead':
      return state.open?.id === action.id ? { ...state, entry: action.entry } : state;
    case 'failed':
      if (state.search?.id === action.id) return { ...state, search: null, error: action.error };
      if (state.open?.id === action.id) return { ...state, error: action.error };
      return state;
    case 'scroll':
      return { ...state, top: Math.min(action.lastTop, Math.max(0, state.top + action.delta)) };
    case 'staleLoaded':
      if (state.staleLoad?.id !== action.id) return state;
      return {
        ...state,
        stale: action.stale,
        staleLoad: null,
        leftOutLoad: { id: action.id },
        // Listed (no search yet), the stale list read again keeps the selection on its entry.
        selected: state.result ? state.selected : keptSelection(state, action.stale.entries),
      };
    case 'leftOutLoaded':
      return state.leftOutLoad?.id === action.id ? { ...state, leftOut: action.files, leftOutLoad: null } : state;
    case 'scrollList':
      return { ...state, listTop: Math.min(action.lastTop, Math.max(0, state.listTop + action.delta)) };
    case 'back':
      return { ...state, open: null, entry: null, error: null };
    case 'reread': {
      const id = state.lastId + 1;
      const open = state.open && !action.closeEntry ? { id, entryId: state.open.entryId } : null;
      // The stale list, once shown, is read again, and so is the last search's answer (a retired
      // entry leaves it); the selection stays in range of whatever comes back.
      const search = state.result ? { id: id + 1, query: state.result.query, again: true } : state.search;
      return {
        ...state,
        lastId: state.result ? id + 1 : id,
        staleLoad: { id },
        open,
        entry: open ? state.entry : null,
        search,
        error: null,
      };
    }
  }
}

/**
 * The state kept when the screen was left, shown again: the search line being typed, the query
 * and the selection on its entry, the open entry — all read again (the stale list, the left-out
 * files, the last search, the open entry), as after a re-verification. A search then in flight is
 * asked again.
 */
export function resumedEntries(kept: EntriesState | undefined): EntriesState {
  if (kept === undefined) return initialEntriesState;
  const read = entriesReducer({ ...kept, leftOutLoad: null, error: null }, { type: 'reread', closeEntry: false });
  if (!kept.search) return read;
  const id = read.lastId + 1;
  return { ...read, lastId: id, search: { ...kept.search, id } };
}
