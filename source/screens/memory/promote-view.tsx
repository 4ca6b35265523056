// Prepare & promote: the scope chooser and the chosen candidates, then the plan's files and diff
// (scrolled), the approval and write with their progress, and the result.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { textColumns } from '../../text-columns.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { LinePane, position } from './line-pane.js';
import { Chooser, chooserRows } from '../widgets/chooser.js';
import { chooseLines, planLines, progressText, resultLines, scopeOptions } from './promote-lines.js';
import { type PromoteState, scopesFor } from './promote-state.js';
import { type ScreenLine, idLabel } from './wrap-lines.js';

export function usePromoteLines(state: PromoteState, columns: number): ScreenLine[] {
  return useMemo(() => {
    if (state.phase === 'done' && state.result) return resultLines(state.result, columns, state.plan?.history);
    if (state.plan) return planLines(state.plan, columns);
    return chooseLines(state, columns);
  }, [state, columns]);
}

/** Left out of a plan's heading where the heading and its scroll position do not fit (60 columns). */
const READ_THE_DIFF = ' · read the diff';

function titleOf(state: PromoteState): string {
  const files = state.plan?.files.length ?? 0;
  switch (state.phase) {
    case 'choose':
    case 'preparing':
      return state.retire
        ? `Retire ${state.retire.entryId} · ${state.scope} scope`
        : state.patch
          ? `Consolidation ${idLabel(state.patch.taskId)} · ${state.scope} scope`
          : `Prepare & promote · scope ${state.scope}`;
    case 'plan':
      return `Plan ${idLabel(state.plan?.planId)} · ${state.approved ? 'approved, not written yet' : 'not approved'}${READ_THE_DIFF}`;
    case 'approving':
      return `Plan ${idLabel(state.plan?.planId)} · approving`;
    case 'withdrawing':
      return `Plan ${idLabel(state.plan?.planId)} · dropping`;
    case 'promoting':
      return `Plan ${idLabel(state.plan?.planId)} · approved · writing ${files} file${files === 1 ? '' : 's'}`;
    case 'done':
      return `Plan ${idLabel(state.plan?.planId)} · ${state.result?.status ?? ''}`;
  }
}

/** The heading and where the text is scrolled, without `read the diff` where both do not fit. */
function heading(title: string, scrolled: string, columns: number): string {
  const full = `${title}${scrolled}`;
  return textColumns(full) <= columns ? full : `${title.replace(READ_THE_DIFF, '')}${scrolled}`;
}

const SPINNER_LABEL: Partial<Record<PromoteState['phase'], string>> = {
  preparing: 'building the plan: target files, exact bytes, secret lint, diff…',
  approving: 'recording the approval of this digest…',
  promoting: 'writing the approved bytes…',
  withdrawing: 'voiding the plan: it can no longer be approved…',
};

export function PromoteView({
  state,
  lines,
  room,
  columns,
}: {
  state: PromoteState;
  lines: ScreenLine[];
  room: number;
  columns: number;
}) {
  const theme = useTheme();
  const progress = state.phase === 'promoting' && state.live ? ` ${progressText(state.live)}` : '';
  const spinner =
    state.retire && state.phase === 'preparing'
      ? "reading the entry's file: its exact bytes and blob…"
      : SPINNER_LABEL[state.phase];
  const label = spinner && `${spinner}${progress}`;
  // The scope is chosen while the candidates wait for their plan: ↑↓ (or s) and Enter.
  const choosing = state.phase === 'choose' && state.chosen.length > 0;
  const options = useMemo(() => scopeOptions(state.chosen), [state.chosen]);
  // An option wider than the screen (a long repository name) wraps: its end says where the files go.
  const highlighted = scopesFor(state.chosen).indexOf(state.scope);
  const textRoom = room - 1 - (label ? 1 : 0) - (choosing ? chooserRows(options, columns, highlighted) : 0);
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {heading(titleOf(state), position(state.top, textRoom, lines.length), columns)}
      </Text>
      {label ? <Spinner label={label} /> : null}
      {choosing ? <Chooser options={options} highlighted={highlighted} columns={columns} /> : null}
      <LinePane lines={lines} top={state.top} room={textRoom} />
    </Box>
  );
}
