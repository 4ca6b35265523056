// Keys of the agents screen: shortcuts at screen priority while nothing is typed; the prompt
// input or the create form above them while one is open (then q, s, x… are text).
import { randomUUID } from 'node:crypto';
import type { Dispatch } from 'react';
import { commandFor } from '../keyboard/key-bindings.js';
import { PRIORITY, useKeyHandler } from '../keyboard/keyboard-router.js';
import { useLineInput } from '../widgets/line-input.js';
import type { AgentsAction, AgentsState } from './use-agents-state.js';

const SCREEN_COMMANDS = ['selectUp', 'selectDown', 'createAgent', 'startAgent', 'stopAgent', 'openPrompt', 'abortPrompt', 'abandonPrompt', 'toggleStream', 'refresh'] as const;
const FORM_COMMANDS = ['nextField', 'previousField'] as const;

export function useAgentsInput(state: AgentsState, dispatch: Dispatch<AgentsAction>, latestOperationId: string | null): void {
  const typing = state.mode !== 'list';
  useKeyHandler(
    PRIORITY.screen,
    (input, key) => {
      const command = commandFor(SCREEN_COMMANDS, input, key);
      if (command === undefined) return false;
      if (command === 'selectUp' || command === 'selectDown' || command === 'toggleStream' || command === 'refresh') dispatch({ type: command });
      else if (command === 'createAgent') dispatch({ type: 'openCreate' });
      else if (command === 'openPrompt') dispatch({ type: 'openPrompt' });
      else if (command === 'abandonPrompt') dispatch({ type: 'abandon', operationId: latestOperationId });
      else dispatch({ type: 'command', kind: command === 'startAgent' ? 'start' : command === 'stopAgent' ? 'stop' : 'abort' });
      return true;
    },
    !typing,
  );
  // Field moves sit just above the line input, so Tab and the arrows move between fields in the form.
  useKeyHandler(
    PRIORITY.textInput + 1,
    (input, key) => {
      const command = commandFor(FORM_COMMANDS, input, key);
      if (command === undefined) return false;
      dispatch({ type: command });
      return true;
    },
    state.mode === 'create',
  );
  useLineInput(typing, {
    onEdit: (edit) => dispatch({ type: 'edit', edit }),
    // A fresh ID per press; the reducer keeps the earlier one when this retries the same input.
    onSubmit: () => dispatch({ type: 'submit', freshOperationId: randomUUID() }),
    onCancel: () => dispatch({ type: 'cancelInput' }),
  });
}
