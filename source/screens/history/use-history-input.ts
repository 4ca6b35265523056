// Keys of the history screen: shortcuts at screen priority while no note is being typed, the
// note's line input above them while it is.
import { randomUUID } from 'node:crypto';
import type { Dispatch } from 'react';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useLineInput } from '../widgets/line-input.js';
import type { HistoryAction, HistoryState } from './use-history-state.js';

// The page keys (PgDn, PgUp, Home) are History's list keys (history.tsx), held with the row moves.
const SCREEN_COMMANDS = ['toggleStream', 'toggleFollow', 'openNote', 'refresh'] as const;

export function useHistoryInput(state: HistoryState, dispatch: Dispatch<HistoryAction>): void {
  const noteOpen = state.note.open;
  useCommandKeys(SCREEN_COMMANDS, (command) => dispatch({ type: command }), { isActive: !noteOpen });
  useLineInput(noteOpen, {
    onEdit: (edit) => dispatch({ type: 'editNote', edit }),
    // A fresh ID per press; the reducer keeps the earlier one when this is a retry of the same text.
    onSubmit: () => dispatch({ type: 'submitNote', freshOperationId: randomUUID() }),
    onCancel: () => dispatch({ type: 'cancelNote' }),
  });
}
