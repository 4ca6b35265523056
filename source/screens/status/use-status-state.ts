// Processing status state: the capture status for the current recovery page, the stack of
// earlier page cursors (so "back" returns to exactly the items seen), the selected item, a
// pending retry confirmation and the one drain / flush / retry in flight. Only one page of
// recovery items (at most twenty) is ever held, whatever the total.
import { useReducer } from 'react';
import type { CaptureStatus, DrainReport, FlushReport } from '../../api/capture.js';
import type { ShownError } from '../format.js';
import { moveSelection } from '../widgets/list-window.js';

export type StatusJob = { kind: 'drain' } | { kind: 'flush' } | { kind: 'retry'; recoveryId: string };

export interface StatusRead {
  id: number;
  cursor: string | undefined;
  /** Periodic refreshes show no spinner. */
  quiet: boolean;
}

export interface StatusState {
  /** afterRecovery of the page shown (undefined: the first page). */
  cursor: string | undefined;
  previousCursors: (string | undefined)[];
  status: CaptureStatus | null;
  /** The cursor `status` was read at: until it equals `cursor`, the page shown is still the previous one. */
  statusCursor: string | undefined | null;
  read: StatusRead | null;
  lastReadId: number;
  selected: number;
  /** The recovery item a retry waits to be confirmed for. */
  confirming: string | null;
  job: (StatusJob & { id: number; startedAt: number }) | null;
  lastJobId: number;
  result: string | null;
  error: { action: string; error: ShownError } | null;
  /**
   * The pages around this one (back, here, next), read ahead so "more" and "back" show a page at
   * once: a status read costs ~15 ms with 10k items (its counts, not the page), too much to wait
   * for inside the 50 ms key → frame budget. The periodic refresh keeps the shown page current.
   */
  cache: CachedPage[];
}

export interface CachedPage {
  cursor: string | undefined;
  status: CaptureStatus;
}

export type StatusAction =
  | { type: 'nextPage' | 'previousPage' | 'firstPage' | 'refresh' | 'poll' | 'selectUp' | 'selectDown' }
  | { type: 'retryItem' | 'confirm' | 'decline' | 'drainNow' | 'flushNow' }
  | { type: 'loaded'; id: number; status: CaptureStatus }
  | { type: 'prefetched'; cursor: string | undefined; status: CaptureStatus }
  | { type: 'failed'; id: number; error: ShownError }
  | { type: 'jobDone'; id: number; report: DrainReport | FlushReport; at: number }
  | { type: 'jobFailed'; id: number; error: ShownError };

function read(state: StatusState, changes: Partial<StatusState>, quiet: boolean): StatusState {
  const next = { ...state, ...changes };
  const id = state.lastReadId + 1;
  return { ...next, lastReadId: id, read: { id, cursor: next.cursor, quiet } };
}

export const initialStatusState: StatusState = read(
  {
    cursor: undefined,
    previousCursors: [],
    status: null,
    statusCursor: null,
    read: null,
    lastReadId: 0,
    selected: 0,
    confirming: null,
    job: null,
    lastJobId: 0,
    result: null,
    error: null,
    cache: [],
  },
  {},
  false,
);

/** The items of the current page; none while another page is loading, so no key acts on a stale row. */
export const pageItems = (state: StatusState) =>
  state.statusCursor === state.cursor ? (state.status?.recovery.items ?? []) : [];
const items = pageItems;

/** The cursors worth keeping from where `state` stands: the page before, this one, the next. At most three pages are held. */
function neighbours(state: StatusState): (string | undefined)[] {
  const next = state.statusCursor === state.cursor ? state.status?.recovery.nextRecoveryId : null;
  return [
    ...(state.previousCursors.length > 0 ? [state.previousCursors.at(-1)] : []),
    state.cursor,
    ...(next ? [next] : []),
  ];
}

function remember(state: StatusState, page: CachedPage): StatusState {
  const keep = neighbours(state);
  const cache = [...state.cache.filter((entry) => entry.cursor !== page.cursor), page].filter((entry) =>
    keep.includes(entry.cursor),
  );
  return { ...state, cache };
}

/** Moves to the page at `cursor`: shown at once from the cache, or read with a spinner. */
function showPage(
  state: StatusState,
  cursor: string | undefined,
  previousCursors: (string | undefined)[],
): StatusState {
  const changes = { cursor, previousCursors, selected: 0, confirming: null };
  const cached = state.cache.find((entry) => entry.cursor === cursor);
  if (!cached) return read(state, changes, false);
  const moved = { ...state, ...changes, status: cached.status, statusCursor: cursor };
  return { ...moved, cache: state.cache.filter((entry) => neighbours(moved).includes(entry.cursor)) };
}

/** The neighbour page to read ahead (next first, then back), when this one is shown and no drain runs. */
export function prefetchCursor(state: StatusState): string | undefined | null {
  if (state.job || state.statusCursor !== state.cursor) return null;
  const missing = neighbours(state).filter(
    (cursor) => cursor !== state.cursor && !state.cache.some((entry) => entry.cursor === cursor),
  );
  return missing.length === 0 ? null : (missing.at(-1) ?? null);
}

