// Agents screen state: the agent list and its selection, the form or prompt being typed, and the
// one agent command in flight. Keys become named actions; every decision is made here from the
// newest state, so keys that arrive together never act on a stale selection.
import { useReducer } from 'react';
import type { AgentView, CreateAgentInput } from '../../api/agents.js';
import type { Stream } from '../../api/common.js';
import type { ShownError } from '../format.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { editLine, emptyLine, type LineEdit, type LineState } from '../keyboard/line-edit.js';
import { attemptFor, type Attempt } from '../widgets/attempt.js';
import { moveSelection } from '../widgets/list-window.js';
import { editForm, emptyForm, formInput, moveFocus, type CreateForm } from './create-form-state.js';

export type AgentTask =
  | { kind: 'create'; input: CreateAgentInput }
  | { kind: 'start' | 'stop' | 'abort'; agent: string }
  | { kind: 'prompt'; agent: string; text: string; operationId: string }
  | { kind: 'abandon'; agent: string; operationId: string };

export interface AgentsState {
  agents: AgentView[] | null;
  listError: ShownError | null;
  /** Bumped to re-read the list at once (after a command); the periodic refresh runs anyway. */
  listNonce: number;
  /** By ID, not index: a refreshed list in another order keeps the same agent selected. */
  selectedId: string | null;
  stream: Stream;
  mode: 'list' | 'create' | 'prompt';
  form: CreateForm;
  prompt: LineState;
  task: (AgentTask & { id: number }) | null;
  lastTaskId: number;
  /** The last failed create or prompt, so retrying the same input keeps its operation ID. */
  failed: Attempt<unknown> | null;
  notice: string | null;
  error: { action: string; error: ShownError } | null;
}

export type AgentsAction =
  | { type: 'listLoaded'; agents: AgentView[] }
  | { type: 'listFailed'; error: ShownError }
  | { type: 'selectUp' | 'selectDown' | 'toggleStream' | 'refresh' }
  | { type: 'openCreate' | 'openPrompt' | 'cancelInput' | 'nextField' | 'previousField' }
  | { type: 'edit'; edit: LineEdit }
  | { type: 'submit'; freshOperationId: string }
  | { type: 'command'; kind: 'start' | 'stop' | 'abort' }
  | { type: 'abandon'; operationId: string | null }
  | { type: 'taskDone'; id: number; notice: string; created?: AgentView }
  | { type: 'taskFailed'; id: number; error: ShownError };

export const initialAgentsState: AgentsState = {
  agents: null,
  listError: null,
  listNonce: 0,
  selectedId: null,
  stream: 'timeline',
  mode: 'list',
  form: emptyForm,
  prompt: emptyLine,
  task: null,
  lastTaskId: 0,
  failed: null,
  notice: null,
  error: null,
};

export const selectedAgent = (state: AgentsState): AgentView | null =>
  state.agents?.find((agent) => agent.agentId === state.selectedId) ?? null;

function move(state: AgentsState, delta: number): AgentsState {
  const agents = state.agents ?? [];
  const index = agents.findIndex((agent) => agent.agentId === state.selectedId);
  const next = agents[moveSelection(index, delta, agents.length)];
  return next ? { ...state, selectedId: next.agentId } : state;
}

/** `agents` (in name order, as listed) with `agent` in its place, once. */
function withAgent(agents: AgentView[], agent: AgentView): AgentView[] {
  const others = agents.filter((listed) => listed.agentId !== agent.agentId);
  const at = others.findIndex((listed) => listed.name > agent.name);
  return at === -1 ? [...others, agent] : [...others.slice(0, at), agent, ...others.slice(at)];
}

/** Starts `task` unless one is in flight: one command at a time keeps the on-screen result unambiguous. */
function run(state: AgentsState, task: AgentTask, changes: Partial<AgentsState> = {}): AgentsState {
  if (state.task) return state;
  const id = state.lastTaskId + 1;
  return { ...state, ...changes, task: { ...task, id }, lastTaskId: id, error: null, notice: null };
}

const ACTION_NAMES: Record<AgentTask['kind'], string> = {
  create: 'create',
  start: 'start',
  stop: 'stop',
  abort: 'abort',
  prompt: 'prompt',
  abandon: 'abandon',
};

function submit(state: AgentsState, freshOperationId: string): AgentsState {
  if (state.task) return state;
  const fail = (action: string, error: ShownError) => ({ ...state, error: { action, error } });
  if (state.mode === 'create') {
    const parsed = formInput(state.form);
    if ('error' in parsed) return fail('create', parsed.error);
    const attempt = attemptFor(
      state.failed,
      parsed.input,
      `create\u0000${JSON.stringify(parsed.input)}`,
      freshOperationId,
    );
    return run(
      state,
      { kind: 'create', input: { ...parsed.input, operationId: attempt.operationId } },
      { failed: attempt },
    );
  }
  const agent = selectedAgent(state);
  if (!agent) return fail('prompt', { code: 'invalid_input', message: 'Select an agent first.' });
  const text = state.prompt.text;
  if (text.trim() === '') return fail('prompt', { code: 'invalid_input', message: 'A prompt needs some text.' });
  const attempt = attemptFor(state.failed, text, `prompt\u0000${agent.agentId}\u0000${text}`, freshOperationId);
  return run(state, { kind: 'prompt', agent: agent.name, text, operationId: attempt.operationId }, { failed: attempt });
}

