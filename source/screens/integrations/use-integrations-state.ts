// Integrations screen state: the install state of each client's hooks (pi: its extension entry),
// the selected client, and a panel showing either a plan (its diff, refusals, warnings and, for Codex, the trust how-to)
// waiting for "y", or the result of applying one; or what an import of the client's stored
// conversations would bring in (a dry run), its progress once "y" confirmed it, and its report.
// Plans, writes and imports run in effects; this reducer only decides, from the newest state,
// what to ask for.
import { useReducer } from 'react';
import type { ImportReport, ImportRun } from '../../api/capture.js';
import type { HookAction, HookClient, IntegrationState } from '../../hosts/integrations.js';
import {
  draftedAny,
  extractedText,
  IMPORT_CLIENT_NAMES,
  importProgressText,
  importReportLines,
} from '../../import-text.js';
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
  kind: 'plan' | 'result' | 'import';
  title: string;
  lines: string[];
  offset: number;
  /** The plan "y" would apply: set only when it has changes and no refusals. */
  applicable: ScreenPlan | null;
  /** Commands shown that a user copies: never broken at a space when wrapped. */
  commands: string[];
  /** The import "y" would run: set only on a dry run that found turns to import. */
  importable: { client: ScreenClient; root: string } | null;
}

type RequestBody =
  | { kind: 'plan'; client: ScreenClient; action: HookAction }
  | { kind: 'apply'; shown: ScreenPlan }
  /** What an import of the client's stored conversations would bring in: read here, nothing written. */
  | { kind: 'importPlan'; client: ScreenClient }
  | { kind: 'importApply'; client: ScreenClient; root: string };
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
  | { type: 'planImport' }
  | { type: 'importPlanned'; id: number; report: ImportReport }
  | { type: 'importProgress'; id: number; run: ImportRun }
  | { type: 'imported'; id: number; report: ImportReport }
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
          importable: null,
        },
      };
    }
    case 'confirm':
      // "y" is the only way to write: a plan is never applied (an import never run) by opening it or by any other key.
      if (state.panel?.applicable) return ask(state, { kind: 'apply', shown: state.panel.applicable });
      if (!state.panel?.importable || state.request) return state;
      // Until its first progress, the panel says the import started: y no longer imports anything.
      return ask(
        state,
        { kind: 'importApply', ...state.panel.importable },
        {
          panel: {
            ...state.panel,
            title: `importing from ${IMPORT_CLIENT_NAMES[state.panel.importable.client]}…`,
            lines: ['Starting the import in the host…'],
            offset: 0,
            importable: null,
          },
        },
      );
    case 'planImport':
      return state.panel ? state : ask(state, { kind: 'importPlan', client: selectedClient(state) });
    case 'importPlanned': {
      if (state.request?.id !== action.id) return state;
      const { report } = action;
      const some = report.turns > 0;
      const next = some
        ? ['y imports them once (kept apart from live capture), then drafts candidates.']
        : ['Nothing new to import.'];
      return {
        ...state,
        request: null,
        panel: {
          kind: 'import',
          title: `import from ${IMPORT_CLIENT_NAMES[report.client]}: what it would bring in`,
          lines: importReportLines(report, next),
          offset: 0,
          applicable: null,
          commands: [],
          importable: some ? { client: report.client, root: report.root } : null,
        },
      };
    }
    case 'importProgress': {
      if (state.request?.id !== action.id || state.request.kind !== 'importApply' || !state.panel) return state;
      const title = `importing from ${IMPORT_CLIENT_NAMES[state.request.client]}…`;
      return {
        ...state,
        panel: { ...state.panel, title, lines: [importProgressText(action.run)], offset: 0, importable: null },
      };
    }
    case 'imported': {
      if (state.request?.id !== action.id) return state;
      const { report } = action;
      return {
        ...state,
        request: null,
        panel: {
          kind: 'result',
          title: `imported: ${report.client}`,
          lines: importReportLines(report, extractionText(report)),
          offset: 0,
          applicable: null,
          commands: [],
          importable: null,
        },
      };
    }
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
          importable: null,
        },
      };
    }
    case 'requestFailed': {
      if (state.request?.id !== action.id) return state;
      const { request } = state;
      const name =
        request.kind === 'plan'
          ? `${request.action} ${request.client}`
          : request.kind === 'apply'
            ? `apply ${request.shown.client}`
            : `import ${request.client}`;
      // A failed apply (config changed since planning, disk full…) closes the plan: plan again from
      // the new file. A failed import keeps what it committed: the next one goes on from there.
      return {
        ...state,
        request: null,
        loadNonce: state.loadNonce + 1,
        panel: request.kind === 'apply' || request.kind === 'importApply' ? null : state.panel,
        error: { action: name, error: action.error },
      };
    }
  }
}

/** What the import's drafting pass did, in a line or two. */
function extractionText(report: ImportReport): string[] {
  const x = report.extraction;
  if (x === null) return [];
  if (x.state === 'off') return ['extraction: off; draft candidates from the Memory screen (7).'];
  if (x.state === 'failed') return [`extraction failed: ${x.error ?? 'unknown error'}; the Memory screen (7) retries.`];
  // In the words of import --yes (import-text.ts): the quarantined candidates counted too.
  return [extractedText(x), ...(draftedAny(x) ? ['Review them on the Memory screen (7).'] : [])];
}

/**
 * Left for another screen and shown again, the screen is as it was left: the chosen client, the
 * panel open and where it was scrolled to (the clients' states read again as on any start). A
 * request then in flight is still the request: followed to its answer, never sent again.
 */
export function useIntegrationsState(kept?: IntegrationsState | undefined) {
  return useReducer(integrationsReducer, kept ?? initialIntegrationsState);
}
