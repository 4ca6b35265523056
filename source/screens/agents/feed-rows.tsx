// The selected agent's rows, newest at the bottom, one per line: sequence, role (timeline) or
// kind (journal), and the message text (an aborted or failed answer says so). An empty assistant
// message is pi's, not content, and is left out. Only the rows that fit are formatted.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { previewPayload, truncate } from '../format.js';
import { isEmptyMessage } from '../row-text.js';
import { useTheme } from '../widgets/theme.js';
import type { FeedRow } from './use-agent-feed.js';

const KIND_WIDTH = 18;

export function formatFeedRow(row: FeedRow, sequenceWidth: number, columns: number): string {
  const sequence = String(row.sequence).padStart(sequenceWidth);
  const label = truncate('role' in row ? row.role : row.kind, KIND_WIDTH).padEnd(KIND_WIDTH);
  const prefix = `${sequence}  ${label} `;
  const body = previewPayload(row.payload);
  return prefix + truncate(body, columns - prefix.length);
}

export function FeedRows({
  rows,
  height,
  columns,
  emptyText,
}: {
  rows: readonly FeedRow[];
  height: number;
  columns: number;
  emptyText: string;
}) {
  const theme = useTheme();
  const lines = useMemo(() => {
    const shown = rows.filter((row) => !isEmptyMessage(row)).slice(-Math.max(0, height));
    const width = Math.max(4, String(shown.at(-1)?.sequence ?? 0).length);
    return shown.map((row) => ({ key: row.sequence, text: formatFeedRow(row, width, columns) }));
  }, [rows, height, columns]);
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
