// Every command of the CLI, declared once: its words, its positional arguments, the flags it takes
// (each with what it means for that command) and a one-line summary. The parser's allowed flags,
// its refusals ("`memory promote` does not take --limit"), the global help, each command's own
// --help and docs/commands.md's table (test/cli/cli-commands.test.ts) all come from this table.
// Data only: no command module is imported here (main.ts maps each path to its handler).

/** Every flag name the CLI knows, with its type; a name means the same type for every command. */
export const FLAG_KINDS = {
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
  operationId: { type: 'string' },
  after: { type: 'string' },
  limit: { type: 'string' },
  agent: { type: 'string' },
  follow: { type: 'boolean' },
  cursorFile: { type: 'string' },
  port: { type: 'string' },
  codexHome: { type: 'string' },
  claudeDir: { type: 'string' },
  piDir: { type: 'string' },
  dryRun: { type: 'boolean' },
  model: { type: 'string' },
  piConfig: { type: 'string' },
  afterRecovery: { type: 'string' },
  afterSession: { type: 'string' },
  recover: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  client: { type: 'string' },
  context: { type: 'boolean' },
  reveal: { type: 'boolean' },
  query: { type: 'string' },
  session: { type: 'string', multiple: true },
  runner: { type: 'string' },
  approvePlan: { type: 'string' },
  approveManifest: { type: 'string' },
  scope: { type: 'string' },
  digest: { type: 'string' },
  provider: { type: 'string' },
  instance: { type: 'string' },
  quarantined: { type: 'string' },
  repository: { type: 'string' },
  yes: { type: 'boolean' },
  days: { type: 'string' },
  file: { type: 'string' },
  skills: { type: 'boolean' },
  operations: { type: 'string' },
} as const satisfies Record<string, { type: 'string' | 'boolean'; multiple?: true }>;

export type FlagName = keyof typeof FLAG_KINDS;

/** Parsed flag values: strings, booleans, and lists for the flags that may be repeated. */
export type FlagValues = {
  [K in FlagName]?: (typeof FLAG_KINDS)[K] extends { type: 'boolean' }
    ? boolean
    : (typeof FLAG_KINDS)[K] extends { multiple: true }
      ? string[]
      : string;
};

/** What a flag means for one command: [its value's name, what it does] for a flag with a value, else what it does. */
export type FlagHelp = string | readonly [value: string, help: string];

export interface CommandSpec {
  /** The words that name it: "log", "memory promote"; "" is the TUI (no command). */
  readonly path: string;
  /** Its positional arguments as usage shows them ("<plan-id>", "codex|claude|pi"). */
  readonly args: string;
  /** One line: what it does. */
  readonly summary: string;
  /** More, shown only by `<command> --help`. */
  readonly details?: string;
  readonly flags: { readonly [K in FlagName]?: FlagHelp };
  /** Flags it cannot run without: its usage shows them without brackets. */
  readonly required?: readonly FlagName[];
}

/** Accepted by every command: where the data is, how results are printed, help and version. */
export const GLOBAL_FLAGS: Readonly<Record<'home' | 'json' | 'help' | 'version', FlagHelp>> = {
  home: ['DIR', 'data home (default $COMMON_MEMORY_HOME or ~/.common-memory)'],
  json: 'machine-readable output on stdout; errors as JSON on stderr',
  help: "this help (after a command: that command's)",
  version: 'the version',
};

const INSTALL_DIRS = {
  codexHome: ['DIR', 'Codex home (default $CODEX_HOME or ~/.codex); codex only'],
  claudeDir: ['DIR', 'Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude); claude only'],
  piDir: ['DIR', 'pi agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent); pi only'],
} as const satisfies CommandSpec['flags'];

const HISTORY_FLAGS = {
  after: ['N', 'start after position N (default 0)'],
  limit: ['N', 'print one page of N rows (1-100) and stop; without it, read to the end'],
  agent: ['ID', 'only rows of this agent (its name, ID or a unique start of its ID)'],
  follow: 'keep reading new rows until Ctrl+C',
  cursorFile: ['P', 'resume from and save the position in P (one file per stream)'],
} as const satisfies CommandSpec['flags'];

const OPERATION_ID = {
  operationId: ['ID', 'the operation ID (default a new one); replaying it returns the same receipt'],
} as const satisfies CommandSpec['flags'];

/** An external runner and the approval of the exact bytes it is sent (memory extract, memory consolidate). */
const RUNNER_FLAGS = {
  runner: ['NAME', 'a profile of runners.json instead of the built-in runner'],
  approvePlan: ['DIGEST', 'send exactly the plan with this digest'],
  approveManifest: ['DIGEST', 'send exactly the manifest with this digest'],
} as const satisfies CommandSpec['flags'];