function startJob(state: StatusState, job: StatusJob): StatusState {
  if (state.job) return state; // one at a time: the progress and the result shown belong to it
  const id = state.lastJobId + 1;
  return {
    ...state,
    job: { ...job, id, startedAt: Date.now() },
    lastJobId: id,
    confirming: null,
    result: null,
    error: null,
  };
}

export function describeReport(job: StatusJob, report: DrainReport | FlushReport, elapsedMs: number): string {
  const took = `${(elapsedMs / 1000).toFixed(1)}s`;
  if (job.kind === 'retry') {
    return report.recovered
      ? `retry ${job.recoveryId}: recovered — the item is consumed (${took})`
      : `retry ${job.recoveryId}: still failing — kept as ${job.recoveryId} (${took})`;
  }
  const done = `${report.steps} steps · ${report.sealedTurns} turns sealed · ${report.isolated.length} isolated`;
  if (job.kind === 'drain' || !('complete' in report)) return `drain: ${done} (${took})`;
  if (report.complete) return `flush complete — ${done} (${took})`;
  // What is left matters more than what was done: it is why flush says incomplete (and exits 3 in the CLI).
  const { buffered, inbox, watch, isolated } = report.remaining;
  return `flush incomplete — left: buffered ${buffered} · inbox ${inbox} · watch ${watch} · isolated ${isolated} · sealed ${report.sealedTurns} (${took})`;
}

export function statusReducer(state: StatusState, action: StatusAction): StatusState {
  switch (action.type) {
    case 'nextPage': {
      // Only from a loaded page: its nextRecoveryId is where the next page starts.
      const next = state.statusCursor === state.cursor ? state.status?.recovery.nextRecoveryId : null;
      if (!next) return state;
      return showPage(state, next, [...state.previousCursors, state.cursor]);
    }
    case 'previousPage': {
      if (state.previousCursors.length === 0) return state;
      return showPage(state, state.previousCursors.at(-1), state.previousCursors.slice(0, -1));
    }
    case 'firstPage':
      return showPage(state, undefined, []);
    case 'refresh':
      return read(state, {}, false);
    case 'poll':
      return state.read ? state : read(state, {}, true);
    case 'selectUp':
      return { ...state, selected: moveSelection(state.selected, -1, items(state).length), confirming: null };
    case 'selectDown':
      return { ...state, selected: moveSelection(state.selected, 1, items(state).length), confirming: null };
    case 'retryItem': {
      const item = items(state)[state.selected];
      return item && !state.job ? { ...state, confirming: item.id, error: null } : state;
    }
    case 'confirm':
      return state.confirming ? startJob(state, { kind: 'retry', recoveryId: state.confirming }) : state;
    case 'decline':
      return { ...state, confirming: null };
    case 'drainNow':
      return startJob(state, { kind: 'drain' });
    case 'flushNow':
      return startJob(state, { kind: 'flush' });
    case 'loaded': {
      if (state.read?.id !== action.id) return state; // superseded by a newer read
      const count = action.status.recovery.items.length;
      // The page read again keeps the selection on its item wherever it now is (items left above
      // it); on the same row, or the last, once that item is gone.
      const was = state.statusCursor === state.read.cursor ? items(state)[state.selected]?.id : undefined;
      const at = action.status.recovery.items.findIndex((item) => item.id === was);
      const loaded: StatusState = {
        ...state,
        read: null,
        status: action.status,
        statusCursor: state.read.cursor,
        selected: at >= 0 ? at : Math.min(state.selected, Math.max(0, count - 1)),
        error: state.error?.action === 'status' ? null : state.error,
      };
      return remember(loaded, { cursor: state.read.cursor, status: action.status });
    }
    case 'prefetched':
      return remember(state, { cursor: action.cursor, status: action.status });
    case 'failed':
      if (state.read?.id !== action.id) return state;
      return { ...state, read: null, error: { action: 'status', error: action.error } };
    case 'jobDone': {
      if (state.job?.id !== action.id) return state;
      // Re-read at once: the counts and the page changed with the drain.
      // Items were consumed or added: cached pages no longer tell the truth.
      return read(
        state,
        { job: null, cache: [], result: describeReport(state.job, action.report, action.at - state.job.startedAt) },
        true,
      );
    }
    case 'jobFailed': {
      if (state.job?.id !== action.id) return state;
      const name = state.job.kind === 'retry' ? `retry ${state.job.recoveryId}` : state.job.kind;
      return read(state, { job: null, error: { action: name, error: action.error } }, true);
    }
  }
}

/**
 * The state kept when the screen was left, shown again: the same page and selected item, read
 * again (the pages read ahead dropped with it); a drain, flush or retry then running is still the
 * job (followed, not sent again); an open retry question is closed.
 */
export function resumedStatus(kept: StatusState | undefined): StatusState {
  if (kept === undefined) return initialStatusState;
  const error = kept.error?.action === 'status' ? null : kept.error;
  return read({ ...kept, read: null, confirming: null, cache: [], error }, {}, false);
}

export function useStatusState(kept: StatusState | undefined) {
  return useReducer(statusReducer, kept, resumedStatus);
}
