// One history row per line: sequence, kind (journal) or role (timeline), agent, payload preview.
// The preview is cut to the terminal width for display only.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { previewPayload, shortId, truncate } from '../format.js';
import { useTheme } from '../widgets/theme.js';
import type { HistoryRow, LoadedPage } from './use-history-state.js';

const KIND_WIDTH = 14;
const AGENT_WIDTH = 8;

const kindOf = (row: HistoryRow): string => ('kind' in row ? row.kind : row.role);

export function formatRow(row: HistoryRow, sequenceWidth: number, columns: number): string {
  const sequence = String(row.sequence).padStart(sequenceWidth);
  const kind = truncate(kindOf(row), KIND_WIDTH).padEnd(KIND_WIDTH);
  const agent = (row.agentId ? shortId(row.agentId) : '-').padEnd(AGENT_WIDTH);
  const prefix = `${sequence}  ${kind} ${agent}  `;
  return prefix + truncate(previewPayload(row.payload), columns - prefix.length);
}

export function HistoryRows({
  page,
  columns,
  emptyText,
  selected,
}: {
  page: LoadedPage | null;
  columns: number;
  emptyText: string;
  /** The row Enter opens in full, shown inverted. */
  selected: number;
}) {
  const theme = useTheme();
  const lines = useMemo(() => {
    if (!page) return [];
    const sequenceWidth = Math.max(4, String(page.head).length);
    return page.rows.map((row) => ({ key: row.sequence, text: formatRow(row, sequenceWidth, columns) }));
  }, [page, columns]);
  if (page && lines.length === 0) return <Text color={theme.muted}>{emptyText}</Text>;
  return (
    <Box flexDirection="column">
      {lines.map((line, index) => (
        <Text key={line.key} wrap="truncate-end" inverse={index === selected}>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
