// Integrations screen state: the install state of each client's hooks (pi: its extension entry),
// the selected client, and a panel showing either a plan (its diff, refusals, warnings and, for Codex, the trust how-to)
// waiting for "y", or the result of applying one. Plans and writes run in effects; this reducer
// only decides, from the newest state, what to ask for.
import { useReducer } from 'react';
import type { HookAction, HookClient, IntegrationState } from '../../hosts/integrations.js';
import type { ShownError } from '../format.js';
import { moveSelection } from '../widgets/list-window.js';
import type { OutdatedReason } from '../../hosts/install-health.js';
import {
  type ScreenPlan,
  type ScreenResult,
  screenPlanApplicable,
  screenPlanLines,
  screenResultLines,
} from './plan-lines.js';

/** The rows of the screen: the two hook clients, then pi. */
export type ScreenClient = HookClient | 'pi';

export interface ClientRow {
  client: ScreenClient;
  state: IntegrationState | null;
  path: string | null;
  /** Installed hooks that name a node or shim that is gone: they cannot run. */
  broken: readonly OutdatedReason[];
  error: ShownError | null;
}

export interface Panel {
  kind: 'plan' | 'result';
  title: string;
  lines: string[];
  offset: number;
  /** The plan "y" would apply: set only when it has changes and no refusals. */
  applicable: ScreenPlan | null;
  /** Commands shown that a user copies: never broken at a space when wrapped. */
  commands: string[];
}

type RequestBody = { kind: 'plan'; client: ScreenClient; action: HookAction } | { kind: 'apply'; shown: ScreenPlan };
export type IntegrationRequest = RequestBody & { id: number };

export interface IntegrationsState {
  clients: ClientRow[];
  selected: number;
  /** Bumped to re-read every client's state. */
  loadNonce: number;
  request: IntegrationRequest | null;
  lastRequestId: number;
  panel: Panel | null;
  error: { action: string; error: ShownError } | null;
}

export type IntegrationsAction =
  | { type: 'statesLoaded'; clients: ClientRow[] }
  | { type: 'refresh' | 'confirm' | 'decline' }
  /** The client chooser's highlight moves (↑↓, a held key, a paste of j/k). */
  | { type: 'move'; delta: number }
  /** `total`: display lines after wrapping to the terminal, which only the view knows. */
  | { type: 'scroll'; by: number | 'top'; total: number }
  | { type: 'plan'; action: HookAction }
  | { type: 'planned'; id: number; shown: ScreenPlan }
  | { type: 'applied'; id: number; applied: ScreenResult }
  | { type: 'requestFailed'; id: number; error: ShownError };

export const initialIntegrationsState: IntegrationsState = {
  clients: [
    { client: 'codex', state: null, path: null, broken: [], error: null },
    { client: 'claude', state: null, path: null, broken: [], error: null },
    { client: 'pi', state: null, path: null, broken: [], error: null },
  ],
  selected: 0,
  loadNonce: 0,
  request: null,
  lastRequestId: 0,
  panel: null,
  error: null,
};

function ask(
  state: IntegrationsState,
  request: RequestBody,
  changes: Partial<IntegrationsState> = {},
): IntegrationsState {
  if (state.request) return state;
  const id = state.lastRequestId + 1;
  return { ...state, ...changes, request: { ...request, id }, lastRequestId: id, error: null };
}

const selectedClient = (state: IntegrationsState): ScreenClient => state.clients[state.selected]?.client ?? 'codex';

/** The hook command a panel shows, kept whole when wrapped; pi's entry is a path, not a command. */
const commandsOf = (shown: ScreenPlan): string[] => (shown.client === 'pi' ? [] : [shown.plan.command]);

export function integrationsReducer(state: IntegrationsState, action: IntegrationsAction): IntegrationsState {
  switch (action.type) {
    case 'statesLoaded':
      return { ...state, clients: action.clients };
    case 'move':
      return state.panel
        ? state
        : { ...state, selected: moveSelection(state.selected, action.delta, state.clients.length) };
    case 'refresh':
      return { ...state, loadNonce: state.loadNonce + 1 };
    case 'scroll': {
      if (!state.panel) return state;
      const last = Math.max(0, action.total - 1);
      const offset = action.by === 'top' ? 0 : Math.min(last, Math.max(0, state.panel.offset + action.by));
      return { ...state, panel: { ...state.panel, offset } };
    }
    case 'plan':
      return state.panel ? state : ask(state, { kind: 'plan', client: selectedClient(state), action: action.action });
    case 'planned': {
      if (state.request?.id !== action.id) return state;
      const { shown } = action;
      return {
        ...state,
        request: null,
        panel: {
          kind: 'plan',
          title: `${shown.plan.action} plan for ${shown.client}`,
          lines: screenPlanLines(shown),
          offset: 0,
          applicable: screenPlanApplicable(shown) ? shown : null,
          commands: commandsOf(shown),
        },
      };
    }
    case 'confirm':
      // "y" is the only way to write: a plan is never applied by opening it or by any other key.
      return state.panel?.applicable ? ask(state, { kind: 'apply', shown: state.panel.applicable }) : state;
    case 'decline':
      return state.request ? state : { ...state, panel: null };
    case 'applied': {
      if (state.request?.id !== action.id) return state;
      const { applied } = action;
      const title = `${applied.plan.action === 'install' ? 'installed' : 'uninstalled'}: ${applied.client}`;
      return {
        ...state,
        request: null,
        loadNonce: state.loadNonce + 1,
        panel: {
          kind: 'result',
          title,
          lines: screenResultLines(applied),
          offset: 0,
          applicable: null,
          commands: commandsOf(applied),
        },
      };
    }
    case 'requestFailed': {
      if (state.request?.id !== action.id) return state;
      const name =
        state.request.kind === 'plan'
          ? `${state.request.action} ${state.request.client}`
          : `apply ${state.request.shown.client}`;
      // A failed apply (config changed since planning, disk full…) closes the plan: plan again from the new file.
      return {
        ...state,
        request: null,
        loadNonce: state.loadNonce + 1,
        panel: state.request.kind === 'apply' ? null : state.panel,
        error: { action: name, error: action.error },
      };
    }
  }
}

export function useIntegrationsState() {
  return useReducer(integrationsReducer, initialIntegrationsState);
}
