// The selected agent's live history: reads its timeline (or journal) forward from the start in
// bounded pages and keeps only the newest FEED_KEEP rows, then polls at the head like History's
// follow mode. The API has no "last N rows" read, so a long history is caught up page by page once.
import { useReducer } from 'react';
import { FOLLOW_BACKOFF_MAX_MS, FOLLOW_POLL_MS, PAGE_LIMIT_MAX } from '../../limits.js';
import type { Application } from '../../api/application.js';
import type { JournalRow, TimelineRow } from '../../api/history.js';
import type { Page, Stream } from '../../api/common.js';
import type { ShownError } from '../format.js';
import { useRequestLoop } from '../widgets/use-request.js';

export type FeedRow = JournalRow | TimelineRow;

/** Rows kept in memory: more than any terminal shows, so a resize never needs a re-read. */
export const FEED_KEEP = 200;

export interface FeedState {
  /** Which agent and stream these rows belong to; rows of a previous selection are never shown. */
  key: string;
  rows: FeedRow[];
  head: number;
  caughtUp: boolean;
  error: ShownError | null;
}

type FeedAction =
  | { type: 'reset'; key: string }
  | { type: 'rows'; key: string; page: Page<FeedRow> }
  | { type: 'failed'; key: string; error: ShownError };

const emptyFeed = (key: string): FeedState => ({ key, rows: [], head: 0, caughtUp: false, error: null });

function feedReducer(state: FeedState, action: FeedAction): FeedState {
  if (action.type === 'reset') return emptyFeed(action.key);
  if (action.key !== state.key) return state; // an answer for an earlier selection
  if (action.type === 'failed') return { ...state, error: action.error };
  const { rows, head, nextAfter } = action.page;
  const kept = rows.length === 0 ? state.rows : [...state.rows, ...rows].slice(-FEED_KEEP);
  return { ...state, rows: kept, head, caughtUp: rows.length === 0 || nextAfter >= head, error: null };
}

export const feedKey = (agentId: string | null, stream: Stream): string => `${agentId ?? ''}:${stream}`;

export function useAgentFeed(app: Application, agentId: string | null, stream: Stream): FeedState {
  const key = feedKey(agentId, stream);
  const [state, dispatch] = useReducer(feedReducer, key, emptyFeed);
  useRequestLoop(() => {
    dispatch({ type: 'reset', key });
    if (!agentId) return undefined;
    let after = 0;
    let failures = 0;
    let storeId: string | undefined;
    return {
      run: (): Promise<Page<FeedRow>> => {
        const request = { after, limit: PAGE_LIMIT_MAX, agentId, storeId };
        return stream === 'journal' ? app.journal(request) : app.timeline(request);
      },
      answered: (page) => {
        failures = 0;
        storeId = page.storeId; // later reads name the store, so this cursor never crosses stores
        after = page.nextAfter;
        dispatch({ type: 'rows', key, page });
        return page.rows.length > 0 && page.nextAfter < page.head ? 0 : FOLLOW_POLL_MS; // 0: still catching up
      },
      failed: (error) => {
        failures += 1;
        dispatch({ type: 'failed', key, error });
        return Math.min(FOLLOW_POLL_MS * 2 ** failures, FOLLOW_BACKOFF_MAX_MS);
      },
    };
  }, [app, agentId, stream, key]);
  return state.key === key ? state : emptyFeed(key);
}

// An abort request carries the abort's own operation ID, so only these journal kinds name a prompt.
const PROMPT_KINDS = new Set(['prompt.requested', 'prompt.attempted', 'prompt.interrupted']);

/** The newest prompt operation on screen: what "abandon" acts on. Timeline rows all belong to prompts; journal rows only when they are prompt events. */
export function latestOperationId(rows: readonly FeedRow[]): string | null {
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (!row?.operationId) continue;
    if ('role' in row || PROMPT_KINDS.has(row.kind)) return row.operationId;
  }
  return null;
}
