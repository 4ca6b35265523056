// The selected agent's rows, newest at the bottom, one per line: the chosen row's mark (Enter opens
// it in full), sequence, role (timeline) or kind (journal), and the message text (an aborted or
// failed answer says so). An empty assistant message is pi's, not content, and is left out. Only
// the rows that fit are formatted; the window keeps the chosen row in it.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { previewPayload, truncate } from '../format.js';
import { isEmptyMessage } from '../row-text.js';
import { useTheme } from '../widgets/theme.js';
import type { FeedRow } from './use-agent-feed.js';

const KIND_WIDTH = 18;

export function formatFeedRow(row: FeedRow, sequenceWidth: number, columns: number, chosen = false): string {
  const sequence = String(row.sequence).padStart(sequenceWidth);
  const label = truncate('role' in row ? row.role : row.kind, KIND_WIDTH).padEnd(KIND_WIDTH);
  const prefix = `${chosen ? '>' : ' '} ${sequence}  ${label} `;
  const body = previewPayload(row.payload);
  return prefix + truncate(body, columns - prefix.length);
}

/** The rows the feed shows and opens: pi's empty assistant messages are not content. */
export const feedContent = (rows: readonly FeedRow[]): FeedRow[] => rows.filter((row) => !isEmptyMessage(row));

/** The chosen row: the one of `chosen`'s sequence, else the newest. */
export const chosenRow = (rows: readonly FeedRow[], chosen: number | null): FeedRow | undefined =>
  rows.find((row) => row.sequence === chosen) ?? rows.at(-1);

export function FeedRows({
  rows,
  chosen,
  height,
  columns,
  emptyText,
}: {
  rows: readonly FeedRow[];
  /** The chosen row's sequence; null: the newest. */
  chosen: number | null;
  height: number;
  columns: number;
  emptyText: string;
}) {
  const theme = useTheme();
  const lines = useMemo(() => {
    const content = feedContent(rows);
    const mark = chosenRow(content, chosen)?.sequence;
    const at = content.findIndex((row) => row.sequence === mark);
    const size = Math.max(0, height);
    // The newest rows, unless the chosen one is above them: then it is the window's first row.
    const start = at >= 0 && at < content.length - size ? at : Math.max(0, content.length - size);
    const shown = content.slice(start, start + size);
    const width = Math.max(4, String(shown.at(-1)?.sequence ?? 0).length);
    return shown.map((row) => ({
      key: row.sequence,
      text: formatFeedRow(row, width, columns, row.sequence === mark),
    }));
  }, [rows, chosen, height, columns]);
  if (lines.length === 0) return <Text color={theme.muted}>{emptyText}</Text>;
  return (
    <Box flexDirection="column">
      {lines.map((line) => (
        <Text key={line.key} wrap="truncate-end">
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
