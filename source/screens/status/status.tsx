// Processing status screen: queue states, the newest sessions, and the open recovery items a page
// (twenty) at a time with "more" and "back"; a selected item is retried after a y/n question;
// drain and flush run with visible progress. Owns its state; the parts only render it.
import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { RECOVERY_PAGE_SIZE } from '../../limits.js';
import { HEADER_LINES } from '../shell/header.js';
import { useEnvironment, useHelp, useKept } from '../shell/shell-context.js';
import { helpItem } from '../keyboard/key-bindings.js';
import type { HelpItem } from '../shell/shell-state.js';
import { useTerminalSize } from '../terminal-size.js';
import { truncate } from '../format.js';
import { ErrorLine } from '../widgets/error-line.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { RecoveryRows } from './recovery-rows.js';
import { QueueLines, queueLineCount, SessionRows } from './status-parts.js';
import { wrapLines } from '../memory/wrap-lines.js';
import { useStatusEffects } from './use-status-effects.js';
import { useStatusInput } from './use-status-input.js';
import { pageItems, useStatusState, type StatusState } from './use-status-state.js';

/** Title, two queue lines, sessions title, recovery title, progress line, error line (each line more they wrap to takes a row of the lists'). */
const SCREEN_CHROME = 7;
const SHELL_LINES = HEADER_LINES + 2;
/** Sessions shown while recovery items need the room; with none open, sessions get it all. */
const SESSION_ROWS_WITH_ITEMS = 3;

function helpFor(state: StatusState): HelpItem[] {
  if (state.confirming)
    return [helpItem(`retry ${state.confirming}`, ['confirm']), helpItem('cancel', ['decline'], 'all')];
  const help: HelpItem[] = [];
  if (pageItems(state).length > 0)
    help.push(helpItem('select', ['selectUp', 'selectDown']), helpItem('retry', ['retryItem']));
  if (state.status?.recovery.nextRecoveryId) help.push(helpItem('more', ['nextPage']));
  if (state.previousCursors.length > 0) help.push(helpItem('back', ['previousPage']));
  help.push(helpItem('drain', ['drainNow']), helpItem('flush', ['flushNow']));
  return help;
}

function RecoveryTitle({ state }: { state: StatusState }) {
  const theme = useTheme();
  const { status } = state;
  const items = pageItems(state);
  const first = state.previousCursors.length * RECOVERY_PAGE_SIZE + 1;
  const parts: string[] = [];
  if (status) {
    parts.push(
      items.length > 0
        ? `${first}–${first + items.length - 1} of ${status.recovery.total}`
        : `none here of ${status.recovery.total}`,
    );
    parts.push(`page ${state.previousCursors.length + 1}`);
    if (status.recovery.nextRecoveryId) parts.push('more: PgDn');
  }
  return (
    <Box>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          Recovery items
        </Text>
        {parts.length > 0 ? ` · ${parts.join(' · ')} ` : ' '}
      </Text>
      {state.read && !state.read.quiet ? <Spinner /> : null}
    </Box>
  );
}

/** The last result (a drain's or flush's counts) as screen lines: wrapped, never cut, so what is left is said whole. */
const resultLines = (state: StatusState, columns: number): string[] =>
  !state.confirming && !state.job && state.result
    ? wrapLines(state.result, columns, 'ok').map((line) => line.text)
    : [];

function ProgressLine({ state, result }: { state: StatusState; result: string[] }) {
  const theme = useTheme();
  if (state.confirming) {
    const item = pageItems(state).find((candidate) => candidate.id === state.confirming);
    // The question must stay whole at 80 columns: the session key is cut, never the "y/n".
    return (
      <Text
        bold
        wrap="truncate-end"
      >{`Retry ${state.confirming}${item ? ` (${item.code}, ${item.client} ${truncate(item.sessionKey, 14)})` : ''}? y retry · n cancel`}</Text>
    );
  }
  if (state.job) {
    const what =
      state.job.kind === 'retry'
        ? `retrying ${state.job.recoveryId}…`
        : state.job.kind === 'drain'
          ? 'draining…'
          : 'flushing…';
    const host = state.status?.host;
    // The counts refresh every STATUS_PROGRESS_MS while the job runs: they are its progress.
    return (
      <Spinner label={host ? `${what} inbox ${host.inbox} · watch ${host.watch} · isolated ${host.isolated}` : what} />
    );
  }
  if (result.length > 0) return <Text color={theme.ok}>{result.join('\n')}</Text>;
  return <Text> </Text>;
}

export function ProcessingStatus() {
  const { app } = useEnvironment();
  const { rows, columns } = useTerminalSize();
  // Left for another screen and shown again, Status is where it was (its page read again).
  const [kept, keep] = useKept<StatusState>('status');
  const [state, dispatch] = useStatusState(kept);
  useEffect(() => keep(state));
  const theme = useTheme();
  useStatusEffects(app, state, dispatch);
  const heldNote = useStatusInput(state, dispatch);
  useHelp(helpFor(state));
  const { status } = state;
  // Lines wrapped (the counts grown long, a flush's result) take their rows from the lists'.
  const result = resultLines(state, columns);
  const wrapped = queueLineCount(status, columns) - 2 + Math.max(0, result.length - 1);
  const room = Math.max(2, rows - SHELL_LINES - SCREEN_CHROME - wrapped);
  const sessionRows =
    status && status.recovery.total === 0
      ? room - 1
      : Math.min(SESSION_ROWS_WITH_ITEMS, Math.max(1, status?.sessions.length ?? 1));
  const itemRows = Math.max(1, room - sessionRows);
  const items = pageItems(state);
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          Processing status
        </Text>
        {status ? ` · mode ${status.mode}` : ''}
      </Text>
      <QueueLines status={status} columns={columns} />
      <SessionRows status={status} height={sessionRows} columns={columns} />
      <RecoveryTitle state={state} />
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {status && status.recovery.total === 0 ? <Text color={theme.muted}> (no open recovery items)</Text> : null}
        <RecoveryRows items={items} selected={state.selected} height={itemRows} columns={columns} />
        {heldNote ? <Text wrap="truncate-end">{heldNote}</Text> : null}
      </Box>
      <ProgressLine state={state} result={result} />
      <ErrorLine error={state.error?.error ?? null} prefix={state.error?.action} />
    </Box>
  );
}
