// The history screen's requests: page reads, follow polling and note submission. Each effect
// reports back with an action carrying its read ID; a superseded or unmounted request's answer
// is dropped, and every rejection becomes an on-screen error.
import { useEffect, type Dispatch } from 'react';
import { FOLLOW_BACKOFF_MAX_MS, FOLLOW_POLL_MS } from '../../limits.js';
import type { Application } from '../../api/application.js';
import type { Page, PageRequest } from '../../api/common.js';
import { useRequest } from '../widgets/use-request.js';
import {
  canAdvance,
  type HistoryAction,
  type HistoryRow,
  type HistoryState,
  type PageRead,
} from './use-history-state.js';

function readPage(app: Application, read: PageRead): Promise<Page<HistoryRow>> {
  const request: PageRequest = { after: read.after, limit: read.limit, storeId: read.storeId };
  return read.stream === 'journal' ? app.journal(request) : app.timeline(request);
}

export function useHistoryEffects(app: Application, state: HistoryState, dispatch: Dispatch<HistoryAction>): void {
  const { read, following, error, failures } = state;
  const { submitting } = state.note;
  const advanceNow = canAdvance(state);

  useRequest(read, (page) => readPage(app, page), {
    answered: (page, { id }) => dispatch({ type: 'pageLoaded', id, page }),
    failed: (error, { id }) => dispatch({ type: 'pageFailed', id, error }),
  });

  // Follow: read on at once while pages are behind the head; at the head, poll every
  // FOLLOW_POLL_MS; after failures, back off up to FOLLOW_BACKOFF_MAX_MS so a restarting host is picked up.
  useEffect(() => {
    if (!following || read) return;
    const delay = error
      ? Math.min(FOLLOW_POLL_MS * 2 ** failures, FOLLOW_BACKOFF_MAX_MS)
      : advanceNow
        ? 0
        : FOLLOW_POLL_MS;
    const timer = setTimeout(() => dispatch({ type: 'followStep' }), delay);
    return () => clearTimeout(timer);
  }, [following, read, error, failures, advanceNow, dispatch]);

  useRequest(submitting, (note) => app.appendNote({ text: note.text, operationId: note.operationId }), {
    answered: (receipt) => dispatch({ type: 'noteSaved', receipt }),
    failed: (error) => dispatch({ type: 'noteFailed', error }),
  });
}
