// The CLI: the command table (commands.ts) says what each command takes, parse.ts reads the line
// against it, one handler per command, every result through Output (--json aware), every error to
// stderr with its documented exit code.
import { readFileSync } from 'node:fs';
import { checkOperationId } from '../api/request-checks.js';
import { CmError, EXIT } from '../errors.js';
import { HOME_ENV, resolveHome } from '../home.js';
import { type CliStreams, createOutput, type Output, processStreams } from './output.js';
import type { CommandPath, FlagValues } from './commands.js';
import { commandHelp, globalHelp, groupHelp, helpData, helpWidth } from './help.js';
import { parseCommandLine } from './parse.js';

// Each command's module is loaded when that command runs, never at start: in the CommonJS bundle
// (dist/cli/main.cjs) a module's top level — zod schemas, rule tables — runs only when it is first
// imported, and a plain read is a whole process that scripts call in loops.
const agentsCommand = () => import('./commands/agents.js');
const approvedCommand = () => import('./commands/approved.js');
const captureCommand = () => import('./commands/capture.js');
const doctorCommand = () => import('./commands/doctor.js');
const historyCommand = () => import('./commands/history.js');
const importCommand = () => import('./commands/import.js');
const hostCommand = () => import('./commands/host.js');
const installCommand = () => import('./commands/install.js');
const lookupCommand = () => import('./commands/lookup.js');
const memoryGroupCommand = () => import('./commands/memory-group.js');
const memoryCommand = () => import('./commands/memory.js');
const noteCommand = () => import('./commands/note.js');
const serviceCommand = () => import('./commands/service.js');
const sessionsCommand = () => import('./commands/sessions.js');
const tuiCommand = () => import('./commands/tui.js');

// The package's description and version, read when asked (help, --version), never on a command's
// path: the nearest package.json of common-memory above this module (source/cli, dist/cli or a
// bundle's chunk directory).
function packageJson(): { description?: string; version?: string } {
  for (let up = '../'; up.length <= 5 * 3; up += '../') {
    try {
      const found = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as {
        name?: string;
        description?: string;
        version?: string;
      };
      if (found.name === 'common-memory') return found;
    } catch {
      // not here: one level up
    }
  }
  return {};
}

/** Global help, for a run without a terminal and for --help. */
export const globalHelpText = (): string => globalHelp(packageJson().description ?? '');

interface Context {
  home: string;
  args: string[];
  flags: FlagValues;
  out: Output;
}

