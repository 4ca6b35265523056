// The shell: header, the current screen, help line. It owns the shell state and hands screens
// the Application through context; screens never reach the store themselves.
import { Box, useApp } from 'ink';
import type { AgentView } from '../api/agents.js';
import { useMemo, useReducer, useState } from 'react';
import { Agents } from './agents/agents.js';
import { Dashboard } from './dashboard/dashboard.js';
import { History } from './history/history.js';
import { Integrations } from './integrations/integrations.js';
import { ProcessingStatus } from './status/status.js';
import { Memory } from './memory/memory.js';
import { Sessions } from './sessions/sessions.js';
import { commandFor, NO_KEY } from './keyboard/key-bindings.js';
import { KeyboardProvider, PRIORITY, useKeyHandler } from './keyboard/keyboard-router.js';
import { Header } from './shell/header.js';
import { HelpLine } from './shell/help-line.js';
import {
  ShellProviders,
  useEnvironment,
  useShellActions,
  useShellState,
  type QuitReason,
  type ShellActions,
  type ShellEnvironment,
} from './shell/shell-context.js';
import { initialShellState, shellReducer, type ScreenName } from './shell/shell-state.js';
import { useHeaderStatus } from './shell/use-header-status.js';
import { useTerminalSize } from './terminal-size.js';
import { Reader } from './widgets/reader.js';
import { ThemeContext, themeFor, type Theme } from './widgets/theme.js';

export interface AppProps extends ShellEnvironment {
  /** Called once when the user quits (q, or Ctrl+C: 'interrupt'), before Ink unmounts. */
  onQuit?: (how: QuitReason) => void;
  /** Defaults to the environment's NO_COLOR. */
  theme?: Theme;
}

export function App({ onQuit, theme, ...environment }: AppProps) {
  return (
    <ThemeContext.Provider value={theme ?? themeFor(process.env)}>
      <KeyboardProvider>
        <Shell environment={environment} onQuit={onQuit} />
      </KeyboardProvider>
    </ThemeContext.Provider>
  );
}

function Shell({
  environment,
  onQuit,
}: {
  environment: ShellEnvironment;
  onQuit: ((how: QuitReason) => void) | undefined;
}) {
  const [state, dispatch] = useReducer(shellReducer, initialShellState);
  const [kept] = useState(() => new Map<string, unknown>());
  const { exit } = useApp();
  const actions = useMemo<ShellActions>(
    () => ({
      show: (screen) => dispatch({ type: 'show', screen }),
      nextScreen: () => dispatch({ type: 'nextScreen' }),
      previousScreen: () => dispatch({ type: 'previousScreen' }),
      setHelp: (help) => dispatch({ type: 'setHelp', help }),
      read: (content) => dispatch({ type: 'read', content }),
      closeReader: () => dispatch({ type: 'read', content: null }),
      askQuit: (running) => dispatch({ type: 'askQuit', running }),
      reportStatus: (status) => dispatch({ type: 'statusLoaded', status, at: new Date() }),
      reportStatusError: (error) => dispatch({ type: 'statusFailed', error, at: new Date() }),
      quit: (how = 'quit') => {
        onQuit?.(how);
        exit();
      },
    }),
    [exit, onQuit],
  );
  return (
    <ShellProviders environment={environment} state={state} actions={actions} kept={kept}>
      <ShellLayout />
    </ShellProviders>
  );
}

const SCREEN_COMMANDS = [
  'showDashboard',
  'showHistory',
  'showAgents',
  'showStatus',
  'showIntegrations',
  'showSessions',
  'showMemory',
] as const;

const SHELL_COMMANDS = ['quit', ...SCREEN_COMMANDS, 'nextScreen', 'previousScreen'] as const;

const SCREEN_FOR = {
  showDashboard: 'dashboard',
  showHistory: 'history',
  showAgents: 'agents',
  showStatus: 'status',
  showIntegrations: 'integrations',
  showSessions: 'sessions',
  showMemory: 'memory',
} as const;

