// History screen: the journal or the timeline a page at a time, with keyset paging, live
// follow and a note input. Owns its state; the parts below only render it.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { rawRows, rowsText } from '../row-text.js';
import { useHeldListKeys } from '../widgets/held-list-keys.js';
import { moveSelection } from '../widgets/list-window.js';
import { helpItem } from '../keyboard/key-bindings.js';
import { HEADER_LINES } from '../shell/header.js';
import { useEnvironment, useHelp, useKept, useShellActions } from '../shell/shell-context.js';
import type { HelpItem } from '../shell/shell-state.js';
import { useTerminalSize } from '../terminal-size.js';
import { ErrorLine } from '../widgets/error-line.js';
import { HistoryRows } from './history-rows.js';
import { HistoryTitle, NoteLine } from './history-parts.js';
import { useHistoryEffects } from './use-history-effects.js';
import { useHistoryInput } from './use-history-input.js';
import { currentPage, useHistoryState, type HistoryState } from './use-history-state.js';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../../limits.js';

/** Lines that are not rows: header, title, note line, error line, help line, and the one spare row. */
const CHROME_LINES = HEADER_LINES + 5;

export const rowsPerPage = (terminalRows: number): number =>
  Math.min(PAGE_LIMIT_MAX, Math.max(PAGE_LIMIT_MIN, terminalRows - CHROME_LINES));

function helpFor(state: HistoryState): HelpItem[] {
  if (state.note.open) {
    return state.note.submitting
      ? [{ keys: '', label: 'saving note…' }]
      : [helpItem('save note', ['submit']), helpItem('cancel', ['cancel'])];
  }
  // The heading says "following"; here f says "stop", and the line stays within 80 columns.
  return [
    helpItem(state.stream === 'journal' ? 'timeline' : 'journal', ['toggleStream']),
    helpItem('page', ['nextPage', 'previousPage']),
    helpItem('first', ['firstPage']),
    helpItem(state.following ? 'stop' : 'follow', ['toggleFollow']),
    helpItem('note', ['openNote']),
    helpItem('open', ['openItem']),
  ];
}

export function History() {
  const { app } = useEnvironment();
  const { rows, columns } = useTerminalSize();
  // Left for another screen and shown again, History is where it was (its page read again).
  const [kept, keep] = useKept<{ state: HistoryState; chosen: number }>('history');
  const [state, dispatch] = useHistoryState(rowsPerPage(rows), kept?.state);
  useHistoryEffects(app, state, dispatch);
  useHistoryInput(state, dispatch);
  useHelp(helpFor(state), !state.note.open);
  useEffect(() => dispatch({ type: 'setLimit', limit: rowsPerPage(rows) }), [rows, dispatch]);
  const page = state.page?.stream === state.stream ? state.page : null;
  const [chosen, setChosen] = useState(kept?.chosen ?? 0);
  useEffect(() => keep({ state, chosen }));
  const count = page?.rows.length ?? 0;
  const selected = Math.min(chosen, Math.max(0, count - 1));
  const { read } = useShellActions();
  // The row moves and the page keys share one queue: typed ahead before the page is read
  // ("2jj⏎", "2 PgDn j"), they act in order on the rows as each page loads (widgets/held-list-keys.ts).
  const heldNote = useHeldListKeys(
    ['selectUp', 'selectDown', 'openItem', 'nextPage', 'previousPage', 'firstPage'],
    (command) => {
      const row = page?.rows[selected];
      if (command === 'nextPage' || command === 'previousPage' || command === 'firstPage') dispatch({ type: command });
      else if (command === 'openItem') {
        if (row)
          read({
            title: `${state.stream === 'journal' ? 'Journal' : 'Timeline'} row in full`,
            text: rowsText([row]),
            raw: rawRows([row]),
          });
      } else setChosen(moveSelection(selected, command === 'selectUp' ? -1 : 1, count));
    },
    { loading: currentPage(state) === null && state.read !== null, length: count },
    { isActive: !state.note.open },
  );
  const emptyText =
    state.stream === 'timeline' ? '(no timeline rows yet: notes go to the journal only)' : '(no journal rows here)';
  return (
    <Box flexDirection="column" flexGrow={1}>
      <HistoryTitle state={state} />
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        <HistoryRows page={page} columns={columns} emptyText={emptyText} selected={selected} />
        {heldNote ? <Text wrap="truncate-end">{heldNote}</Text> : null}
      </Box>
      <NoteLine note={state.note} columns={columns} />
      <ErrorLine
        error={state.note.error ?? state.error}
        prefix={state.note.error ? 'note' : 'read'}
        typing={state.note.open}
      />
    </Box>
  );
}
