// Dashboard: which store, which host, whether the background service runs, and how far each
// history has grown.
import { Box, Text } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import { brokenIntegrationText, brokenIntegrations, silentHooks, silentHooksText } from '../../hosts/integrations.js';
import { integrationDirs } from '../integrations/use-integrations-effects.js';
import { useTerminalSize } from '../terminal-size.js';
import { wrapLines } from '../integrations/plan-lines.js';
import type { HostStatus } from '../../api/history.js';
import { FLUSH_COMMAND, waitingCounts } from '../../waiting-text.js';
import { clockTime, shortId } from '../format.js';
import { helpItem } from '../keyboard/key-bindings.js';
import { useEnvironment, useHelp } from '../shell/shell-context.js';
import { ErrorLine } from '../widgets/error-line.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { probeService, type ServiceStatus } from '../../service/service-manager.js';
import { SERVICE_REFRESH_MS } from '../timing.js';
import { SERVICE_COMMANDS, serviceLine } from './service-line.js';
import { useDashboardState } from './use-dashboard-state.js';
import { counted } from '../../ground/count-text.js';

const LABEL_WIDTH = 11;

/** Commands the Dashboard's lines name: wrapped, each stays whole on its line, to be copied. */
const COMMANDS = [...SERVICE_COMMANDS, FLUSH_COMMAND];

/**
 * A label and its text. Text wider than the room after the label (60 columns) wraps under the
 * text, never under the label, and a command it names is never broken.
 */
function Field({
  label,
  text,
  color,
  keep = [],
}: {
  label: string;
  text: string;
  color?: string | undefined;
  /** Phrases of this line also kept whole (a name and its value: `pid 4242`). */
  keep?: readonly string[];
}) {
  const { columns } = useTerminalSize();
  const lines = useMemo(
    () => wrapLines([text], Math.max(1, columns - LABEL_WIDTH), [...COMMANDS, ...keep]).map((line) => line.text),
    [text, columns, keep],
  );
  return (
    <Box>
      <Box width={LABEL_WIDTH} flexShrink={0}>
        <Text>{label}</Text>
      </Box>
      <Box flexDirection="column">
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines have no identity but their place
          <Text key={index} color={color} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </Box>
    </Box>
  );
}

/** The read ledger in a few words: what the root agents read, or why it cannot be told. */
function ledgerText(ledger: HostStatus['ledger']): string {
  const last = ledger.lastError ? ` · last failure ${ledger.lastError.code}` : '';
  if (ledger.state === 'unavailable') return `unavailable: ${ledger.reason ?? 'unknown'}${last}`;
  return `${counted(ledger.entries, 'entry', 'entries')} read in ${counted(ledger.roots, 'conversation')} (${ledger.activeRoots} active)${last}`;
}

/**
 * What the host has yet to process (it does so by itself; flush does it at once); null when nothing
 * waits, so that at 80×24 the row gives its line to a warning (broken hooks) that matters more.
 */
function waitingLine(waiting: HostStatus['waiting']): string | null {
  const counts = waitingCounts(waiting);
  return counts === null ? null : `${counts} · now: ${FLUSH_COMMAND}`;
}

/**
 * Installed hooks that name a node or shim that is gone (a moved clone, a removed Node): nothing
 * is captured until they are repaired, so the Dashboard says so in full, with the repair.
 */