/** Agents that stop when this TUI's own host stops. */
const runningAgents = (agents: AgentView[]): string[] =>
  agents
    .filter((agent) => agent.generation?.state === 'running' || agent.generation?.state === 'starting')
    .map((agent) => agent.name);

function useShellKeys(): void {
  const actions = useShellActions();
  const { app, connection } = useEnvironment();
  const { quitQuestion } = useShellState();
  // q quits at once, unless the host in this process runs agents: stopping it stops them, so ask.
  const quitOrAsk = () => {
    if (connection !== 'in-process host') return actions.quit();
    app.listAgents().then(
      (agents) => {
        const running = runningAgents(agents);
        if (running.length > 0) actions.askQuit(running);
        else actions.quit();
      },
      () => actions.quit(),
    );
  };
  useKeyHandler(
    PRIORITY.question,
    (input, key) => {
      const answer = commandFor(['confirm', 'decline'], input, key);
      if (answer === 'confirm') actions.quit();
      else if (answer === 'decline') actions.askQuit(null);
      return true;
    },
    quitQuestion !== null,
  );
  useKeyHandler(PRIORITY.system, (input, key) => {
    if (commandFor(['interrupt'], input, key) === undefined) return false;
    actions.quit('interrupt');
    return true;
  });
  useKeyHandler(PRIORITY.global, (input, key) => {
    const command = commandFor(SHELL_COMMANDS, input, key);
    if (command === 'quit') quitOrAsk();
    else if (command === 'nextScreen') actions.nextScreen();
    else if (command === 'previousScreen') actions.previousScreen();
    else if (command !== undefined) actions.show(SCREEN_FOR[command]);
    else {
      // Screen keys typed while the TUI was busy reach Ink as one input ("12") until the terminal
      // has shown it marks pastes (keyboard/bracketed-paste.ts replays runs key by key after
      // that): pressed in turn they end on the last one's screen. Any other run is left alone:
      // it may be a paste, and a paste must not press "a" (approve).
      const screens = key.ctrl || key.meta ? [] : [...input].map((typed) => commandFor(SCREEN_COMMANDS, typed, NO_KEY));
      const last = screens.at(-1);
      if (screens.length < 2 || last === undefined || screens.includes(undefined)) return false;
      actions.show(SCREEN_FOR[last]);
    }
    return true;
  });
}

function ShellLayout() {
  useShellKeys();
  useHeaderStatus();
  const { screen, reading } = useShellState();
  const { rows } = useTerminalSize();
  // One row short of the terminal: a frame as tall as the terminal makes Ink clear the whole
  // screen on every render, which flickers while following.
  return (
    <Box flexDirection="column" height={Math.max(rows - 1, 3)}>
      {/* Never shrunk: on a short terminal the screen gives up its rows, never the header or the keys. */}
      <Box flexShrink={0} flexDirection="column">
        <Header />
      </Box>
      {reading ? (
        <Box flexDirection="column" flexGrow={1} overflow="hidden">
          <Reader content={reading} />
        </Box>
      ) : null}
      {/* Hidden, not unmounted, while a reader is open: the screen keeps its place and its data. */}
      <Box flexDirection="column" flexGrow={1} overflow="hidden" display={reading ? 'none' : 'flex'}>
        <CurrentScreen screen={screen} />
      </Box>
      <Box flexShrink={0}>
        <HelpLine />
      </Box>
    </Box>
  );
}

function CurrentScreen({ screen }: { screen: ScreenName }) {
  switch (screen) {
    case 'dashboard':
      return <Dashboard />;
    case 'history':
      return <History />;
    case 'agents':
      return <Agents />;
    case 'status':
      return <ProcessingStatus />;
    case 'integrations':
      return <Integrations />;
    case 'sessions':
      return <Sessions />;
    case 'memory':
      return <Memory />;
  }
}
