// State context apart from actions context: views that only act (key handlers) do not re-render
// when state changes, and the actions object never changes identity.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Application } from '../../api/application.js';
import type { HostStatus } from '../../api/history.js';
import type { EditorEnv, EditorSpawn } from '../../ground/text-editor.js';
import type { ServiceStatus } from '../../service/service-manager.js';
import type { ShownError } from '../format.js';
import type { HelpItem, ReaderContent, ScreenHelp, ScreenName, ShellState } from './shell-state.js';

export type Connection = 'in-process host' | 'remote host';

export interface ShellEnvironment {
  app: Application;
  home: string;
  connection: Connection;
  /** The directory whose repository the Memory screen reviews and promotes (default: the process's). */
  cwd?: string | undefined;
  /** Where the Integrations screen looks for the clients' config; default: each client's own. Tests point it at temp dirs. */
  integrations?:
    | { codexDir?: string | undefined; claudeDir?: string | undefined; piDir?: string | undefined }
    | undefined;
  /** Reads this data home's background service (default: from systemd or launchd); tests inject one. */
  service?: ServiceProbe | undefined;
  /**
   * Where the Memory screen's `e` finds the person's editor ($VISUAL, else $EDITOR) and how it runs
   * it; default: this process's environment, through a shell. Tests give an environment of their own.
   */
  editor?: { env: EditorEnv; spawn?: EditorSpawn | undefined } | undefined;
}

/** The background service of a data home; null where the platform has none (not Linux or macOS). */
export type ServiceProbe = (home: string) => Promise<ServiceStatus | null>;

export type QuitReason = 'quit' | 'interrupt';

export interface ShellActions {
  show(screen: ScreenName): void;
  nextScreen(): void;
  previousScreen(): void;
  setHelp(help: ScreenHelp): void;
  /** Opens text in full over the current screen (Esc closes it). */
  read(content: ReaderContent): void;
  closeReader(): void;
  /** Any screen that reads the status shares it with the header. */
  reportStatus(status: HostStatus): void;
  reportStatusError(error: ShownError): void;
  /** Asks before q ends the TUI (running agents of its own host stop with it); null closes the question. */
  askQuit(running: string[] | null): void;
  /** Ends the TUI; Ctrl+C says so, so the process exits 130 as an interrupted command does. */
  quit(how?: QuitReason): void;
}

const EnvironmentContext = createContext<ShellEnvironment | null>(null);
const StateContext = createContext<ShellState | null>(null);
const ActionsContext = createContext<ShellActions | null>(null);
/** What screens keep while another is shown (a screen unmounts when left), by screen. */
const KeptContext = createContext<Map<string, unknown> | null>(null);

export function ShellProviders(props: {
  environment: ShellEnvironment;
  state: ShellState;
  actions: ShellActions;
  kept: Map<string, unknown>;
  children: ReactNode;
}) {
  return (
    <EnvironmentContext.Provider value={props.environment}>
      <ActionsContext.Provider value={props.actions}>
        <KeptContext.Provider value={props.kept}>
          <StateContext.Provider value={props.state}>{props.children}</StateContext.Provider>
        </KeptContext.Provider>
      </ActionsContext.Provider>
    </EnvironmentContext.Provider>
  );
}

function required<T>(value: T | null, name: string): T {
  if (value === null) throw new Error(`${name} is only available inside the TUI shell.`);
  return value;
}

export const useEnvironment = (): ShellEnvironment => required(useContext(EnvironmentContext), 'The environment');
export const useShellState = (): ShellState => required(useContext(StateContext), 'Shell state');
export const useShellActions = (): ShellActions => required(useContext(ActionsContext), 'Shell actions');

/**
 * A screen's state kept while another screen is shown (a screen unmounts when left): what it kept
 * when it was last left (undefined the first time), and the function that keeps its state now.
 */
export function useKept<T>(screen: string): [initial: T | undefined, keep: (state: T) => void] {
  const kept = required(useContext(KeptContext), 'Kept state');
  const [initial] = useState(() => kept.get(screen) as T | undefined);
  const keep = useCallback((state: T) => void kept.set(screen, state), [kept, screen]);
  return [initial, keep];
}

/**
 * Starts a screen's request at most once per id, though the screen unmounts when left: the request
 * is kept (by `name`, the last one only) with its id, so the screen shown again with that request
 * still in its state follows the same one — its answer or its failure, had it come while another
 * screen was shown — instead of sending it again.
 */
export function useKeptRequest(name: string): <T>(id: number, start: () => Promise<T>) => Promise<T> {
  const kept = required(useContext(KeptContext), 'Kept state');
  return useCallback(
    <T,>(id: number, start: () => Promise<T>): Promise<T> => {
      const key = `${name}\u0000request`;
      const held = kept.get(key) as { id: number; promise: Promise<T> } | undefined;
      if (held?.id === id) return held.promise;
      const promise = start();
      kept.set(key, { id, promise });
      return promise;
    },
    [kept, name],
  );
}

/** Publishes the current screen's keys to the help line; re-published only when the text changes. */
export function useHelp(items: HelpItem[], shared = true): void {
  const { setHelp } = useShellActions();
  const signature = `${shared}\u0002${items.map((item) => `${item.keys}\u0000${item.label}`).join('\u0001')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` stands for `items` and `shared`; a new array with the same text must not loop.
  useEffect(() => {
    setHelp({ items, shared });
  }, [signature, setHelp]);
}
