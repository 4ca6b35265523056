// The upper part of the status screen: queue states (host inbox / watch / isolated, hook errors,
// inbox and batch counts) and the newest sessions. Counts only: status never shows a body.
import { Box, Text } from 'ink';
import type { CaptureSessionView, CaptureStatus } from '../../api/capture.js';
import { truncate } from '../format.js';
import { useTheme } from '../widgets/theme.js';

export function QueueLines({ status }: { status: CaptureStatus | null }) {
  const theme = useTheme();
  if (!status) return <Text color={theme.muted}>{'Queue     …\n '}</Text>;
  const { host, queue } = status;
  const hookErrors = host.lastHookError
    ? `${host.hookErrors} (last ${host.lastHookError.code})`
    : String(host.hookErrors);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {'Host      '}inbox {host.inbox} · watch {host.watch} · isolated{' '}
        <Text color={host.isolated > 0 ? theme.error : undefined}>{host.isolated}</Text> · hook errors{' '}
        <Text color={host.hookErrors > 0 ? theme.error : undefined}>{hookErrors}</Text>
      </Text>
      {host.notWritable !== null ? (
        <Text color={theme.error} wrap="wrap">
          {'Home      '}not writable: {host.notWritable}
        </Text>
      ) : null}
      <Text wrap="truncate-end">
        {'Queue     '}inbox pending {queue.inboxPending} · processed {queue.inboxProcessed} · batches ready{' '}
        {queue.batchesReady} · prompts pending {queue.candidatesPending}
      </Text>
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
