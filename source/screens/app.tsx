// The shell: header, the current screen, help line. It owns the shell state and hands screens
// the Application through context; screens never reach the store themselves.
import { Box, useApp } from 'ink';
import { useMemo, useReducer } from 'react';
import { Dashboard } from './dashboard/dashboard.js';
import { History } from './history/history.js';
import { commandFor } from './keyboard/key-bindings.js';
import { KeyboardProvider, PRIORITY, useKeyHandler } from './keyboard/keyboard-router.js';
import { Header } from './shell/header.js';
import { HelpLine } from './shell/help-line.js';
import { ShellProviders, useShellActions, useShellState, type ShellActions, type ShellEnvironment } from './shell/shell-context.js';
import { initialShellState, shellReducer } from './shell/shell-state.js';
import { useHeaderStatus } from './shell/use-header-status.js';
import { useTerminalSize } from './terminal-size.js';
import { ThemeContext, themeFor, type Theme } from './widgets/theme.js';

export interface AppProps extends ShellEnvironment {
  /** Called once when the user quits, before Ink unmounts. */
  onQuit?: () => void;
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

function Shell({ environment, onQuit }: { environment: ShellEnvironment; onQuit: (() => void) | undefined }) {
  const [state, dispatch] = useReducer(shellReducer, initialShellState);
  const { exit } = useApp();
  const actions = useMemo<ShellActions>(
    () => ({
      show: (screen) => dispatch({ type: 'show', screen }),
      nextScreen: () => dispatch({ type: 'nextScreen' }),
      setHelp: (help) => dispatch({ type: 'setHelp', help }),
      reportStatus: (status) => dispatch({ type: 'statusLoaded', status, at: new Date() }),
      reportStatusError: (error) => dispatch({ type: 'statusFailed', error, at: new Date() }),
      quit: () => {
        onQuit?.();
        exit();
      },
    }),
    [exit, onQuit],
  );
  return (
    <ShellProviders environment={environment} state={state} actions={actions}>
      <ShellLayout />
    </ShellProviders>
  );
}

const SHELL_COMMANDS = ['quit', 'showDashboard', 'showHistory', 'nextScreen'] as const;

function useShellKeys(): void {
  const actions = useShellActions();
  useKeyHandler(PRIORITY.system, (input, key) => {
    if (commandFor(['interrupt'], input, key) === undefined) return false;
    actions.quit();
    return true;
  });
  useKeyHandler(PRIORITY.global, (input, key) => {
    const command = commandFor(SHELL_COMMANDS, input, key);
    if (command === 'quit') actions.quit();
    else if (command === 'showDashboard') actions.show('dashboard');
    else if (command === 'showHistory') actions.show('history');
    else if (command === 'nextScreen') actions.nextScreen();
    return command !== undefined;
  });
}

function ShellLayout() {
  useShellKeys();
  useHeaderStatus();
  const { screen } = useShellState();
  const { rows } = useTerminalSize();
  // One row short of the terminal: a frame as tall as the terminal makes Ink clear the whole
  // screen on every render, which flickers while following.
  return (
    <Box flexDirection="column" height={Math.max(rows - 1, 3)}>
      <Header />
      <Box flexDirection="column" flexGrow={1} overflow="hidden">
        {screen === 'dashboard' ? <Dashboard /> : <History />}
      </Box>
      <HelpLine />
    </Box>
  );
}
