// The CLI: meow parses, one function per command, every result through Output (--json aware),
// every error to stderr with its documented exit code.
import meow from 'meow';
import { CmError, EXIT } from '../errors.js';
import { HOME_ENV, resolveHome } from '../home.js';
import { runAbandon, runAbort, runAgent, runPrompt } from './commands/agents.js';
import { runFlush, runSessionDrain, runStatus } from './commands/capture.js';
import { runDoctorCommand } from './commands/doctor.js';
import { runHistory } from './commands/history.js';
import { runHostCommand } from './commands/host.js';
import { runInstallCommand } from './commands/install.js';
import { runMessage, runOperation } from './commands/lookup.js';
import { runNote } from './commands/note.js';
import { runSearch } from './commands/memory.js';
import { runSession, runSessions } from './commands/sessions.js';
import { runMemory } from './commands/memory-group.js';
import { runGet } from './commands/approved.js';
import { runTuiCommand } from './commands/tui.js';
import { createOutput } from './output.js';

export const HELP = `
  Usage
    $ common-memory                      full-screen TUI (needs a terminal); --codex-home,
                                         --claude-dir and --pi-dir choose the config its
                                         Integrations screen uses
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
    agent create <name> [--model provider/id] [--pi-config DIR]
                                         a named pi agent (survives restarts); --pi-config: where
                                         its models.json/auth.json come from (default ~/.pi/agent)
    agent start|stop <name>              start a new generation (a pi process) / stop it in order
    agent list                           agents with their ID, generation and state
    prompt <agent> <text> [--operation-id ID]
                                         admit a prompt (committed before pi sees a byte); a busy
                                         agent refuses it; replaying the ID returns the same receipt
    abort <agent>                        abort the prompt the agent is working on
    abandon <operation-id>               give up an interrupted prompt (its messages are kept)
    message <uuid>                       a timeline message with its provenance
    operation <id>                       an operation and its state
    doctor                               check the store's consistency
    hook codex|claude|pi                 one host hook event on stdin (used by installed hooks and
                                         the pi extension)
    status [--after-session KEY] [--after-recovery ID]
                                         captured sessions (50 a page, newest first; --after-session
                                         continues after that session: nextSessionKey), queue states,
                                         inbox/watch/isolation counts and recovery items (20 a page,
                                         --after-recovery: nextRecoveryId); no conversation bodies
    sessions [--client C] [--limit N] [--after KEY]
                                         captured sessions, newest first: client, state, directory,
                                         turns and the first thing you said, masked (20 a page)
    session <key> [--context] [--reveal] one session's turns in order with what you said in full;
                                         --context adds the assistant, tool and harness text;
                                         secrets masked unless --reveal (shows them as typed)
    session-drain [--recover ID]         turn the hook inbox into sessions, turns and batches now;
                                         --recover retries one recovery item (exit 3 if it fails again)
    flush                                drain, then exit 0 when everything settled is processed,
                                         3 while anything is buffered, inboxed, watched or isolated
    install codex|claude|pi [--dry-run]  add common-memory's hooks (pi: its extension) to the client's
                                         config, keeping everything else (--dry-run: show the diff)
        --codex-home DIR   Codex home (default $CODEX_HOME or ~/.codex); hooks.json there
        --claude-dir DIR   Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)
        --pi-dir DIR       pi agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent); settings.json
    uninstall codex|claude|pi [--dry-run] remove only common-memory's entries (same options)
    search <query> [--since T] [--until T] [--client C] [--limit N]
                                         what you said in captured sessions and to driven agents:
                                         turn references with a masked snippet, best match first (BM25);
                                         T is UTC (2026-08-01 or 2026-08-01T09:30:00Z), --until
                                         exclusive; C codex|claude|pi; N 1-100 (default 20)
    memory extract [--since T --until T] [--query Q] [--client C] [--session KEY]... [--limit 1-8]
                   [--runner NAME] [--approve-plan DIGEST | --approve-manifest DIGEST]
                                         draft candidate memories from what you said in this
                                         repository's sessions (default: the builtin runner,
                                         offline); default window: since the last run; at most
                                         200 turns, 366 days; exit 3 when tasks remain or failed.
                                         Another runner (a profile of runners.json) first prints
                                         the exact bytes it would send and exits 14 until you
                                         approve that plan by its digest. Through a host the run
                                         is followed: progress on stderr, Ctrl+C stops following
                                         (exit 130), the run goes on
    memory extract --follow <run-id>     follow a run again: its progress, then its report
    memory status                        chunk/task/candidate counts, the last and running run
                                         (exit 12 when memory-state is unavailable)
    memory recall <text> [--limit N]     what memory already holds like <text> (2 x BM25 + RRF)
    memory review [--scope all|user|project] [--limit N] [--after CURSOR]
                                         draft and quarantined candidates of every scope (--scope
                                         user: the user scope's; project: this repository's), each
                                         with its scope, statements, evidence and masked findings;
                                         newest first, 50 a page (--limit 1-200), the total, and
                                         --after nextAfter for the next page (read-only)
    memory lint [<path>... | -]          secret lint of files or stdin; exit 11 on a blocking finding
    memory retry <task-id>               a task that failed 5 times may be claimed again
    memory reverify-runner --runner NAME run a profile's deny-all conformance probe again (exit 15
                                         naming what failed)
    memory sync                          scan the user's and this worktree's memory files into the
                                         approved projection (exit 3 when coverage is partial)
    memory search <query> [--limit N]    approved entries of this repository and the user scope
    memory init [--scope project|user]   lay out a memory root with its README
    memory confirm <candidate> <statement>
                                         mark a statement confirmed by you (refused if its text or
                                         citations changed since it was assessed)
    memory discard <candidate>           take a candidate out of the queue (kept, never deleted)
    memory prepare <candidate>... [--scope project|user]
                                         a promotion plan: the exact bytes of each file, its diff
                                         and digest (exit 11 if the bytes hold a secret)
    memory plan <plan-id>                a plan with its status, files and diff
    memory approve <plan-id> --digest D  approve exactly the plan whose digest is D
    memory promote <plan-id>             write an approved plan into the memory root (or finish an
                                         interrupted one), then sync; exit 5 when it was voided
                                         because a target changed; never runs git
    memory refresh [--session KEY]       give a running Codex/Claude Code session the current notes at
                                         its next prompt or tool use (default: the session whose
                                         shell runs this command)
    memory assemble --provider claude|codex [--dry-run]
                                         write this repository's notes as a managed block into its
                                         CLAUDE.md / AGENTS.md, the rest kept (--dry-run: the diff)
    get <entry-id>                       one approved entry: title, sources, digest, body
    mcp                                  the MCP server on stdio that Claude Code and Codex start
                                         (memory_search, memory_get, memory_status, and
                                         memory_propose: a draft for memory review); install
                                         codex|claude registers it

  Global options
    --home DIR     data home (default $COMMON_MEMORY_HOME or ~/.common-memory)
    --json         machine-readable output on stdout; errors as JSON on stderr
    --help         this help
    --version      the version

  Exit codes
    0 ok · 1 internal error · 2 usage or invalid input · 3 incomplete · 4 store already open
    5 conflict · 6 not found · 7 store unavailable · 8 host unreachable (or none running)
    9 inconsistent store · 10 over a limit · 11 blocking secret found · 12 memory-state unavailable
    13 agent not running · 14 authorisation needed (a runner's plan awaits --approve-plan)
    15 runner refused (its probe failed, its client is missing or of another version)
    130 interrupted (Ctrl+C)
`;

