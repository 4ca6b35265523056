// Usage: whether approved memory helps — given, read and re-taught totals with the most re-taught
// entries (memory status), then the retirement suggestions of this worktree and the user scope with
// their reasons (memory suggestions). Read when the view is shown and again every half minute while
// it stays; it lists only: retiring an entry is a plan a person approves.
import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import type { Application } from '../../api/application.js';
import type { MemorySuggestions, UsageSummaryView } from '../../api/memory-usage.js';
import type { ShownError } from '../format.js';
import { useTheme } from '../widgets/theme.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { LinePane, position } from './line-pane.js';
import { usageViewLines } from './usage-lines.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';

/** The counts move only when snapshots are given or entries read: no need to ask every second. */
const USAGE_REFRESH_MS = 30_000;

export function useUsageLines(app: Application, cwd: string, columns: number, shown: boolean): ScreenLine[] {
  const [usage, setUsage] = useState<UsageSummaryView | undefined>(undefined);
  const [suggestions, setSuggestions] = useState<MemorySuggestions | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  useRequestLoop(
    () =>
      shown
        ? {
            run: async () => {
              // Suggestions first: through a host they bring the counts up to date, which status then reads.
              const listed = await app.memorySuggestions({ cwd });
              return { listed, status: await app.memoryStatus() };
            },
            answered: ({ listed, status }) => {
              setSuggestions(listed);
              setUsage(
                status.usage ?? {
                  state: 'unavailable',
                  reason: 'the host does not report usefulness (an older version)',
                  since: null,
                  collectedAt: null,
                  totals: null,
                  topRetaught: { project: [], user: [] },
                },
              );
              setError(null);
              return USAGE_REFRESH_MS;
            },
            failed: (shownError) => {
              setError(shownError);
              return USAGE_REFRESH_MS;
            },
          }
        : undefined,
    [app, cwd, shown],
  );
  return useMemo(() => {
    const lines = usageViewLines(usage, suggestions, columns);
    if (error) lines.unshift(...wrapLines(`usage: error ${error.code}: ${error.message}`, columns, 'error'));
    return lines;
  }, [usage, suggestions, error, columns]);
}

export function UsageView({ lines, top, room }: { lines: ScreenLine[]; top: number; room: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {`Usage${position(top, room - 1, lines.length)}`}
      </Text>
      <LinePane lines={lines} top={top} room={room - 1} />
    </Box>
  );
}
