// `common-memory` with no command: the full-screen TUI. It works as a client of a running host,
// or starts one in this process (serving the API, so other terminals' commands reach it too).
import { findRunningHost } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import { Host } from '../../host/host.js';

export async function runTuiCommand(home: string): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CmError('usage', 'The TUI needs a terminal. Run a subcommand instead (see common-memory --help).');
  }
  // Ink prints only the final frame when it believes it runs in CI (CI=true and the like, read when
  // ink loads); here a person's terminal is established, so those markers must not blank the screen.
  for (const key of Object.keys(process.env)) if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) delete process.env[key];
  const remote = await findRunningHost(home);
  // Loading ink and react and starting the host's threads take about as long as each other: do
  // both at once, so the first frame comes in the time of the slower one.
  const starting = remote ? undefined : Host.start({ home, serve: true });
  const loading = import('../../screens/run-tui.js');
  if (!starting) {
    const { runTui } = await loading;
    await runTui({ app: remote!, home, connection: 'remote host' });
    return 0;
  }
  const [{ runTui }, host] = await Promise.all([loading, starting]);
  try {
    await runTui({ app: host.application, home, connection: 'in-process host' });
  } finally {
    await host.stop();
  }
  return 0;
}
