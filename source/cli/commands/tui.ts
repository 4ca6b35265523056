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
  const { runTui } = await import('../../screens/run-tui.js');
  const remote = await findRunningHost(home);
  if (remote) {
    await runTui({ app: remote, home, connection: 'remote host' });
    return 0;
  }
  const host = await Host.start({ home, serve: true });
  try {
    await runTui({ app: host.application, home, connection: 'in-process host' });
  } finally {
    await host.stop();
  }
  return 0;
}