export function agentsReducer(state: AgentsState, action: AgentsAction): AgentsState {
  switch (action.type) {
    case 'listLoaded': {
      const { agents } = action;
      const kept = agents.some((agent) => agent.agentId === state.selectedId);
      return { ...state, agents, listError: null, selectedId: kept ? state.selectedId : (agents[0]?.agentId ?? null) };
    }
    case 'listFailed':
      return { ...state, listError: action.error };
    case 'selectUp':
      return move(state, -1);
    case 'selectDown':
      return move(state, 1);
    case 'toggleStream':
      return { ...state, stream: state.stream === 'timeline' ? 'journal' : 'timeline' };
    case 'refresh':
      return { ...state, listNonce: state.listNonce + 1 };
    case 'openCreate':
      return { ...state, mode: 'create', form: emptyForm, error: null, notice: null };
    case 'openPrompt':
      return selectedAgent(state)
        ? { ...state, mode: 'prompt', error: null, notice: null }
        : {
            ...state,
            error: { action: 'prompt', error: { code: 'invalid_input', message: 'Create an agent first (c).' } },
          };
    case 'cancelInput':
      // A submission in flight cannot be called back; wait for its answer so its receipt is not lost.
      return state.task ? state : { ...state, mode: 'list', prompt: emptyLine, error: null };
    case 'nextField':
      return state.mode === 'create' ? { ...state, form: moveFocus(state.form, 1) } : state;
    case 'previousField':
      return state.mode === 'create' ? { ...state, form: moveFocus(state.form, -1) } : state;
    case 'edit':
      if (state.task) return state;
      if (state.mode === 'create') return { ...state, form: editForm(state.form, action.edit) };
      return { ...state, prompt: editLine(state.prompt, action.edit) };
    case 'submit':
      return submit(state, action.freshOperationId);
    case 'command': {
      const agent = selectedAgent(state);
      if (!agent)
        return {
          ...state,
          error: { action: action.kind, error: { code: 'invalid_input', message: 'Create an agent first (c).' } },
        };
      return run(state, { kind: action.kind, agent: agent.name });
    }
    case 'abandon': {
      const agent = selectedAgent(state);
      if (!agent || !action.operationId) {
        return {
          ...state,
          error: {
            action: 'abandon',
            error: { code: 'invalid_input', message: 'No prompt of this agent is on screen to abandon.' },
          },
        };
      }
      return run(state, { kind: 'abandon', agent: agent.name, operationId: action.operationId });
    }
    case 'taskDone': {
      if (state.task?.id !== action.id) return state;
      const closes = state.task.kind === 'create' || state.task.kind === 'prompt';
      return {
        ...state,
        // The agent a create made is listed from its answer on, where the list (read by name) will
        // have it: the notice says "s starts it", and s must not answer "Create an agent first".
        agents: action.created ? withAgent(state.agents ?? [], action.created) : state.agents,
        task: null,
        failed: null,
        notice: action.notice,
        listNonce: state.listNonce + 1,
        selectedId: action.created?.agentId ?? state.selectedId,
        ...(closes ? { mode: 'list' as const, prompt: emptyLine, form: emptyForm } : {}),
      };
    }
    case 'taskFailed': {
      if (state.task?.id !== action.id) return state;
      // The typed text stays for a retry; `failed` (set at submit) keeps its operation ID.
      return {
        ...state,
        task: null,
        listNonce: state.listNonce + 1,
        error: { action: ACTION_NAMES[state.task.kind], error: inTuiWords(action.error) },
      };
    }
  }
}

/**
 * The host's "not running" names the CLI command that starts the agent; here a key does (the
 * prompt line has the keyboard, so Esc first). Other errors are shown as the host wrote them.
 */
function inTuiWords(error: ShownError): ShownError {
  if (error.code !== 'agent_not_running') return error;
  const advice = `Esc, then ${keyLabel('startAgent')} starts it.`;
  const message = error.message.replace(/ Start it with: common-memory agent start \S+$/, ` ${advice}`);
  return { code: error.code, message };
}

/**
 * The state kept when the screen was left, shown again: the same agent, stream and line being
 * typed, the list read again at once. A command in flight then lost its answer with the screen; a
 * create or prompt stays typed, and `failed` (set at submit) makes a retry reuse its operation ID,
 * so the host answers with the first receipt if that one committed.
 */
export const resumedAgents = (kept: AgentsState | undefined): AgentsState =>
  kept === undefined
    ? initialAgentsState
    : { ...kept, task: null, notice: null, error: null, listNonce: kept.listNonce + 1 };

export function useAgentsState(kept?: AgentsState) {
  return useReducer(agentsReducer, kept, resumedAgents);
}