export const COMMAND_SPECS = [
  {
    path: '',
    args: '',
    summary: 'the full-screen TUI (needs a terminal)',
    details: 'Without a terminal it prints this help and exits 2.',
    flags: {
      codexHome: ['DIR', 'the Codex home its Integrations screen reads and writes'],
      claudeDir: ['DIR', 'the Claude Code config dir its Integrations screen reads and writes'],
      piDir: ['DIR', 'the pi agent dir its Integrations screen reads and writes'],
    },
  },
  {
    path: 'host',
    args: '',
    summary: 'run the host headless: lease, writer, loopback API, until Ctrl+C',
    flags: { port: ['N', 'the loopback port (default: any free one)'] },
  },
  {
    path: 'service install',
    args: '',
    summary: 'keep the headless host running: a per-user service, started at login',
    details:
      'A systemd user unit on Linux, a launchd agent on macOS, for this data home; restarted after a failure; output appended to service.log in the data home. Run again to update or restart it.',
    flags: { dryRun: 'print the unit and the commands; write and run nothing' },
  },
  {
    path: 'service uninstall',
    args: '',
    summary: 'stop the service and remove its file (only one service install wrote)',
    flags: { dryRun: 'say what it would remove and run; change nothing' },
  },
  {
    path: 'service status',
    args: '',
    summary: "whether this data home's service is installed, starts at login and runs",
    flags: {},
  },
  {
    path: 'note',
    args: '<text>',
    summary: 'append a note to the journal ("-" reads stdin)',
    flags: OPERATION_ID,
  },
  { path: 'log', args: '', summary: 'read the journal (every observation)', flags: HISTORY_FLAGS },
  { path: 'timeline', args: '', summary: 'read the timeline (canonical messages)', flags: HISTORY_FLAGS },
  {
    path: 'agent create',
    args: '<name>',
    summary: 'a named pi agent (survives restarts)',
    flags: {
      model: ['provider/id', "its model (default pi's)"],
      piConfig: ['DIR', 'where its models.json/auth.json come from (default ~/.pi/agent)'],
      ...OPERATION_ID,
    },
  },
  { path: 'agent start', args: '<agent>', summary: 'start a new generation of the agent (a pi process)', flags: {} },
  { path: 'agent stop', args: '<agent>', summary: 'stop the agent in order', flags: {} },
  { path: 'agent list', args: '', summary: 'agents with their ID, generation and state', flags: {} },
  {
    path: 'prompt',
    args: '<agent> <text>',
    summary: 'admit a prompt (committed before pi sees a byte); a busy agent refuses it',
    details: '"-" as the text reads it from stdin.',
    flags: OPERATION_ID,
  },
  {
    path: 'abort',
    args: '<agent>',
    summary: 'abort the prompt the agent is working on',
    flags: { operationId: ['ID', 'the abort operation ID (default a new one)'] },
  },
  {
    path: 'abandon',
    args: '<operation-id>',
    summary: 'give up an interrupted prompt (its messages are kept)',
    flags: {},
  },
  {
    path: 'message',
    args: '<message-id>',
    summary: 'a timeline message with its provenance',
    details: 'The ID or a unique start of it (4 characters or more).',
    flags: {},
  },
  {
    path: 'operation',
    args: '<operation-id>',
    summary: 'an operation and its state',
    details: 'The ID or a unique start of it (4 characters or more).',
    flags: {},
  },
  { path: 'doctor', args: '', summary: "check the store's and memory-state's consistency (exit 9 if not)", flags: {} },
  {
    path: 'hook',
    args: 'codex|claude|pi',
    summary: 'one host hook event on stdin (what installed hooks run)',
    flags: {
      instance: ['ID', 'replay a quarantined event as the host process that sent it'],
      quarantined: ['FILE', 'the quarantine file the event is replayed from (kept once)'],
    },
  },
  {
    path: 'status',
    args: '',
    summary: 'captured sessions, queue states, hook errors and recovery items; no bodies',
    details:
      "Sessions 50 a page, newest first (nextSessionKey continues); recovery items 20 a page (nextRecoveryId continues); installed hooks that can no longer run, read from the clients' config dirs.",
    flags: {
      afterSession: ['KEY', 'continue after this session (nextSessionKey)'],
      afterRecovery: ['ID', 'continue after this recovery item (nextRecoveryId)'],
      // All three at once: status checks every client's hooks, not one as install does.
      codexHome: ['DIR', "where it looks for Codex's hooks (default $CODEX_HOME or ~/.codex)"],
      claudeDir: ['DIR', "where it looks for Claude Code's hooks (default $CLAUDE_CONFIG_DIR or ~/.claude)"],
      piDir: ['DIR', "where it looks for pi's extension (default $PI_CODING_AGENT_DIR or ~/.pi/agent)"],
    },
  },
  {
    path: 'sessions',
    args: '',
    summary: 'captured sessions, newest first: client, state, directory, turns, first prompt masked (20 a page)',
    flags: {
      client: ['C', 'only sessions of codex, claude or pi'],
      limit: ['N', 'sessions a page (1-100, default 20)'],
      after: ['KEY', 'the next page: sessions older than this one'],
    },
  },
  {
    path: 'session',
    args: '<key>',
    summary: "one session's turns in order with what you said in full",
    details: 'The key or a unique start of it. Secrets the lint finds are masked unless --reveal.',
    flags: {
      context: 'add the assistant, tool and harness text',
      reveal: 'show masked text as it was captured',
    },
  },
  {
    path: 'session-drain',
    args: '',
    summary: 'turn the hook inbox into sessions, turns and batches now',
    flags: { recover: ['ID', 'retry one recovery item (exit 3 if it fails again)'] },
  },
  {
    path: 'flush',
    args: '',
    summary: 'drain the inbox and draft candidates now; exit 0 when all is processed, 3 while anything waits',
    flags: {},
  },
  {
    path: 'import',
    args: 'claude|codex|pi',
    summary: 'import the conversations a client stored before common-memory was installed',
    details:
      'Without --yes it says what it would import (sessions, turns, bytes, dates, repositories) and writes nothing. With --yes it imports through the same parsers as live capture, once (a turn captured live or imported before is not stored again), then drafts candidates. Files it cannot read are skipped or quarantined, and the rest imports.',
    flags: {
      claudeDir: ['DIR', 'Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)'],
      codexHome: ['DIR', 'Codex home (default $CODEX_HOME or ~/.codex)'],
      piDir: ['DIR', 'pi agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent)'],
      since: ['DATE', 'only files last written at or after DATE (UTC)'],
      until: ['DATE', 'only files last written before DATE (UTC)'],
      repository: ['PATH', 'only sessions that ran in PATH or under it'],
      dryRun: 'say what it would import; write nothing (the default without --yes)',
      yes: 'import: you have read what it would import and confirm it',
    },
  },
  {
    path: 'install',
    args: 'codex|claude|pi',
    summary: "add common-memory's hooks (pi: its extension) and MCP server to the client's config",
    details: 'Everything else in the files is kept; each previous file is kept as a backup.',
    flags: { ...INSTALL_DIRS, dryRun: 'show the diff; write nothing' },
  },
  {
    path: 'uninstall',
    args: 'codex|claude|pi',
    summary: "remove only common-memory's entries from the client's config",
    flags: { ...INSTALL_DIRS, dryRun: 'show the diff; write nothing' },
  },
  {
    path: 'search',
    args: '<query>',
    summary: 'what you said in captured sessions and to driven agents, best match first',
    details: 'Snippets mask the secrets the lint finds. T is UTC (2026-08-01 or 2026-08-01T09:30:00Z).',
    flags: {
      since: ['T', 'turns at or after T'],
      until: ['T', 'turns before T'],
      client: ['C', 'only codex, claude or pi'],
      limit: ['N', 'results (1-100, default 20)'],
    },
  },
  {
    path: 'memory extract',
    args: '[<run-id>]',
    summary: "draft candidate memories from what you said in this repository's sessions",
    details:
      'Default: the builtin runner (offline), the window since the last run; at most 200 turns and 366 days; exit 3 when tasks remain or failed. Another runner (a profile of runners.json) first prints the exact bytes it would send and exits 14 until you approve that plan by its digest. Through a host the run is followed: progress on stderr; Ctrl+C stops following (exit 130) and the run goes on.',
    flags: {
      since: ['T', 'the window starts at T (UTC)'],
      until: ['T', 'the window ends before T (UTC)'],
      query: ['Q', 'only turns matching Q'],
      client: ['C', 'only codex, claude or pi'],
      session: ['KEY', 'only this session (repeat for more)'],
      limit: ['N', 'at most N tasks (1-8)'],
      ...RUNNER_FLAGS,
      follow: 'with <run-id>: follow that run again, its progress, then its report',
    },
  },
  {
    path: 'memory status',
    args: '',
    summary: 'chunk/task/candidate counts, the last and running run (exit 12: unavailable)',
    details:
      "Verifies this worktree's approved entries against it first (paths, scripts, commits they name) and counts the stale ones. Lists the memory files left out (blocked by the lint, malformed) with what to do.",
    flags: {},
  },
  {
    path: 'memory suggestions',
    args: '',
    summary: 'approved entries to consider retiring: stale, or unused for N days',
    details:
      "This worktree's and the user's entries: stale anchors, or neither read by an agent nor re-taught by you in N days. It lists; nothing is retired.",
    flags: { days: ['N', 'days without a read or a re-teach (1-3650, default 90)'] },
  },
  {
    path: 'memory recall',
    args: '<text>',
    summary: 'what memory already holds like <text> (BM25 + reciprocal rank fusion)',
    flags: { limit: ['N', 'results (1-100, default 10)'] },
  },
  {
    path: 'memory review',
    args: '',
    summary: 'draft and quarantined candidates with statements, evidence and findings',
    details: 'Newest first, 50 a page, with the total; read-only.',
    flags: {
      scope: ['all|user|project', "user: the user scope's; project: this repository's (default all)"],
      limit: ['N', 'candidates a page (1-200)'],
      after: ['CURSOR', 'the next page (nextAfter)'],
    },
  },
  {
    path: 'memory lint',
    args: '[<path>... | -]',
    summary: 'secret and poisoning lint of files or stdin; exit 11 on a blocking finding',
    details:
      'An empty or closed stdin (</dev/null, a pipe that wrote nothing) has no findings: exit 0, and the output says 0 bytes were read from it.',
    flags: {},
  },
  {
    path: 'memory retry',
    args: '<task-id>',
    summary: 'a task that failed 5 times may be claimed again',
    flags: {},
  },
  {
    path: 'memory reverify-runner',
    args: '',
    summary: "run a profile's deny-all conformance probe again (exit 15 naming what failed)",
    flags: { runner: ['NAME', 'the profile of runners.json'] },
    required: ['runner'],
  },
  {
    path: 'memory sync',
    args: '',
    summary: "scan the user's and this worktree's memory files into the approved projection",
    details:
      "Then verifies this worktree's entries against it (stale entries are counted). Exit 3 when coverage is partial.",
    flags: { dryRun: 'scan and say what would change; store nothing' },
  },
  {
    path: 'memory search',
    args: '<query>',
    summary: 'approved entries of this repository and the user scope',
    flags: { limit: ['N', 'results (1-100, default 20)'] },
  },
  {
    path: 'memory init',
    args: '',
    summary: 'lay out a memory root with its README',
    flags: {
      scope: ['project|user', "default: this worktree's (the user's outside git)"],
      dryRun: 'say where it would go; write nothing',
    },
  },
  {
    path: 'memory confirm',
    args: '<candidate> <statement>',
    summary: 'mark a statement confirmed by you (refused if it changed since it was assessed)',
    flags: {},
  },
  {
    path: 'memory discard',
    args: '<candidate>',
    summary: 'take a candidate out of the queue (kept, never deleted)',
    flags: {},
  },
  {
    path: 'memory prepare',
    args: '<candidate>... | <patch-id>',
    summary: 'a promotion plan: the exact bytes of each file, its diff and digest',
    details:
      "Into the candidates' own repository, from any directory; exit 6 if its worktree is gone, 11 if the bytes hold a secret. A consolidation patch (con-…, from memory review) is prepared in its worktree: its scene and doctrine files written, merged and retired entries' files removed; exit 5 if an entry it rests on changed since (run memory consolidate again).",
    flags: {
      scope: ['project|user', "default: the candidates' own (their repository's, or the user's)"],
      operations: ['1,3', "a patch's operations to take (default: all); the plan names those left out"],
    },
  },
  { path: 'memory plan', args: '<plan-id>', summary: 'a plan with its status, files and diff', flags: {} },
  {
    path: 'memory patch',
    args: '<patch-id>',
    summary: 'a consolidation patch: its operations, status, plan and every file text',
    details:
      'The id memory review and memory consolidate print (con-…), or a unique start of it. Any status: pending, prepared, applied. Exit 6 if no patch has the id.',
    flags: {},
  },
  {
    path: 'memory approve',
    args: '<plan-id>',
    summary: 'approve exactly the plan whose digest is the one given',
    flags: { digest: ['D', 'the digest memory prepare printed (required)'] },
    required: ['digest'],
  },
  {
    path: 'memory promote',
    args: '<plan-id>',
    summary: 'write an approved plan into the memory root, then sync; never runs git',
    details: 'Also finishes an interrupted one. Exit 5 when it was voided because a target changed.',
    flags: { dryRun: 'say what it would do now, file by file; write nothing' },
  },
  {
    path: 'memory void',
    args: '<plan-id>',
    summary: 'withdraw a plan not yet written: it can no longer be approved or promoted',
    details:
      'Its candidates stay in the review queue. A plan being written is refused (finish it with memory promote), as is one already applied.',
    flags: {},
  },
  {
    path: 'memory retire',
    args: '<entry-id>',
    summary: "a plan that removes an approved entry's file (its exact bytes, diff and digest)",
    details:
      'Approve and promote it like any plan; promote removes the file only if it still holds those bytes. Exit 6 if no file holds the entry.',
    flags: { scope: ['project|user', "default: this worktree's memory root, then the user's"] },
  },
  {
    path: 'memory consolidate',
    args: '',
    summary: 'propose scenes, merges and retirements over approved entries',
    details:
      "The patch over one scope's approved entries waits in memory review as one item; no file changes. Entries that change before it is submitted make it stale: run it again. --runner NAME (a profile of runners.json, which alone may write doctrine) first prints the exact bytes it would send and exits 14 until you approve that plan by its digest.",
    flags: {
      scope: ['project|user', "default: this worktree's, or the user's outside git"],
      ...RUNNER_FLAGS,
    },
  },
  {
    path: 'memory revise',
    args: '<entry-id>',
    summary: "edit an approved entry's text into a candidate that revises it",
    details:
      "Opens $VISUAL or $EDITOR on the entry's text: a --- block with title, appliesWhen and type, then the body (--file takes the same). Unchanged text makes nothing. Prepare, approve and promote the candidate like any: its plan rewrites the entry's own file. Exit 6 if no entry has the id.",
    flags: {
      file: ['PATH', 'the edited text from this file (same format) instead of an editor'],
      scope: ['project|user', 'the memory root that holds the entry (default: where it is found)'],
    },
  },
  {
    path: 'memory refresh',
    args: '',
    summary: 'give a running Codex/Claude Code/pi session the current notes at its next prompt',
    flags: { session: ['KEY', 'the session (default: the one whose shell runs this command)'] },
  },
  {
    path: 'memory assemble',
    args: '',
    summary: "write this repository's notes as a managed block into CLAUDE.md / AGENTS.md",
    details:
      'With --skills: each approved work method of the scope becomes a managed skill folder where the client loads it (project: .claude/skills, .agents/skills; user: ~/.claude/skills, ~/.agents/skills). Folders it did not write are never touched; a skill whose entry was retired is removed.',
    flags: {
      provider: ['claude|codex', 'which file (required); with --skills, default both'],
      skills: 'write approved work methods as agent skills instead',
      scope: ['project|user', "with --skills: whose methods (default: this repository's)"],
      dryRun: 'print the diff; write nothing',
    },
  },
  {
    path: 'get',
    args: '<entry-id>',
    summary: 'one approved entry: title, sources, digest, body',
    details:
      'scene:<name> gives a scene and its notes; doctrine:<name> a principle and the notes it cites, marked NOT GIVEN AS TRUE when one of them changed since.',
    flags: {},
  },
  {
    path: 'mcp',
    args: '',
    summary: 'the MCP server on stdio that Claude Code and Codex start (install registers it)',
    flags: {},
  },
] as const satisfies readonly CommandSpec[];

export type CommandPath = (typeof COMMAND_SPECS)[number]['path'];

/** Commands with subcommands, and what each group is for. */
export const GROUPS: Readonly<Record<string, string>> = {
  agent: 'named pi agents driven through the host',
  service: 'the host as a per-user background service (systemd, launchd)',
  memory: 'the memory pipeline: extract, review, promote, approved memory',
};

const BY_PATH = new Map<string, CommandSpec>(COMMAND_SPECS.map((spec) => [spec.path, spec]));

export const commandSpec = (path: string): CommandSpec | undefined => BY_PATH.get(path);

/** The first words of every command: what "Unknown command" compares against. */
export const TOP_WORDS: readonly string[] = [
  ...new Set(COMMAND_SPECS.map((spec) => spec.path.split(' ')[0]!).filter(Boolean)),
];

export const subcommandsOf = (group: string): CommandSpec[] =>
  COMMAND_SPECS.filter((spec) => spec.path.startsWith(`${group} `));

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
