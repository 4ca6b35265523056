// Extraction: `memory status` read again while shown (faster while a run is active, its progress
// moves), with the quarantined candidates of the review queue and their masked findings, and the
// runner chooser over them while it is open.
import { Box, Text } from 'ink';
import { type Dispatch, useMemo, useState } from 'react';
import type { Application } from '../../api/application.js';
import type { MemoryStatus } from '../../api/memory-runs.js';
import type { ShownError } from '../format.js';
import { useKeptRequest } from '../shell/shell-context.js';
import { STATUS_PROGRESS_MS, STATUS_REFRESH_MS } from '../timing.js';
import { useTheme } from '../widgets/theme.js';
import { useRequest, useRequestLoop } from '../widgets/use-request.js';
import { type ChooserOption, Chooser, chooserRows } from '../widgets/chooser.js';
import { extractionLines, quarantineLines, runLines, runnerLines, runnerOptions } from './extraction-lines.js';
import type { ExtractionAction, ExtractionState } from './extraction-state.js';
import { LinePane, position } from './line-pane.js';
import type { ReviewState } from './review-state.js';
import { type ScreenLine, wrapLines } from './wrap-lines.js';

export function useExtractionLines(
  app: Application,
  cwd: string,
  review: ReviewState,
  run: { state: ExtractionState; dispatch: Dispatch<ExtractionAction> },
  columns: number,
  shown: boolean,
) {
  const [status, setStatus] = useState<MemoryStatus | null>(null);
  const { state, dispatch } = run;
  // A run left in flight when another screen was shown is followed, not sent again, when Memory is back.
  const once = useKeptRequest('memory extraction');
  useRequest(
    state.request,
    (request) =>
      once(request.id, () =>
        app.memoryExtract({
          cwd,
          runner: request.runner,
          ...(request.approvePlan ? { approvePlan: request.approvePlan } : {}),
          ...(request.approveManifest ? { approveManifest: request.approveManifest } : {}),
        }),
      ),
    {
      answered: (report, request) => dispatch({ type: 'answered', id: request.id, report }),
      failed: (error, request) => dispatch({ type: 'failed', id: request.id, error }),
    },
  );
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
    // Read again when a run ends: what was sent today is shown before and after it.
    [app, shown, state.report, state.error],
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
  const lines = useMemo((): ScreenLine[] => {
    const lines = extractionLines(status, columns);
    if (error) lines.unshift(...wrapLines(`memory status: error ${error.code}: ${error.message}`, columns, 'error'));
    // The plan comes first (it waits for a key), then where bytes may go and what went today.
    const running = runLines(state, columns);
    const runners = runnerLines(status, state.runner, columns);
    const gap = (shown: ScreenLine[]): ScreenLine[] => (shown.length > 0 ? [{ text: '', tone: 'muted' }] : []);
    return [...running, ...gap(running), ...runners, ...gap(runners), ...lines, ...quarantined];
  }, [status, error, quarantined, columns, state]);
  const names = state.choosing?.names;
  const runnerChoices = useMemo(() => (names ? runnerOptions(names, status) : []), [names, status]);
  return { lines, runners: status?.runners.map((runner) => runner.name) ?? [], runnerChoices };
}

export function ExtractionView({
  lines,
  top,
  room,
  chooser,
  columns,
}: {
  lines: ScreenLine[];
  top: number;
  room: number;
  /** The runner chooser, while open (r): its options and the highlighted one. */
  chooser: { options: ChooserOption[]; highlighted: number } | null;
  columns: number;
}) {
  const theme = useTheme();
  const textRoom = room - 1 - (chooser ? chooserRows(chooser.options, columns, chooser.highlighted) + 1 : 0);
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {`Extraction${position(top, textRoom, lines.length)}`}
      </Text>
      {chooser ? (
        <>
          <Text bold wrap="truncate-end">
            The runner for the next run (x):
          </Text>
          <Chooser options={chooser.options} highlighted={chooser.highlighted} columns={columns} />
        </>
      ) : null}
      <LinePane lines={lines} top={top} room={textRoom} />
    </Box>
  );
}
