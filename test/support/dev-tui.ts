// Manual / tmux check of the TUI against real data: starts a host in this process for --home
// and runs the TUI over its in-process Application.
//   node --import tsx test/support/dev-tui.ts --home /tmp/x [--notes 250] [--no-serve]
import { parseArgs } from 'node:util';
import { Host } from '../../source/host/host.js';
import { runTui } from '../../source/screens/run-tui.js';

const { values } = parseArgs({
  options: {
    home: { type: 'string' },
    notes: { type: 'string', default: '0' },
    'no-serve': { type: 'boolean', default: false },
  },
});
if (!values.home) {
  process.stderr.write('usage: node --import tsx test/support/dev-tui.ts --home <dir> [--notes N] [--no-serve]\n');
  process.exit(2);
}
if (!process.stdin.isTTY) {
  process.stderr.write('The TUI needs a terminal (a TTY on stdin).\n');
  process.exit(2);
}

// serve: the TUI's host is the real host, so CLI commands in another terminal reach it.
const host = await Host.start({ home: values.home, serve: !values['no-serve'] });
try {
  const seed = Number(values.notes);
  for (let index = 1; index <= seed; index += 1)
    await host.application.appendNote({ text: `seed note ${index} of ${seed}` });
  await runTui({ app: host.application, home: values.home, connection: 'in-process host' });
} finally {
  await host.stop();
}
