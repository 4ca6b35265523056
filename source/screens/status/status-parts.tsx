// The upper part of the status screen: queue states (host inbox / watch / isolated, hook errors,
// inbox and batch counts) and the newest sessions. Counts only: status never shows a body.
import { Box, Text } from 'ink';
import type { CaptureSessionView, CaptureStatus } from '../../api/capture.js';
import { textColumns } from '../../text-columns.js';
import { truncate } from '../format.js';
import { wrapLines } from '../memory/wrap-lines.js';
import { useTheme } from '../widgets/theme.js';

/** One count of a Host or Queue line; `alert` colours it (its words say the same). */
interface Count {
  text: string;
  alert?: boolean;
}

const LABEL_COLUMNS = 10;

/**
 * A labelled line of counts as screen lines: wrapped between counts, never inside one, the lines
 * after the first under the label's column, so a count grown long is on screen whole.
 */
function countLines(label: string, counts: Count[], columns: number): { prefix: string; counts: Count[] }[] {
  const lines: { prefix: string; counts: Count[] }[] = [];
  let used = 0;
  for (const count of counts) {
    const width = textColumns(count.text);
    const line = lines.at(-1);
    if (line && used + 3 + width <= columns) {
      line.counts.push(count);
      used += 3 + width;
      continue;
    }
    lines.push({ prefix: (lines.length === 0 ? label : '').padEnd(LABEL_COLUMNS), counts: [count] });
    used = LABEL_COLUMNS + width;
  }
  return lines;
}

/** The Host, Home (when not writable) and Queue lines, wrapped to the screen. */
function queueText(status: CaptureStatus, columns: number) {
  const { host, queue } = status;
  const hookErrors = host.lastHookError
    ? `${host.hookErrors} (last ${host.lastHookError.code})`
    : String(host.hookErrors);
  return {
    host: countLines(
      'Host',
      [
        { text: `inbox ${host.inbox}` },
        { text: `watch ${host.watch}` },
        { text: `isolated ${host.isolated}`, alert: host.isolated > 0 },
        { text: `hook errors ${hookErrors}`, alert: host.hookErrors > 0 },
      ],
      columns,
    ),
    home:
      host.notWritable === null
        ? []
        : wrapLines(`not writable: ${host.notWritable}`, columns, 'error', ' '.repeat(LABEL_COLUMNS)).map(
            (line, index) => (index === 0 ? `${'Home'.padEnd(LABEL_COLUMNS)}${line.text}` : line.text),
          ),
    queue: countLines(
      'Queue',
      [
        { text: `inbox pending ${queue.inboxPending}` },
        { text: `processed ${queue.inboxProcessed}` },
        { text: `batches ready ${queue.batchesReady}` },
        { text: `prompts pending ${queue.candidatesPending}` },
      ],
      columns,
    ),
  };
}

/** The rows QueueLines takes at `columns`: two, and one more for each wrapped line. */
export function queueLineCount(status: CaptureStatus | null, columns: number): number {
  if (!status) return 2;
  const text = queueText(status, columns);
  return text.host.length + text.home.length + text.queue.length;
}

export function QueueLines({ status, columns }: { status: CaptureStatus | null; columns: number }) {
  const theme = useTheme();
  if (!status) return <Text color={theme.muted}>{'Queue     …\n '}</Text>;
  const text = queueText(status, columns);
  const counted = (lines: ReturnType<typeof countLines>) =>
    lines.map((line) => (
      <Text key={line.counts[0]?.text} wrap="truncate-end">
        {line.prefix}
        {line.counts.map((count, at) => (
          <Text key={count.text}>
            {at === 0 ? '' : ' · '}
            <Text color={count.alert ? theme.error : undefined}>{count.text}</Text>
          </Text>
        ))}
      </Text>
    ));
  return (
    <Box flexDirection="column">
      {counted(text.host)}
      {text.home.length > 0 ? <Text color={theme.error}>{text.home.join('\n')}</Text> : null}
      {counted(text.queue)}
    </Box>
  );
}

export function sessionLine(session: CaptureSessionView, columns: number): string {
  // Zero counts are left out so the line fits 80 columns; "no turns" says all are zero.
  const counts = Object.entries(session.turns)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${count} ${name}`);
  const turns = counts.length > 0 ? `turns ${counts.join(' · ')}` : 'no turns';
  return truncate(
    `  ${session.client.padEnd(6)} ${truncate(session.sessionKey, 14).padEnd(14)} ${session.state.padEnd(10)} ${turns} · inbox ${session.inbox}`,
    columns,
  );
}

export function SessionRows({
  status,
  height,
  columns,
}: {
  status: CaptureStatus | null;
  height: number;
  columns: number;
}) {
  const theme = useTheme();
  const sessions = status?.sessions ?? [];
  const shown = sessions.slice(0, Math.max(0, height));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          Sessions
        </Text>
        {status
          ? ` · ${status.sessionsTotal} in total${shown.length < status.sessionsTotal ? `, newest ${shown.length} shown (status --json lists ${sessions.length})` : ''}`
          : ''}
      </Text>
      {status && sessions.length === 0 ? <Text color={theme.muted}> (no captured sessions yet)</Text> : null}
      {shown.map((session) => (
        <Text
          key={session.sessionKey}
          color={session.state === 'isolated' ? theme.error : undefined}
          wrap="truncate-end"
        >
          {sessionLine(session, columns)}
        </Text>
      ))}
    </Box>
  );
}