/** Each command's handler; the flags each may read are the ones its entry in commands.ts declares. */
const HANDLERS: Record<CommandPath, (c: Context) => Promise<number> | number> = {
  '': async ({ home, flags, out }) => {
    if (!process.stdin.isTTY || !out.streams.stdout.isTTY) {
      if (out.json) throw new CmError('usage', 'The TUI needs a terminal; run common-memory --help for the commands.');
      out.streams.stderr.write(`${globalHelpText()}\n  (The TUI needs a terminal; run one of the commands above.)\n`);
      return EXIT.usage;
    }
    return (await tuiCommand()).runTuiCommand(home, {
      codexDir: flags.codexHome,
      claudeDir: flags.claudeDir,
      piDir: flags.piDir,
    });
  },
  host: async ({ home, flags, out }) => (await hostCommand()).runHostCommand(home, flags.port, out),
  'service install': async ({ home, flags, out }) =>
    (await serviceCommand()).runService('install', home, flags.dryRun ?? false, out),
  'service uninstall': async ({ home, flags, out }) =>
    (await serviceCommand()).runService('uninstall', home, flags.dryRun ?? false, out),
  'service status': async ({ home, out }) => (await serviceCommand()).runService('status', home, false, out),
  note: async ({ home, args, flags, out }) => (await noteCommand()).runNote(home, args, flags.operationId, out),
  log: (c) => history('journal', c),
  timeline: (c) => history('timeline', c),
  'agent create': async ({ home, args, flags, out }) =>
    (await agentsCommand()).runAgent(
      home,
      ['create', ...args],
      { model: flags.model, piConfig: flags.piConfig, operationId: flags.operationId },
      out,
    ),
  'agent start': async ({ home, args, out }) => (await agentsCommand()).runAgent(home, ['start', ...args], {}, out),
  'agent stop': async ({ home, args, out }) => (await agentsCommand()).runAgent(home, ['stop', ...args], {}, out),
  'agent list': async ({ home, out }) => (await agentsCommand()).runAgent(home, ['list'], {}, out),
  prompt: async ({ home, args, flags, out }) => (await agentsCommand()).runPrompt(home, args, flags.operationId, out),
  abort: async ({ home, args, flags, out }) => (await agentsCommand()).runAbort(home, args[0], flags.operationId, out),
  abandon: async ({ home, args, out }) => (await agentsCommand()).runAbandon(home, args[0], out),
  message: async ({ home, args, out }) => (await lookupCommand()).runMessage(home, args[0], out),
  operation: async ({ home, args, out }) => (await lookupCommand()).runOperation(home, args[0], out),
  doctor: async ({ home, out }) => (await doctorCommand()).runDoctorCommand(home, out),
  hook: () => {
    // bin/common-memory.cjs sends `hook` to the hook's fast path before this module loads.
    throw new CmError('usage', 'common-memory hook runs through bin/common-memory.cjs with the event on stdin.');
  },
  status: async ({ home, flags, out }) =>
    (await captureCommand()).runStatus(
      home,
      { afterRecovery: flags.afterRecovery, afterSession: flags.afterSession },
      { ...installDirs(flags), home: explicitHome(flags.home) },
      out,
    ),
  sessions: async ({ home, flags, out }) =>
    (await sessionsCommand()).runSessions(home, { client: flags.client, limit: flags.limit, after: flags.after }, out),
  session: async ({ home, args, flags, out }) =>
    (await sessionsCommand()).runSession(
      home,
      args[0],
      { context: flags.context ?? false, reveal: flags.reveal ?? false },
      out,
    ),
  'session-drain': async ({ home, flags, out }) => (await captureCommand()).runSessionDrain(home, flags.recover, out),
  flush: async ({ home, out }) => (await captureCommand()).runFlush(home, out),
  import: async ({ home, args, flags, out }) =>
    (await importCommand()).runImportCommand(
      home,
      args,
      {
        claudeDir: flags.claudeDir,
        codexHome: flags.codexHome,
        piDir: flags.piDir,
        since: flags.since,
        until: flags.until,
        repository: flags.repository,
        dryRun: flags.dryRun,
        yes: flags.yes,
      },
      out,
    ),
  install: (c) => install('install', c),
  uninstall: (c) => install('uninstall', c),
  search: async ({ home, args, flags, out }) =>
    (await memoryCommand()).runSearch(
      home,
      args,
      { since: flags.since, until: flags.until, client: flags.client, limit: flags.limit },
      out,
    ),
  'memory extract': (c) => memory('extract', c),
  'memory status': (c) => memory('status', c),
  'memory suggestions': (c) => memory('suggestions', c),
  'memory recall': (c) => memory('recall', c),
  'memory review': (c) => memory('review', c),
  'memory lint': (c) => memory('lint', c),
  'memory retry': (c) => memory('retry', c),
  'memory reverify-runner': (c) => memory('reverify-runner', c),
  'memory sync': (c) => memory('sync', c),
  'memory search': (c) => memory('search', c),
  'memory init': (c) => memory('init', c),
  'memory confirm': (c) => memory('confirm', c),
  'memory discard': (c) => memory('discard', c),
  'memory prepare': (c) => memory('prepare', c),
  'memory plan': (c) => memory('plan', c),
  'memory patch': (c) => memory('patch', c),
  'memory approve': (c) => memory('approve', c),
  'memory promote': (c) => memory('promote', c),
  'memory void': (c) => memory('void', c),
  'memory retire': (c) => memory('retire', c),
  'memory consolidate': (c) => memory('consolidate', c),
  'memory revise': (c) => memory('revise', c),
  'memory refresh': (c) => memory('refresh', c),
  'memory assemble': (c) => memory('assemble', c),
  get: async ({ home, args, out }) => (await approvedCommand()).runGet(home, args[0], out),
  // Loaded only here: the MCP server is needed by no other command.
  mcp: async ({ home }) => (await import('../mcp/server.js')).runMcpServer(home, process.cwd()),
};

