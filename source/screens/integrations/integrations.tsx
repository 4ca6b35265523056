// Integrations screen: whether common-memory's hooks are installed in Codex and Claude Code, and its
// extension in pi, as a chooser of clients; plan an install or uninstall, read its diff, apply it
// with "y", see the result and, for Codex, how its hook trust works. m shows what importing the
// client's stored conversations would bring in (nothing written), and "y" imports it, with its
// progress, then its report. Owns its state; the parts only render it.
import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { wrapLines, type DisplayLine } from './plan-lines.js';
import type { IntegrationState } from '../../hosts/integrations.js';
import { HEADER_LINES } from '../shell/header.js';
import { useEnvironment, useHelp, useKept } from '../shell/shell-context.js';
import { helpItem, keyLabel } from '../keyboard/key-bindings.js';
import type { HelpItem } from '../shell/shell-state.js';
import { useTerminalSize } from '../terminal-size.js';
import { Chooser, type ChooserOption, chooserRows } from '../widgets/chooser.js';
import { ErrorLine } from '../widgets/error-line.js';
import { useTheme } from '../widgets/theme.js';
import { useIntegrationsEffects } from './use-integrations-effects.js';
import { useIntegrationsInput } from './use-integrations-input.js';
import { useIntegrationsState, type ClientRow, type IntegrationsState, type Panel } from './use-integrations-state.js';

/** Title, a hint line, the panel title, the error line; the clients' lines are counted apart. */
const SCREEN_CHROME = 4;
const SHELL_LINES = HEADER_LINES + 2;

const STATE_WORDS: Record<IntegrationState, string> = {
  installed: 'installed',
  outdated: 'outdated (i updates)',
  not_installed: 'not installed',
  partial: 'partly installed',
  blocked: 'blocked (install would be refused)',
};

const CLIENT_NAMES = { codex: 'Codex', claude: 'Claude Code', pi: 'pi' } as const;

function helpFor(state: IntegrationsState): HelpItem[] {
  if (!state.panel) {
    return [
      helpItem('choose', ['selectUp', 'selectDown']),
      // Each opens a panel that shows what would change; only "y" there writes.
      helpItem('install', ['planInstall', 'openItem']),
      helpItem('uninstall', ['planUninstall']),
      helpItem('import', ['planImport']),
      helpItem('refresh', ['refresh']),
    ];
  }
  const help: HelpItem[] = [helpItem('scroll', ['selectUp', 'selectDown', 'previousPage', 'nextPage'])];
  if (state.panel.applicable) help.push(helpItem(`apply ${state.panel.applicable.plan.action}`, ['confirm']));
  if (state.panel.importable) help.push(helpItem('import', ['confirm']));
  help.push({ keys: keyLabel('cancel'), label: 'close' });
  return help;
}

/**
 * A client's row: its name, the state of its hooks (or extension) and the file they are in. Where
 * that is longer than the line (60 columns), only the highlighted client names its file.
 */
function clientOption(row: ClientRow): ChooserOption {
  const word = row.error
    ? `error ${row.error.code}`
    : row.broken.length > 0
      ? 'broken (i fixes)'
      : row.state
        ? STATE_WORDS[row.state]
        : '…';
  const tone =
    row.error || row.state === 'blocked' || row.broken.length > 0 ? 'error' : row.state === 'installed' ? 'ok' : 'text';
  return {
    label: `${CLIENT_NAMES[row.client].padEnd(12)} ${word.padEnd(17)} ${row.path ?? row.error?.message ?? ''}`,
    short: `${CLIENT_NAMES[row.client].padEnd(12)} ${word}`,
    tone,
  };
}

function hintFor(state: IntegrationsState): string {
  const row = state.clients[state.selected];
  if (!row) return ' ';
  if (row.client === 'codex' && row.state === 'installed')
    return 'Codex runs these hooks only once you trust them: i shows how.';
  if (row.client === 'pi' && row.state === 'installed')
    return 'pi loads the extension at its next start (or /reload in a running pi).';
  const these = row.client === 'pi' ? "pi's extension entry" : 'these hooks';
  const broken = row.broken[0];
  if (broken)
    return `${row.client === 'pi' ? "pi's extension" : 'These hooks'} cannot run, nothing is captured: ${broken.message}. i plans the repair.`;
  if (row.state === 'outdated') return `An earlier common-memory wrote ${these}: i plans rewriting it for this one.`;
  if (row.state === 'blocked') return 'Another or a changed entry is in the way: i shows what and how to fix it.';
  return ' ';
}

function PanelView({ panel, lines, rows }: { panel: Panel; lines: DisplayLine[]; rows: number }) {
  const theme = useTheme();
  const offset = Math.min(panel.offset, Math.max(0, lines.length - 1));
  const end = Math.min(lines.length, offset + rows);
  const position = lines.length > rows ? ` · lines ${offset + 1}–${end} of ${lines.length}` : '';
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          {panel.title}
        </Text>
        {position}
      </Text>
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {lines.slice(offset, end).map(({ text, source }, index) => {
          const color = source.startsWith('REFUSED')
            ? theme.error
            : source.startsWith('+') && !source.startsWith('+++')
              ? theme.ok
              : source.startsWith('-') && !source.startsWith('---')
                ? theme.error
                : undefined;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a plan's lines have no identity but their place, and the list is only ever sliced
            <Text key={offset + index} color={color} wrap="truncate-end">
              {text === '' ? ' ' : text}
            </Text>
          );
        })}
      </Box>
    </Box>
  );
}

export function Integrations() {
  const environment = useEnvironment();
  const { rows, columns } = useTerminalSize();
  const theme = useTheme();
  // Left for another screen and shown again, Integrations is where it was (the states read again).
  const [kept, keep] = useKept<IntegrationsState>('integrations');
  const [state, dispatch] = useIntegrationsState(kept);
  useEffect(() => keep(state));
  const options = useMemo(() => state.clients.map(clientOption), [state.clients]);
  const panelRows = Math.max(1, rows - SHELL_LINES - SCREEN_CHROME - chooserRows(options, columns, state.selected));
  useIntegrationsEffects(environment, state, dispatch);
  const planLines = state.panel?.lines;
  const commands = state.panel?.commands;
  const panelLines = useMemo(
    () => (planLines ? wrapLines(planLines, columns, commands) : []),
    [planLines, columns, commands],
  );
  useIntegrationsInput(state, dispatch, panelRows, panelLines.length);
  useHelp(helpFor(state));
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text bold color={theme.accent}>
        {"Integrations · common-memory's hooks in the clients' config"}
      </Text>
      <Chooser options={options} highlighted={state.selected} columns={columns} />
      <Text color={theme.muted} wrap="truncate-end">
        {hintFor(state)}
      </Text>
      {state.panel ? <PanelView panel={state.panel} lines={panelLines} rows={panelRows} /> : <Box flexGrow={1} />}
      <ErrorLine error={state.error?.error ?? null} prefix={state.error?.action} />
    </Box>
  );
}
