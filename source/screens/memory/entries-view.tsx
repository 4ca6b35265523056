// Entries: the search line, the answer (generation and coverage, one row per entry), or one entry
// opened with `get`.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { visibleText } from '../../memory/visible-text.js';
import { truncate } from '../format.js';
import { LineInputView } from '../widgets/line-input.js';
import { listWindow } from '../widgets/list-window.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { coverageLines, entryLines, staleHeadingLines } from './entries-lines.js';
import { type EntriesState, listedRows } from './entries-state.js';
import { LinePane, position } from './line-pane.js';
import { type ScreenLine, splitLine, wrapLines } from './wrap-lines.js';

/** The open entry's lines, or the search answer's heading lines. */
export function useEntryLines(state: EntriesState, columns: number): ScreenLine[] {
  return useMemo(() => {
    if (state.open) return state.entry ? entryLines(state.entry, columns) : [];
    if (state.result) return coverageLines(state.result, columns);
    if (state.stale) return staleHeadingLines(state.stale, columns);
    return wrapLines(
      'Search approved memory: press / and type words (e.g. release checklist), then Enter. Entries are the Markdown files promoted into this repository and your user memory.',
      columns,
      'muted',
    );
  }, [state.open, state.entry, state.result, state.stale, columns]);
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
  const listRoom = Math.max(1, room - 2 - lines.length);
  // Rows of two or three lines (a long path continues): room for as many as fit in the shortest case.
  const window = listWindow(results.length, state.selected, Math.max(1, Math.floor(listRoom / 3)));
  return (
    <Box flexDirection="column">
      {state.typing ? (
        <LineInputView prompt="search> " line={state.line} width={columns} />
      ) : (
        <Box>
          <Text wrap="truncate-end">{state.line.text ? `search: ${state.line.text}` : 'search: (none yet)'}</Text>
          {state.search ? <Text> </Text> : null}
          {state.search ? <Spinner label="searching…" /> : null}
        </Box>
      )}
      <LinePane lines={lines} top={0} room={lines.length} />
      {state.result && results.length === 0 ? (
        <Text color={theme.muted} wrap="wrap">
          No approved entry matches. Promote candidates on Prepare & promote, or run common-memory memory sync after
          editing memory files by hand.
        </Text>
      ) : null}
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
