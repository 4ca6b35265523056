// `common-memory` with no command: the full-screen TUI. It works as a client of a running host,
// or starts one in this process (serving the API, so other terminals' commands reach it too).
import { findRunningHost, sayWaiting } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import type { Host } from '../../host/host.js';
import type { Application } from '../../api/application.js';

/** Environment variables by which Ink (and its dependencies) decide they run in CI. */
export const isCiMarker = (key: string): boolean =>
  key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_');

/** The clients' config dirs the Integrations screen reads and writes (undefined: each client's default). */
export interface TuiIntegrations {
  codexDir: string | undefined;
  claudeDir: string | undefined;
  piDir: string | undefined;
}

export async function runTuiCommand(home: string, integrations: TuiIntegrations): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CmError('usage', 'The TUI needs a terminal. Run a subcommand instead (see common-memory --help).');
  }
  // Ink prints only the final frame when it believes it runs in CI (CI=true and the like, read when
  // ink loads); here a person's terminal is established, so those markers must not blank the screen.
  for (const key of Object.keys(process.env)) if (isCiMarker(key)) delete process.env[key];
  // Before the first frame: a host starting elsewhere is waited for, and the terminal says so.
  const remote = await findRunningHost(home, sayWaiting(home));
  if (remote) {
    const { runTui } = await import('../../screens/run-tui.js');
    const { reconnectingClient } = await import('../../client/reconnecting-client.js');
    return exitFor(
      await runTui({ app: reconnectingClient(home, remote), home, integrations, connection: 'remote host' }),
    );
  }
  // The first frame does not wait for the host, nor share the CPU with it: the host (its lease,
  // its threads, migrations, memory-state) starts once the first frame is written, and the screens'
  // first requests are answered once it is up (until then they show "…").
  let starting: Promise<Host> | undefined;
  const host = deferred<Host>();
  const ready = handled(host.promise.then((started) => started.application));
  const failed = handled(host.promise.then(() => new Promise<never>(() => {})));
  // The host's code too (store, pipeline, workers' clients, API): loaded once the frame is drawn.
  const startHost = () => {
    starting ??= import('../../host/host.js').then(({ Host }) => Host.start({ home, serve: true }));
    starting.then(host.resolve, host.reject);
  };
  const { runTui } = await import('../../screens/run-tui.js');
  try {
    return exitFor(
      await runTui({
        app: deferredApplication(ready),
        home,
        integrations,
        connection: 'in-process host',
        failed,
        onFirstFrame: startHost,
      }),
    );
  } finally {
    // A host that failed to start has nothing to stop; its error is the one runTui raised. A TUI
    // that ended before its first frame never started one.
    await (await starting?.catch(() => undefined))?.stop();
  }
}

/** A promise and the functions that settle it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Ctrl+C ends the TUI as it ends any command: exit 130, after the same orderly shutdown as q. */
const exitFor = (how: 'quit' | 'interrupt'): number => (how === 'interrupt' ? EXIT.interrupted : EXIT.ok);

/** Marks a promise as handled (its rejection reaches whoever awaits it later, not the process's unhandled-rejection exit). */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * An Application whose calls wait for the real one: every method of the interface returns a
 * promise. Only method names resolve (never `then`, so the object itself is not a thenable).
 */
function deferredApplication(ready: Promise<Application>): Application {
  return new Proxy({} as Application, {
    get: (_target, name) => {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) =>
        ready.then((app) => (app[name as keyof Application] as (...a: unknown[]) => Promise<unknown>).apply(app, args));
    },
  });
}
