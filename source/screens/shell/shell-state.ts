// The shell's own state: which screen is shown, what its help line says, and the host state the
// header shows. A reducer with named actions; views read it through ShellStateContext only.
import type { HostStatus } from '../../api/history.js';
import type { ShownError } from '../format.js';

/** Text opened in full over the current screen (see widgets/reader.tsx). */
export interface ReaderContent {
  title: string;
  text: string;
  /** The raw form behind the text (JSON), shown instead with v. */
  raw?: string;
  /** Open at the end (a feed whose newest row is last) rather than at the top. */
  atEnd?: boolean;
}

export const SCREENS = [
  { name: 'dashboard', title: 'Dashboard', command: 'showDashboard' },
  { name: 'history', title: 'History', command: 'showHistory' },
  { name: 'agents', title: 'Agents', command: 'showAgents' },
  { name: 'status', title: 'Status', command: 'showStatus' },
  { name: 'integrations', title: 'Integrations', command: 'showIntegrations' },
  { name: 'sessions', title: 'Sessions', command: 'showSessions' },
  { name: 'memory', title: 'Memory', command: 'showMemory' },
] as const;

export type ScreenName = (typeof SCREENS)[number]['name'];

export interface HelpItem {
  keys: string;
  label: string;
  /** A key that decides (approve a plan, drop it): where the line has no room for every key, it stays. */
  decides?: boolean;
}

export interface HostView {
  status: HostStatus | null;
  error: ShownError | null;
  checkedAt: Date | null;
}

export interface ScreenHelp {
  items: HelpItem[];
  /** False while a text input has the keyboard: q and Tab are text then, only Ctrl+C quits. */
  shared: boolean;
}

export interface ShellState {
  screen: ScreenName;
  help: ScreenHelp;
  host: HostView;
  /** Text open in full over the screen, or null. */
  reading: ReaderContent | null;
  /** q pressed while this TUI's own host runs agents: their names, until y or n answers. */
  quitQuestion: string[] | null;
}

export type ShellAction =
  | { type: 'show'; screen: ScreenName }
  | { type: 'nextScreen' }
  | { type: 'previousScreen' }
  | { type: 'setHelp'; help: ScreenHelp }
  | { type: 'read'; content: ReaderContent | null }
  | { type: 'askQuit'; running: string[] | null }
  | { type: 'statusLoaded'; status: HostStatus; at: Date }
  | { type: 'statusFailed'; error: ShownError; at: Date };

const noHelp: ScreenHelp = { items: [], shared: true };

export const initialShellState: ShellState = {
  screen: 'dashboard',
  help: noHelp,
  host: { status: null, error: null, checkedAt: null },
  reading: null,
  quitQuestion: null,
};

export function shellReducer(state: ShellState, action: ShellAction): ShellState {
  switch (action.type) {
    case 'show':
      return state.screen === action.screen ? state : { ...state, screen: action.screen, help: noHelp };
    case 'nextScreen':
    case 'previousScreen': {
      const index = SCREENS.findIndex((screen) => screen.name === state.screen);
      const step = action.type === 'nextScreen' ? 1 : SCREENS.length - 1;
      const next = SCREENS[(index + step) % SCREENS.length] ?? SCREENS[0];
      return { ...state, screen: next.name, help: noHelp };
    }
    case 'setHelp':
      return { ...state, help: action.help };
    case 'read':
      return { ...state, reading: action.content };
    case 'askQuit':
      return { ...state, quitQuestion: action.running };
    case 'statusLoaded':
      // The last good status stays shown next to a later error, so the header keeps the store ID.
      return { ...state, host: { status: action.status, error: null, checkedAt: action.at } };
    case 'statusFailed':
      return { ...state, host: { ...state.host, error: action.error, checkedAt: action.at } };
  }
}