// Every flag of every command; the unknown-flag check reads its names from here too.
const FLAGS = {
  home: { type: 'string' },
  json: { type: 'boolean', default: false },
  operationId: { type: 'string' },
  after: { type: 'string' },
  limit: { type: 'string' },
  agent: { type: 'string' },
  follow: { type: 'boolean', default: false },
  cursorFile: { type: 'string' },
  port: { type: 'string' },
  codexHome: { type: 'string' },
  piDir: { type: 'string' },
  claudeDir: { type: 'string' },
  dryRun: { type: 'boolean', default: false },
  model: { type: 'string' },
  piConfig: { type: 'string' },
  afterRecovery: { type: 'string' },
  afterSession: { type: 'string' },
  recover: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  client: { type: 'string' },
  context: { type: 'boolean', default: false },
  reveal: { type: 'boolean', default: false },
  query: { type: 'string' },
  session: { type: 'string', isMultiple: true },
  runner: { type: 'string' },
  approvePlan: { type: 'string' },
  approveManifest: { type: 'string' },
  scope: { type: 'string' },
  digest: { type: 'string' },
  provider: { type: 'string' },
} as const;

export const COMMANDS = [
  'host',
  'note',
  'log',
  'timeline',
  'agent',
  'prompt',
  'abort',
  'abandon',
  'message',
  'operation',
  'status',
  'session-drain',
  'flush',
  'sessions',
  'session',
  'search',
  'memory',
  'get',
  'mcp',
  'doctor',
  'install',
  'uninstall',
  'hook',
] as const;

