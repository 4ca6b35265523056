// Keys of the agents screen: shortcuts at screen priority while nothing is typed; the prompt
// input or the create form above them while one is open (then q, s, x… are text).
import { randomUUID } from 'node:crypto';
import type { Dispatch } from 'react';
import { PRIORITY } from '../keyboard/keyboard-router.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useHeldListKeys } from '../widgets/held-list-keys.js';
import { useLineInput } from '../widgets/line-input.js';
import type { AgentsAction, AgentsState } from './use-agents-state.js';

/** The list's moves: typed ahead before the agents are read ("3jj"), they wait for the rows. */
const MOVES = ['selectUp', 'selectDown'] as const;
const SCREEN_COMMANDS = [
  'createAgent',
  'startAgent',
  'stopAgent',
  'openPrompt',
  'abortPrompt',
  'abandonPrompt',
  'toggleStream',
  'refresh',
] as const;
const FORM_COMMANDS = ['nextField', 'previousField'] as const;

export function useAgentsInput(
  state: AgentsState,
  dispatch: Dispatch<AgentsAction>,
  latestOperationId: string | null,
): string | null {
  const typing = state.mode !== 'list';
  // Held while the first read is in flight (widgets/held-list-keys.ts); the note says when they
  // were dropped because the list came back empty.
  const heldNote = useHeldListKeys(
    MOVES,
    (command) => dispatch({ type: command }),
    { loading: state.agents === null && state.listError === null, length: state.agents?.length ?? 0 },
    { isActive: !typing },
  );
  useCommandKeys(
    SCREEN_COMMANDS,
    (command) => {
      if (command === 'toggleStream' || command === 'refresh') dispatch({ type: command });
      else if (command === 'createAgent') dispatch({ type: 'openCreate' });
      else if (command === 'openPrompt') dispatch({ type: 'openPrompt' });
      else if (command === 'abandonPrompt') dispatch({ type: 'abandon', operationId: latestOperationId });
      else
        dispatch({
          type: 'command',
          kind: command === 'startAgent' ? 'start' : command === 'stopAgent' ? 'stop' : 'abort',
        });
    },
    { isActive: !typing },
  );
  // Field moves sit just above the line input, so Tab and the arrows move between fields in the form.
  useCommandKeys(FORM_COMMANDS, (command) => dispatch({ type: command }), {
    isActive: state.mode === 'create',
    priority: PRIORITY.textInput + 1,
  });
  useLineInput(typing, {
    onEdit: (edit) => dispatch({ type: 'edit', edit }),
    // A fresh ID per press; the reducer keeps the earlier one when this retries the same input.
    onSubmit: () => dispatch({ type: 'submit', freshOperationId: randomUUID() }),
    onCancel: () => dispatch({ type: 'cancelInput' }),
  });
  return heldNote;
}
