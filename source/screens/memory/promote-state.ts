// Prepare & promote state: the candidates chosen on Review and the scope (a chooser: the highlighted
// scope is the chosen one), then the plan (its diff scrolled), the approval, the write and its
// result. Approval is its own action from its own key; nothing else in this reducer approves, and a
// plan is approved with the digest it was shown with.
import type { ShownError } from '../format.js';
import { moveSelection } from '../widgets/list-window.js';
import type { MemoryPlanView, MemoryPromoteResult } from '../../api/memory-views.js';

export interface ChosenCandidate {
  candidateId: string;
  /** The candidate's first line, as the list shows it. */
  label: string;
  /** Its own scope: the plan goes into its repository's memory root, or the user's. */
  scope: 'project' | 'user';
  /** Its repository's directory name (null for the user scope). */
  repository: string | null;
}

/** The memory roots a plan can go into, in the order the scope chooser lists them. */
export const SCOPES = ['project', 'user'] as const;

/**
 * The scopes the chooser offers for these candidates: a candidate made outside any git worktree
 * (user scope) has no repository's memory to go into, so with one among them only the user scope.
 */
export const scopesFor = (chosen: readonly ChosenCandidate[]): ReadonlyArray<'project' | 'user'> =>
  chosen.some((item) => item.scope === 'user') ? ['user'] : SCOPES;

export type PromotePhase = 'choose' | 'preparing' | 'plan' | 'approving' | 'promoting' | 'withdrawing' | 'done';

/** An approved entry to retire (from Entries): the plan removes its file instead of writing candidates. */
export interface RetiringEntry {
  entryId: string;
  scope: 'project' | 'user';
  title: string;
}

/** Operations of a consolidation patch taken on Review: the plan writes and removes what they say. */
export interface ChosenPatch {
  taskId: string;
  scope: 'project' | 'user';
  /** The operations taken, by number (from 1), and how many the patch has. */
  operations: number[];
  count: number;
}

export interface PromoteState {
  chosen: ChosenCandidate[];
  /** Set: the plan is these operations of a consolidation patch (memoryPrepare with `patch`). */
  patch: ChosenPatch | null;
  /** Set: the plan is this entry's retirement (memoryRetire), not a promotion of `chosen`. */
  retire: RetiringEntry | null;
  scope: 'project' | 'user';
  phase: PromotePhase;
  /** Bumped for every request, so an answer to an older one is dropped. */
  requestId: number;
  plan: MemoryPlanView | null;
  /** The host accepted the approval of this plan's digest: a failed write is retried without approving twice. */
  approved: boolean;
  top: number;
  result: MemoryPromoteResult | null;
  /** The plan as the journal holds it while its files are written: their states are the progress. */
  live: MemoryPlanView | null;
  error: ShownError | null;
}

export type PromoteAction =
  | { type: 'choose'; chosen: ChosenCandidate[] }
  /** Prepares the retirement plan of an approved entry at once: its removal is shown, approved with the same key. */
  | { type: 'retire'; entry: RetiringEntry }
  /** Prepares the plan of a consolidation patch's taken operations at once. */
  | { type: 'patch'; patch: ChosenPatch }
  | { type: 'toggleScope' }
  /** The scope chooser's highlight moves: the highlighted scope is the one Enter prepares for. */
  | { type: 'moveScope'; delta: number }
  | { type: 'prepare' }
  | { type: 'prepared'; id: number; plan: MemoryPlanView }
  | { type: 'approve' }
  | { type: 'approved'; id: number; plan: MemoryPlanView }
  | { type: 'progress'; id: number; plan: MemoryPlanView }
  | { type: 'promoted'; id: number; result: MemoryPromoteResult }
  | { type: 'failed'; id: number; error: ShownError }
  | { type: 'scroll'; delta: number; lastTop: number }
  /** The host voided the plan Esc withdrew: back to the chooser, the candidates still chosen. */
  | { type: 'withdrawn'; id: number }
  | { type: 'back' };

/** What a new choice of candidates starts from: no plan, nothing approved, nothing written. */
const FRESH: Pick<PromoteState, 'plan' | 'approved' | 'top' | 'result' | 'live' | 'error'> = {
  plan: null,
  approved: false,
  top: 0,
  result: null,
  live: null,
  error: null,
};

export const initialPromoteState: PromoteState = {
  chosen: [],
  patch: null,
  retire: null,
  scope: 'project',
  phase: 'choose',
  requestId: 0,
  ...FRESH,
};

/** Which request a phase has in flight. */
export const busy = (phase: PromotePhase): boolean =>
  phase === 'preparing' || phase === 'approving' || phase === 'promoting' || phase === 'withdrawing';

