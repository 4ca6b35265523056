// The CLI: meow parses, one function per command, every result through Output (--json aware),
// every error to stderr with its documented exit code.
import meow from 'meow';
import { EXIT } from '../errors.js';
import { resolveHome } from '../home.js';
import { runDoctorCommand } from './commands/doctor.js';
import { runHistory } from './commands/history.js';
import { runHostCommand } from './commands/host.js';
import { runMessage, runOperation } from './commands/lookup.js';
import { runNote } from './commands/note.js';
import { runTuiCommand } from './commands/tui.js';
import { createOutput } from './output.js';

export const HELP = `
  Usage
    $ common-memory                      full-screen TUI (needs a terminal)
    $ common-memory <command> [options]

  Commands
    host [--port N]                      run the host headless: lease, writer, loopback API
    note <text> [--operation-id ID]      append a note to the journal ("-" reads stdin)
    log [options]                        read the journal (every observation)
    timeline [options]                   read the timeline (canonical messages)
        --after N          start after position N (default 0)
        --limit N          print one page of N rows (1-100) and stop; without it, read to the end
        --agent ID         only rows of this agent
        --follow           keep reading new rows until Ctrl+C
        --cursor-file P    resume from and save the position in P (one file per stream)
    message <uuid>                       a timeline message with its provenance
    operation <id>                       an operation and its state
    doctor                               check the store's consistency
    hook codex|claude                    one host hook event on stdin (used by installed hooks)

  Global options
    --home DIR     data home (default $COMMON_MEMORY_HOME or ~/.common-memory)
    --json         machine-readable output on stdout; errors as JSON on stderr
    --help         this help
    --version      the version

  Exit codes
    0 ok · 1 internal error · 2 usage or invalid input · 3 incomplete · 4 store already open
    5 conflict · 6 not found · 7 store unavailable · 8 host unreachable · 9 inconsistent store
    10 over a limit · 130 interrupted (Ctrl+C)
`;

export async function main(argv: string[]): Promise<number> {
  const cli = meow(HELP, {
    importMeta: import.meta,
    argv,
    allowUnknownFlags: false,
    flags: {
      home: { type: 'string' },
      json: { type: 'boolean', default: false },
      operationId: { type: 'string' },
      after: { type: 'string' },
      limit: { type: 'string' },
      agent: { type: 'string' },
      follow: { type: 'boolean', default: false },
      cursorFile: { type: 'string' },
      port: { type: 'string' },
    },
  });
  const out = createOutput(cli.flags.json);
  const home = resolveHome(cli.flags.home);
  const [command, ...rest] = cli.input;
  try {
    switch (command) {
      case undefined:
        if (!process.stdin.isTTY || !process.stdout.isTTY) {
          process.stderr.write(`${HELP}\n  (The TUI needs a terminal; run one of the commands above.)\n`);
          return EXIT.usage;
        }
        return await runTuiCommand(home);
      case 'host':
        return await runHostCommand(home, cli.flags.port, out);
      case 'note':
        return await runNote(home, rest, cli.flags.operationId, out);
      case 'log':
      case 'timeline':
        return await runHistory(
          { home, stream: command === 'log' ? 'journal' : 'timeline', after: cli.flags.after, limit: cli.flags.limit, agent: cli.flags.agent, follow: cli.flags.follow, cursorFile: cli.flags.cursorFile },
          out,
        );
      case 'message':
        return await runMessage(home, rest[0], out);
      case 'operation':
        return await runOperation(home, rest[0], out);
      case 'doctor':
        return await runDoctorCommand(home, out);
      default:
        process.stderr.write(`common-memory: unknown command "${command}". Run common-memory --help.\n`);
        return EXIT.usage;
    }
  } catch (error) {
    return out.error(error);
  }
}
