// Extraction state: the runner chosen for the next run, the run in flight, the plan an external
// runner stopped at (shown whole: task, provider, model, endpoint, bytes, coverage, retention) and
// the last report. Only `approve` — its own key — runs with the plan's digest; starting a run again
// never approves, and a plan is approved with exactly the digest it was shown with.
import type { MemoryExtractReport, PendingAuthorization } from '../../api/memory-runs.js';
import { approvalOf } from '../../runner-plan-text.js';
import type { ShownError } from '../format.js';

export interface ExtractionRequest {
  id: number;
  runner: string;
  approvePlan?: string;
  approveManifest?: string;
}

export interface ExtractionState {
  /** The runner the next run uses (null: the builtin one, until status lists the profiles). */
  runner: string | null;
  /** The run in flight, or null. */
  request: ExtractionRequest | null;
  requestId: number;
  pending: PendingAuthorization | null;
  report: MemoryExtractReport | null;
  error: ShownError | null;
}

export type ExtractionAction =
  | { type: 'nextRunner'; names: string[] }
  | { type: 'run' }
  | { type: 'approve' }
  | { type: 'drop' }
  | { type: 'answered'; id: number; report: MemoryExtractReport }
  | { type: 'failed'; id: number; error: ShownError };

export const initialExtractionState: ExtractionState = {
  runner: null,
  request: null,
  requestId: 0,
  pending: null,
  report: null,
  error: null,
};

export function extractionReducer(state: ExtractionState, action: ExtractionAction): ExtractionState {
  switch (action.type) {
    case 'nextRunner': {
      if (state.request || action.names.length === 0) return state;
      const index = action.names.indexOf(state.runner ?? 'builtin');
      // Another runner is another destination: a plan shown for the old one is dropped.
      return { ...state, runner: action.names[(index + 1) % action.names.length]!, pending: null, error: null };
    }
    case 'run': {
      if (state.request) return state;
      const id = state.requestId + 1;
      return {
        ...state,
        requestId: id,
        request: { id, runner: state.runner ?? 'builtin' },
        pending: null,
        error: null,
      };
    }
    case 'approve': {
      if (state.request || !state.pending) return state;
      const id = state.requestId + 1;
      const request = { id, runner: state.pending.runner, ...approvalOf(state.pending) };
      return { ...state, requestId: id, request, error: null };
    }
    case 'drop':
      return state.request ? state : { ...state, pending: null };
    case 'answered':
      if (state.request?.id !== action.id) return state;
      return { ...state, request: null, report: action.report, pending: action.report.pendingPlan ?? null };
    case 'failed':
      if (state.request?.id !== action.id) return state;
      return { ...state, request: null, error: action.error };
  }
}