export async function main(argv: string[]): Promise<number> {
  // Checked before meow, which would print its own two lines (never JSON) and exit on its own.
  const unknown = unknownFlagError(argv);
  if (unknown) return createOutput(argv.includes('--json')).error(unknown);
  const cli = meow(HELP, {
    importMeta: import.meta,
    argv,
    allowUnknownFlags: false,
    flags: FLAGS,
  });
  const out = createOutput(cli.flags.json);
  const empty = emptyValueError(cli.flags);
  if (empty) return out.error(empty);
  // meow answers --help and --version only when they are the only word; anywhere else (after a
  // command, beside --home) they must still answer before anything reads the data home.
  const asked = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (asked.includes('--help')) {
    process.stdout.write(`\n  ${cli.pkg.description ?? ''}\n\n${HELP.replace(/^\n+|\s+$/g, '')}\n\n`);
    return EXIT.ok;
  }
  if (asked.includes('--version')) {
    process.stdout.write(`${cli.pkg.version ?? ''}\n`);
    return EXIT.ok;
  }
  const home = resolveHome(cli.flags.home);
  const [command, ...rest] = cli.input;
  try {
    switch (command) {
      case undefined:
        if (!process.stdin.isTTY || !process.stdout.isTTY) {
          process.stderr.write(`${HELP}\n  (The TUI needs a terminal; run one of the commands above.)\n`);
          return EXIT.usage;
        }
        return await runTuiCommand(home, {
          codexDir: cli.flags.codexHome,
          claudeDir: cli.flags.claudeDir,
          piDir: cli.flags.piDir,
        });
      case 'host':
        return await runHostCommand(home, cli.flags.port, out);
      case 'note':
        return await runNote(home, rest, cli.flags.operationId, out);
      case 'log':
      case 'timeline':
        return await runHistory(
          {
            home,
            stream: command === 'log' ? 'journal' : 'timeline',
            after: cli.flags.after,
            limit: cli.flags.limit,
            agent: cli.flags.agent,
            follow: cli.flags.follow,
            cursorFile: cli.flags.cursorFile,
          },
          out,
        );
      case 'agent':
        return await runAgent(
          home,
          rest,
          { model: cli.flags.model, piConfig: cli.flags.piConfig, operationId: cli.flags.operationId },
          out,
        );
      case 'prompt':
        return await runPrompt(home, rest, cli.flags.operationId, out);
      case 'abort':
        return await runAbort(home, rest[0], cli.flags.operationId, out);
      case 'abandon':
        return await runAbandon(home, rest[0], out);
      case 'message':
        return await runMessage(home, rest[0], out);
      case 'operation':
        return await runOperation(home, rest[0], out);
      case 'status':
        return await runStatus(
          home,
          { afterRecovery: cli.flags.afterRecovery, afterSession: cli.flags.afterSession },
          { ...installDirs(cli.flags), home: explicitHome(cli.flags.home) },
          out,
        );
      case 'session-drain':
        return await runSessionDrain(home, cli.flags.recover, out);
      case 'flush':
        return await runFlush(home, out);
      case 'sessions':
        return await runSessions(
          home,
          { client: cli.flags.client, limit: cli.flags.limit, after: cli.flags.after },
          out,
        );
      case 'session':
        return await runSession(home, rest[0], { context: cli.flags.context, reveal: cli.flags.reveal }, out);
      case 'search':
        return await runSearch(
          home,
          rest,
          { since: cli.flags.since, until: cli.flags.until, client: cli.flags.client, limit: cli.flags.limit },
          out,
        );
      case 'memory':
        return await runMemory(
          home,
          rest,
          {
            since: cli.flags.since,
            until: cli.flags.until,
            query: cli.flags.query,
            client: cli.flags.client,
            session: cli.flags.session,
            runner: cli.flags.runner,
            approvePlan: cli.flags.approvePlan,
            approveManifest: cli.flags.approveManifest,
            limit: cli.flags.limit,
            scope: cli.flags.scope,
            after: cli.flags.after,
            digest: cli.flags.digest,
            provider: cli.flags.provider,
            dryRun: cli.flags.dryRun,
            follow: cli.flags.follow,
          },
          out,
        );
      case 'get':
        return await runGet(home, rest[0], out);
      case 'mcp':
        if (rest.length > 0)
          throw new CmError('usage', 'usage: common-memory mcp [--home DIR] (stdio; started by the client)');
        // Loaded only here: the MCP SDK is a chunk of its own that no other command pays for.
        return await (await import('../mcp/server.js')).runMcpServer(home, process.cwd());
      case 'doctor':
        return await runDoctorCommand(home, out);
      case 'install':
      case 'uninstall': {
        const flags = {
          ...installDirs(cli.flags),
          dryRun: cli.flags.dryRun,
          explicitHome: explicitHome(cli.flags.home),
        };
        return await runInstallCommand(command, rest, flags, out);
      }
      default:
        throw new CmError(
          'usage',
          `Unknown command "${command}".${didYouMean(command, COMMANDS)} Run common-memory --help for the list.`,
        );
    }
  } catch (error) {
    return out.error(error);
  }
}

