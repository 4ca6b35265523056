// Extraction: `memory status` read again while shown (faster while a run is active, its progress
// moves), with the quarantined candidates of the review queue and their masked findings.
import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import type { Application } from '../../api/application.js';
import type { MemoryStatus } from '../../protocol.js';
import type { ShownError } from '../format.js';
import { STATUS_PROGRESS_MS, STATUS_REFRESH_MS } from '../timing.js';
import { useTheme } from '../widgets/theme.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { extractionLines, quarantineLines } from './extraction-lines.js';
import { LinePane, position } from './line-pane.js';
import type { ReviewState } from './review-state.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';

export function useExtractionLines(app: Application, review: ReviewState, columns: number, shown: boolean) {
  const [status, setStatus] = useState<MemoryStatus | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  useRequestLoop(
    () =>
      shown
        ? {
            run: () => app.memoryStatus(),
            answered: (value) => {
              setStatus(value);
              setError(null);
              return value.activeRun ? STATUS_PROGRESS_MS : STATUS_REFRESH_MS;
            },
            failed: (shownError) => {
              setError(shownError);
              return STATUS_REFRESH_MS;
            },
          }
        : undefined,
    [app, shown],
  );
  const data = review.data;
  const quarantined = useMemo(
    () =>
      quarantineLines(
        (data?.candidates ?? []).filter((candidate) => candidate.status === 'quarantined'),
        columns,
      ),
    [data, columns],
  );
  return useMemo((): ScreenLine[] => {
    const lines = extractionLines(status, columns);
    if (error) lines.unshift(...wrapLines(`memory status: error ${error.code}: ${error.message}`, columns, 'error'));
    return [...lines, ...quarantined];
  }, [status, error, quarantined, columns]);
}

export function ExtractionView({ lines, top, room }: { lines: ScreenLine[]; top: number; room: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {`Extraction${position(top, room - 1, lines.length)}`}
      </Text>
      <LinePane lines={lines} top={top} room={room - 1} />
    </Box>
  );
}