function BrokenHooks({ refreshedAt, status }: { refreshedAt: Date | null; status: HostStatus | null }) {
  const environment = useEnvironment();
  const theme = useTheme();
  const { home } = environment;
  const codexDir = environment.integrations?.codexDir;
  const claudeDir = environment.integrations?.claudeDir;
  const piDir = environment.integrations?.piDir;
  const { columns } = useTerminalSize();
  const [broken, setBroken] = useState<ReturnType<typeof brokenIntegrations>>([]);
  // After the frame, never in it: reading the clients' config files is no part of the first frame.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each refresh of the Dashboard.
  useEffect(
    () => setBroken(brokenIntegrations(integrationDirs({ home, integrations: { codexDir, claudeDir, piDir } }))),
    [home, codexDir, claudeDir, piDir, refreshedAt],
  );
  // Codex hooks that never ran since they were written: most likely not trusted yet.
  const lastCodex = status?.lastEventAt.codex ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again at each refresh of the Dashboard.
  const silent = useMemo(
    () =>
      status
        ? silentHooks(integrationDirs({ home, integrations: { codexDir, claudeDir, piDir } }), { codex: lastCodex })
        : [],
    [home, codexDir, claudeDir, piDir, refreshedAt, lastCodex, status === null],
  );
  if (broken.length === 0 && silent.length === 0) return null;
  // Wrapped here, not by Ink: the repair command starts its own line and is never broken at a
  // space (only a command wider than the terminal goes on to the next row).
  const lines = wrapLines(
    [
      ...broken.map((item) => `${brokenIntegrationText(item)} (or 5 Integrations, i, y)`),
      ...silent.map(silentHooksText),
    ],
    columns,
    broken.map((item) => item.fix),
  ).map((line) => line.text);
  return (
    <Box marginTop={1} flexDirection="column">
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: wrapped lines have no identity but their place
        <Text key={index} color={theme.error} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}

/** Whether the background service is installed and runs, read after the first frame and every few seconds. */
function ServiceField() {
  const { home, service = probeService } = useEnvironment();
  const theme = useTheme();
  const [status, setStatus] = useState<ServiceStatus | null | undefined | Error>(undefined);
  useRequestLoop(
    () => ({
      run: () => service(home),
      answered: (value) => {
        setStatus(value);
        return SERVICE_REFRESH_MS;
      },
      failed: (error) => {
        setStatus(new Error(error.message));
        return SERVICE_REFRESH_MS;
      },
    }),
    [home, service],
  );
  const line = serviceLine(status);
  const color = { text: undefined, muted: theme.muted, ok: theme.ok, error: theme.error }[line.tone];
  return <Field label="Service" text={line.text} color={color} />;
}

export function Dashboard() {
  const { home, connection } = useEnvironment();
  const { status, error, loading, refreshedAt } = useDashboardState();
  const theme = useTheme();
  const waiting = status ? waitingLine(status.waiting) : null;
  useHelp([helpItem('history', ['showHistory'])]);
  return (
    // Never shrunk: on a terminal too short for it (60×15) a shrunk row took no height and the next
    // was drawn over it (Started over Service); unshrunk, the rows that do not fit are given up at
    // the bottom, where the screen's box cuts them.
    <Box flexDirection="column" paddingTop={1} flexShrink={0}>
      <Text bold color={theme.accent}>
        Dashboard
      </Text>
      <Field label="Store" text={status ? status.storeId : '…'} />
      <Field label="Home" text={home} />
      <Field
        label="Host"
        text={
          status
            ? `${connection} · mode ${status.mode} · host ${shortId(status.hostId)} · pid ${status.pid}`
            : connection
        }
        keep={status ? [`mode ${status.mode}`, `host ${shortId(status.hostId)}`, `pid ${status.pid}`] : []}
      />
      <ServiceField />
      <Field label="Started" text={status ? status.startedAt : '…'} />
      <Box marginTop={1} flexDirection="column">
        {/* The two heads share a line, so the service line costs the screen no row. */}
        <Field
          label="Heads"
          text={status ? `journal ${status.heads.journal} · timeline ${status.heads.timeline}` : '…'}
        />
        <Field label="Ledger" text={status ? ledgerText(status.ledger) : '…'} />
        {waiting ? <Field label="Waiting" text={waiting} /> : null}
      </Box>
      <BrokenHooks refreshedAt={refreshedAt} status={status} />
      <Box marginTop={1}>
        <Text color={theme.muted}>{refreshedAt ? `refreshed ${clockTime(refreshedAt)} ` : ''}</Text>
        {loading ? <Spinner label="refreshing…" /> : null}
      </Box>
      {/* No blank row kept for an error that is not there: at 80×24 a broken-hooks warning needs it. */}
      {error ? <ErrorLine error={error} prefix="status" /> : null}
    </Box>
  );
}
