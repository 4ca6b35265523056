// The agent a create just made is in the Agents list, selected, from the create's answer on: s, p
// and x act on it at once. Before, the list was read again after the answer, and a key pressed in
// between (the notice already said "s starts it") answered "Create an agent first (c)."
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AgentsState,
  agentsReducer,
  initialAgentsState,
  selectedAgent,
} from '../../source/screens/agents/use-agents-state.js';
import { numberedAgent } from '../support/tui-fakes.js';

/** The screen after a create of `name` was submitted (its task in flight), over `listed`. */
function creating(listed: ReturnType<typeof numberedAgent>[]): AgentsState {
  let state = agentsReducer(initialAgentsState, { type: 'listLoaded', agents: listed });
  state = agentsReducer(state, { type: 'openCreate' });
  const [name, ...rest] = state.form.lines;
  state = { ...state, form: { ...state.form, lines: [{ ...name!, text: 'bravo', cursor: 5 }, ...rest] } };
  state = agentsReducer(state, { type: 'submit', freshOperationId: 'op-1' });
  assert.equal(state.task?.kind, 'create');
  return state;
}

describe('an agent just created', () => {
  it('is listed and selected from the answer on, before the list is read again', () => {
    const created = { ...numberedAgent(2), agentId: 'agent-new', name: 'bravo' };
    const state = creating([]);
    const done = agentsReducer(state, {
      type: 'taskDone',
      id: state.task!.id,
      notice: 'created agent bravo; s starts it',
      created,
    });
    assert.equal(selectedAgent(done)?.name, 'bravo');
    const started = agentsReducer(done, { type: 'command', kind: 'start' });
    assert.equal(started.error, null, JSON.stringify(started.error));
    assert.deepEqual(started.task && 'agent' in started.task && [started.task.kind, started.task.agent], [
      'start',
      'bravo',
    ]);
  });

  it('takes its place in the order of the list (by name), once', () => {
    const alpha = { ...numberedAgent(1), name: 'alpha' };
    const charlie = { ...numberedAgent(3), name: 'charlie' };
    const created = { ...numberedAgent(2), agentId: 'agent-new', name: 'bravo' };
    const state = creating([alpha, charlie]);
    let done = agentsReducer(state, { type: 'taskDone', id: state.task!.id, notice: 'created', created });
    assert.deepEqual(
      done.agents?.map((agent) => agent.name),
      ['alpha', 'bravo', 'charlie'],
    );
    // The list read after it holds it too: one row, as listed.
    done = agentsReducer(done, { type: 'listLoaded', agents: [alpha, created, charlie] });
    assert.deepEqual(
      done.agents?.map((agent) => agent.name),
      ['alpha', 'bravo', 'charlie'],
    );
    assert.equal(selectedAgent(done)?.name, 'bravo');
  });
});
