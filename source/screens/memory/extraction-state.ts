// Extraction state: the runner chosen for the next run (r opens the runner chooser: its highlight
// lives here, so keys that arrive together move from the newest state), the run in flight, the
// plan an external runner stopped at (shown whole: task, provider, model, endpoint, bytes,
// coverage, retention) and the last report. Only `approve` — its own key — runs with the plan's
// digest; starting a run again never approves, and a plan is approved with exactly the digest it
// was shown with.
import type { MemoryExtractReport, PendingAuthorization } from '../../api/memory-runs.js';
import { approvalOf } from '../../runner-plan-text.js';
import type { ShownError } from '../format.js';
import { moveSelection } from '../widgets/list-window.js';

export interface ExtractionRequest {
  id: number;
  runner: string;
  approvePlan?: string;
  approveManifest?: string;
}

export interface ExtractionState {
  /** The runner the next run uses (null: the builtin one, until status lists the profiles). */
  runner: string | null;
  /** The runner chooser while open: the runners as listed when it opened, and the highlighted one. */
  choosing: { names: readonly string[]; highlighted: number } | null;
  /** The run in flight, or null. */
  request: ExtractionRequest | null;
  requestId: number;
  pending: PendingAuthorization | null;
  report: MemoryExtractReport | null;
  error: ShownError | null;
}

export type ExtractionAction =
  | { type: 'openRunners'; names: readonly string[] }
  | { type: 'moveRunner'; delta: number }
  | { type: 'chooseRunner' }
  | { type: 'closeRunners' }
  | { type: 'run' }
  | { type: 'approve' }
  | { type: 'drop' }
  | { type: 'answered'; id: number; report: MemoryExtractReport }
  | { type: 'failed'; id: number; error: ShownError };

export const initialExtractionState: ExtractionState = {
  runner: null,
  choosing: null,
  request: null,
  requestId: 0,
  pending: null,
  report: null,
  error: null,
};

export function extractionReducer(state: ExtractionState, action: ExtractionAction): ExtractionState {
  switch (action.type) {
    case 'openRunners': {
      if (state.request || action.names.length === 0) return state;
      const highlighted = Math.max(0, action.names.indexOf(state.runner ?? 'builtin'));
      return { ...state, choosing: { names: action.names, highlighted } };
    }
    case 'moveRunner': {
      if (!state.choosing) return state;
      const { names, highlighted } = state.choosing;
      return { ...state, choosing: { names, highlighted: moveSelection(highlighted, action.delta, names.length) } };
    }
    case 'chooseRunner': {
      const runner = state.choosing?.names[state.choosing.highlighted];
      if (!runner) return state;
      if (runner === (state.runner ?? 'builtin')) return { ...state, choosing: null };
      // Another runner is another destination: a plan shown for the old one is dropped.
      return { ...state, runner, choosing: null, pending: null, error: null };
    }
    case 'closeRunners':
      return { ...state, choosing: null };
    case 'run': {
      if (state.request || state.choosing) return state;
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
      if (state.request || state.choosing || !state.pending) return state;
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
