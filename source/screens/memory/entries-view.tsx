// Entries: the search line, the text above the list (the stale heading or the search answer's
// generation and coverage, then the memory files left out), one row per entry, or one entry opened
// with `get`.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { visibleText } from '../../memory/visible-text.js';
import { truncate } from '../format.js';
import { LineInputView } from '../widgets/line-input.js';
import { listWindow } from '../widgets/list-window.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { coverageLines, entryLines, leftOutLines, staleHeadingLines } from './entries-lines.js';
import { type EntriesState, listedRows, shownQuery } from './entries-state.js';
import { LinePane, position } from './line-pane.js';
import { type ScreenLine, splitLine, wrapLines } from './wrap-lines.js';

/** The open entry's lines, or the text above the list: its heading, then the files left out. */
export function useEntryLines(state: EntriesState, columns: number): ScreenLine[] {
  return useMemo(() => {
    if (state.open) return state.entry ? entryLines(state.entry, columns) : [];
    const heading = state.result
      ? coverageLines(state.result, columns)
      : state.stale
        ? staleHeadingLines(state.stale, columns)
        : wrapLines(
            'Search approved memory: press / and type words (e.g. release checklist), then Enter. Entries are the Markdown files promoted into this repository and your user memory.',
            columns,
            'muted',
          );
    // A file written by hand that nothing gives back is named wherever entries are listed.
    const leftOut = leftOutLines(state.leftOut, columns);
    return leftOut.length > 0 ? [...heading, { text: '', tone: 'muted' }, ...leftOut] : heading;
  }, [state.open, state.entry, state.result, state.stale, state.leftOut, columns]);
}

/**
 * The rows the text above the list may take of the view's `room` (less the search line): all it
 * needs when it fits beside the rows; when longer, it scrolls (PgDn/PgUp) in what the rows leave —
 * at least half the room for them, or all they need.
 */
export function listTextRoom(room: number, lineCount: number, rowCount: number): number {
  const free = Math.max(1, room - 1);
  if (rowCount === 0) return Math.min(lineCount, free);
  // A row takes two or three lines; the line under the list stays spare.
  const rows = Math.min(rowCount * 3, Math.max(3, Math.floor(free / 2)));
  return Math.min(lineCount, Math.max(1, free - 1 - rows));
}

export function EntriesView({
  state,
  lines,
  room,
  columns,
}: {
  state: EntriesState;
  lines: ScreenLine[];
  room: number;
  columns: number;
}) {
  const theme = useTheme();
  if (state.open) {
    return (
      <Box flexDirection="column">
        <Text bold color={theme.accent} wrap="truncate-end">
          {`Entry ${state.open.entryId}${position(state.top, room - 1, lines.length)}`}
        </Text>
        {state.entry || state.error ? null : <Spinner label="reading the entry…" />}
        <LinePane lines={lines} top={state.top} room={room - 1} />
      </Box>
    );
  }
  const results = listedRows(state);
  // Before any search the list is the stale entries: each with its first failed anchor.
  const failedOf = new Map(
    state.result ? [] : (state.stale?.entries ?? []).map((entry) => [entry.entryId, entry.failedAnchors]),
  );
  const staleOf = new Map(
    (state.result?.results ?? [])
      .filter((hit) => hit.stale)
      .map((hit) => [hit.entryId, hit.staleNote ?? 'may be stale']),
  );
  const textRoom = listTextRoom(room, lines.length, results.length);
  const top = Math.min(state.listTop, Math.max(0, lines.length - textRoom));
  const listRoom = Math.max(1, room - 2 - textRoom);
  // Rows of two or three lines (a long path continues): room for as many as fit in the shortest case.
  const window = listWindow(results.length, state.selected, Math.max(1, Math.floor(listRoom / 3)));
  return (
    <Box flexDirection="column">
      {state.typing ? (
        <LineInputView prompt="search> " line={state.line} width={columns} />
      ) : (
        <Box>
          <Text wrap="truncate-end">
            {`search: ${shownQuery(state) ?? '(none yet)'}${position(top, textRoom, lines.length)}`}
          </Text>
          {state.search ? <Text> </Text> : null}
          {state.search ? <Spinner label="searching…" /> : null}
        </Box>
      )}
      <LinePane lines={lines} top={top} room={textRoom} />
      {results.slice(window.start, window.end).map((hit, offset) => {
        const selected = window.start + offset === state.selected;
        const prefix = `${selected ? '›' : ' '} ${hit.scope.padEnd(7)} `;
        const failed = failedOf.get(hit.entryId);
        const note = failed?.[0]
          ? `✗ ${failed[0].reason}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`
          : staleOf.get(hit.entryId);
        // Two rows an entry: its title, then its file (a path is never cut; Enter opens the whole
        // entry); a stale one has a third, its first failed anchor, cut to the width.
        return (
          <Box key={`${hit.scope}:${hit.entryId}`} flexDirection="column">
            <Text wrap="truncate-end" inverse={selected}>
              {`${prefix}${truncate(visibleText(hit.title), columns - prefix.length - 1)}`}
            </Text>
            {splitLine(`          ${hit.path}`, columns, '          ').map((piece) => (
              <Text key={piece} color={theme.muted}>
                {piece}
              </Text>
            ))}
            {note ? <Text color={theme.error} wrap="truncate-end">{`          ${note}`}</Text> : null}
          </Box>
        );
      })}
    </Box>
  );
}