const history = async (stream: 'journal' | 'timeline', { home, flags, out }: Context) =>
  (await historyCommand()).runHistory(
    {
      home,
      stream,
      after: flags.after,
      limit: flags.limit,
      agent: flags.agent,
      follow: flags.follow ?? false,
      cursorFile: flags.cursorFile,
    },
    out,
  );

const install = async (action: 'install' | 'uninstall', { args, flags, out }: Context) =>
  (await installCommand()).runInstallCommand(
    action,
    args,
    { ...installDirs(flags), dryRun: flags.dryRun ?? false, explicitHome: explicitHome(flags.home) },
    out,
  );

// The memory group reads only the flags each subcommand declares: the parser refused the others.
const memory = async (sub: string, { home, args, flags, out }: Context) =>
  (await memoryGroupCommand()).runMemory(home, [sub, ...args], { ...flags, dryRun: flags.dryRun ?? false }, out);

/**
 * The CLI on `argv` (the arguments after the program), writing to `streams`: the process's own
 * from the bin; tests that check parsing and output pass their own and call this in-process.
 */
export async function main(argv: string[], streams: CliStreams = processStreams()): Promise<number> {
  let out = createOutput(asksJson(argv), streams);
  try {
    const parsed = parseCommandLine(argv);
    if (streams.stdout === process.stdout && (parsed.kind !== 'run' || parsed.spec.path !== 'mcp'))
      endQuietlyWhenStdoutCloses();
    if (parsed.kind === 'version') {
      const version = packageJson().version ?? '';
      streams.stdout.write(out.json ? `${JSON.stringify({ version })}\n` : `${version}\n`);
      return EXIT.ok;
    }
    if (parsed.kind === 'help') {
      const description = packageJson().description ?? '';
      if (out.json) out.result(helpData(parsed, description), () => '');
      else
        streams.stdout.write(
          parsed.spec ? commandHelp(parsed.spec, description) : groupHelp(parsed.group ?? '', helpWidth()),
        );
      return EXIT.ok;
    }
    out = createOutput(parsed.flags.json ?? false, streams);
    refuseRemovedDirectory();
    // Checked here for every command that takes one, before any store is opened (or created).
    if (parsed.flags.operationId !== undefined) checkOperationId(parsed.flags.operationId);
    const home = resolveHome(parsed.flags.home);
    return await HANDLERS[parsed.spec.path as CommandPath]({ home, args: parsed.args, flags: parsed.flags, out });
  } catch (error) {
    return out.error(error);
  }
}

/**
 * `common-memory log | head`: once the reader has what it wants and closes the pipe, the next write
 * fails with EPIPE, which Node raises as an unhandled error (a stack trace, exit 1). The reader
 * chose to stop; so does the command, quietly. (`mcp` treats a client gone as the end of its input.)
 */
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}

/**
 * Whether the line asks for JSON, read before it is parsed so that a refusal of the line itself is
 * JSON too: `--json` or `--json=true` (the last one given wins) before any `--`.
 */
function asksJson(argv: readonly string[]): boolean {
  let json = false;
  for (const word of argv) {
    if (word === '--') break;
    if (word === '--json' || word === '--json=true' || word === '--no-json=false') json = true;
    else if (word === '--json=false' || word === '--no-json' || word === '--no-json=true') json = false;
  }
  return json;
}

/**
 * A command run in a directory that was removed after the shell entered it (a deleted worktree)
 * fails deep inside, as "uv_cwd" or a writer that cannot start: it is refused here, saying so.
 */
function refuseRemovedDirectory(): void {
  try {
    process.cwd();
  } catch {
    throw new CmError(
      'usage',
      'The current directory no longer exists (it was removed after this shell entered it); cd to one that does and run the command again. Nothing was done.',
    );
  }
}

/** The hook gets --home only when the user chose a home; otherwise it resolves it as we do. */
function explicitHome(flag: string | undefined): string | undefined {
  const chosen = flag ?? process.env[HOME_ENV];
  return chosen ? resolveHome(chosen) : undefined;
}

const installDirs = (flags: FlagValues) => ({
  codexHome: flags.codexHome,
  claudeDir: flags.claudeDir,
  piDir: flags.piDir,
});