export function promoteReducer(state: PromoteState, action: PromoteAction): PromoteState {
  const next = (changes: Partial<PromoteState>): PromoteState => ({
    ...state,
    ...changes,
    requestId: state.requestId + 1,
  });
  switch (action.type) {
    case 'choose':
      if (busy(state.phase)) return state;
      // The candidates' own scope first: a user-scope candidate has no repository to go to.
      return {
        ...state,
        ...FRESH,
        retire: null,
        patch: null,
        chosen: action.chosen,
        scope: scopesFor(action.chosen)[0]!,
        phase: 'choose',
      };
    case 'retire':
      if (busy(state.phase)) return state;
      return next({
        ...FRESH,
        chosen: [],
        patch: null,
        retire: action.entry,
        scope: action.entry.scope,
        phase: 'preparing',
      });
    case 'patch':
      if (busy(state.phase) || action.patch.operations.length === 0) return state;
      return next({
        ...FRESH,
        chosen: [],
        retire: null,
        patch: action.patch,
        scope: action.patch.scope,
        phase: 'preparing',
      });
    case 'toggleScope': {
      const scopes = scopesFor(state.chosen);
      if (state.phase !== 'choose' || state.retire || state.patch || scopes.length < 2) return state;
      return { ...state, scope: state.scope === 'project' ? 'user' : 'project', error: null };
    }
    case 'moveScope': {
      const scopes = scopesFor(state.chosen);
      if (state.phase !== 'choose' || state.chosen.length === 0) return state;
      const index = moveSelection(scopes.indexOf(state.scope), action.delta, scopes.length);
      return { ...state, scope: scopes[index]!, error: null };
    }
    case 'prepare':
      // From the chooser, or again after a result (a voided plan is prepared anew from the same candidates).
      if (
        (state.phase !== 'choose' && state.phase !== 'done') ||
        (state.chosen.length === 0 && !state.retire && !state.patch)
      )
        return state;
      return next({ ...FRESH, phase: 'preparing' });
    case 'prepared':
      return action.id === state.requestId && state.phase === 'preparing'
        ? { ...state, phase: 'plan', plan: action.plan, top: 0 }
        : state;
    case 'approve':
      if (state.phase !== 'plan' || !state.plan) return state;
      // Approved already (its write failed): write again, never approve twice.
      return next({ phase: state.approved ? 'promoting' : 'approving', error: null });
    case 'approved':
      if (action.id !== state.requestId || state.phase !== 'approving') return state;
      // A plan whose candidates moved since it was prepared is voided by the approval itself.
      if (action.plan.status === 'voided')
        return { ...state, phase: 'done', result: { ...action.plan, sync: null, alreadyApplied: false }, top: 0 };
      return next({ phase: 'promoting', approved: true });
    case 'progress':
      return action.id === state.requestId && state.phase === 'promoting' ? { ...state, live: action.plan } : state;
    case 'promoted':
      return action.id === state.requestId && state.phase === 'promoting'
        ? { ...state, phase: 'done', result: action.result, top: 0 }
        : state;
    case 'failed': {
      if (action.id !== state.requestId) return state;
      const phase = state.phase === 'preparing' ? 'choose' : state.phase === 'done' ? 'done' : 'plan';
      return { ...state, phase, error: action.error };
    }
    case 'scroll':
      return { ...state, top: Math.min(action.lastTop, Math.max(0, state.top + action.delta)) };
    case 'back':
      if (busy(state.phase) || state.phase === 'choose') return state;
      // A plan shown and not approved is withdrawn (voided by the host) before the screen goes back:
      // left generated, it could still be approved elsewhere by its digest. An approved plan whose
      // write failed is left approved: memory promote finishes it.
      if (state.phase === 'plan' && state.plan && !state.approved) return next({ phase: 'withdrawing', error: null });
      return chooseAgain(state);
    case 'withdrawn':
      return action.id === state.requestId && state.phase === 'withdrawing' ? chooseAgain(state) : state;
  }
}

/**
 * The state kept when the screen was left, shown again: a request then in flight lost its answer
 * with the screen, so the chooser is shown again with the same choice (Enter prepares a fresh plan).
 */
export const resumedPromote = (kept: PromoteState | undefined): PromoteState =>
  kept === undefined ? initialPromoteState : busy(kept.phase) ? chooseAgain(kept) : kept;

/**
 * Back to the scope chooser. A plan written is done with its candidates: they left the queue, and
 * Enter must not offer them again. Those of a plan that was dropped or voided stay chosen for a fresh
 * plan — and so do a patch's operations and an entry being retired, which Review and Entries no
 * longer offer (a prepared patch leaves Review): the advice "Enter then prepares a fresh plan" holds.
 */
function chooseAgain(state: PromoteState): PromoteState {
  const written = state.result?.status === 'applied';
  return {
    ...state,
    ...FRESH,
    retire: written ? null : state.retire,
    patch: written ? null : state.patch,
    chosen: written ? [] : state.chosen,
    phase: 'choose',
  };
}