/** The hook gets --home only when the user chose a home; otherwise it resolves it as we do. */
function explicitHome(flag: string | undefined): string | undefined {
  const chosen = flag ?? process.env[HOME_ENV];
  return chosen ? resolveHome(chosen) : undefined;
}

const installDirs = (flags: { codexHome?: string; claudeDir?: string; piDir?: string }) => ({
  codexHome: flags.codexHome,
  claudeDir: flags.claudeDir,
  piDir: flags.piDir,
});

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const FLAG_NAMES = [...Object.keys(FLAGS).map(kebab), 'help', 'version'];

/**
 * A flag that takes a value given none (`--claude-dir` at the end, or before another flag, or
 * `--claude-dir=`): the parser takes it as "", which would mean the default — for install, the
 * user's real config dir. Refused instead.
 */
function emptyValueError(flags: Record<string, unknown>): CmError | undefined {
  for (const [name, spec] of Object.entries(FLAGS)) {
    if (spec.type !== 'string') continue;
    const value = flags[name];
    if (value === '' || (Array.isArray(value) && value.includes('')))
      return new CmError('usage', `--${kebab(name)} needs a value; nothing was done.`);
  }
  return undefined;
}

/** The first flag this CLI does not know, as a usage error with the nearest known flag as a hint. */
function unknownFlagError(argv: string[]): CmError | undefined {
  for (const word of argv) {
    if (word === '--') return undefined; // everything after it is text
    const long = /^--([^=]+)/.exec(word);
    const short = /^-([A-Za-z].*)$/.exec(word);
    if (!long && !short) continue;
    const name = long ? long[1]!.replace(/^no-/, '') : short![1]!;
    if (long && FLAG_NAMES.includes(name)) continue;
    return new CmError(
      'usage',
      `Unknown flag ${word.split('=')[0]}.${didYouMean(
        name,
        FLAG_NAMES.map((flag) => `--${flag}`),
        name.length > 1 ? `--${name}` : name,
      )} Run common-memory --help for the options.`,
    );
  }
  return undefined;
}

/** " Did you mean X?" for the candidate nearest to what was typed (a few edits away at most), or "". */
function didYouMean(typed: string, candidates: readonly string[], compared = typed): string {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(compared, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(compared.length / 3))
    ? ` Did you mean ${best.candidate}?`
    : '';
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
