// The world of the read-ledger live tests (ledger-claude, ledger-codex, ledger-codex-clear): the
// prompts the fake model servers answer, the entries' body marks, the hint's head, and a sandboxed
// client with `install` done, a git repository with approved entries synced, and a recording hook
// beside ours. What a world opens is closed after the test file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { type MessagesScript, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import {
  type RecordedRequest,
  type ResponsesReply,
  type ResponsesScript,
  startFakeResponsesServer,
} from '../support/fake-responses-server.js';
import { runCli } from '../support/cli.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';
import { type ClaudeSandbox, createClaudeSandbox } from './claude.js';
import { type CodexSandbox, createCodexSandbox } from './codex.js';
import { HOOK_RECORD_ENV, recordingHookCommand } from './hook-records.js';
import type { Sandbox } from './sandbox.js';

/** In the body of the project entry `use-pnpm` (the root reads it), never in a hint. */
export const BODY_MARK = 'quokka-lockfile-body-7781';
/** In the body of the user entry `named-exports` (the subagent reads it). */
export const SUB_BODY_MARK = 'wallaby-exports-body-3319';
export const ROOT_PROMPT = 'Read the pnpm rule, then delegate the check';
export const SUB_PROMPT = 'Subagent: check the exports as well';
export const AGAIN_PROMPT = 'Delegate one more check';
export const SUB_AGAIN_PROMPT = 'Second subagent: look around';
/** How Codex tells the root that its subagent finished: a user message of its own. */
export const NOTIFIED = '<subagent_notification>';
/** How the hint a subagent gets begins. */
export const HINT_HEAD = 'common-memory: the agent that started you read these reviewed memory entries';

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Closes `cleanup` after the test file, after what was opened later. */
export function closeLater(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** Codex's memory_get (in the namespace `mcp__common_memory`) for entry `id`, then `then`. */
export const codexMemoryGet = (id: string, then: ResponsesReply | string): ResponsesReply => ({
  type: 'call',
  name: 'memory_get',
  namespace: 'mcp__common_memory',
  arguments: { id },
  then,
});

/** spawn_agent answers at once with the child's id; the root then waits for it, so the run ends after it. */
export const codexSubagent = (message: string, then: string): ResponsesReply => ({
  type: 'call',
  name: 'spawn_agent',
  namespace: 'multi_agent_v1',
  arguments: { message },
  then: (output) => ({
    type: 'call',
    name: 'wait_agent',
    namespace: 'multi_agent_v1',
    arguments: { targets: [(JSON.parse(output) as { agent_id: string }).agent_id], timeout_ms: 120_000 },
    then,
  }),
});

export interface LedgerWorld<S> {
  sandbox: S;
  home: string;
  requests: readonly RecordedRequest[];
  /** The JSONL file the recording hook appends to. */
  records: string;
}

export interface LedgerWorldOptions {
  /** Names the data home inside the sandbox. */
  label: string;
  /** The events the recording hook is added to beside ours (default PostToolUse and SubagentStart). */
  events?: readonly string[];
  /** Also the user entry `named-exports` (default true); `use-pnpm` is always there. */
  userEntry?: boolean;
}

const DEFAULT_EVENTS = ['PostToolUse', 'SubagentStart'];

/** The hook-record environment every world's client runs with. */
const recordsEnv = { env: (paths: { root: string }) => ({ [HOOK_RECORD_ENV]: join(paths.root, 'hooks.jsonl') }) };

/**
 * Starts the sandbox on `server` (both closed after the test file), then in it: a git repository
 * with the approved entries synced into the data home, `common-memory install` with
 * `installArgs`, and beside our hooks in `hooksFile` a hook that records what the client passes
 * (the payload shapes the tests check).
 */
async function open<S extends Sandbox>(
  server: { baseUrl: string; requests: readonly RecordedRequest[]; close(): Promise<void> },
  createSandbox: (options: { baseUrl: string } & typeof recordsEnv) => Promise<S>,
  options: LedgerWorldOptions,
  installArgs: (sandbox: S, home: string) => string[],
  hooksFile: (sandbox: S) => string,
): Promise<LedgerWorld<S>> {
  closeLater(() => server.close());
  const sandbox = await createSandbox({ baseUrl: server.baseUrl, ...recordsEnv });
  closeLater(() => sandbox.cleanup());
  const home = join(sandbox.root, `cm-home-${options.label}`);
  execFileSync('git', ['init', '-q'], { cwd: sandbox.cwd });
  writeEntry(projectRoot(sandbox.cwd), 'use-pnpm', 'Use pnpm, not npm', `Install with pnpm; ${BODY_MARK}.`);
  if (options.userEntry ?? true)
    writeEntry(userRoot(home), 'named-exports', 'Prefer named exports', `Named exports only; ${SUB_BODY_MARK}.`);
  const synced = await runCli(['memory', 'sync', '--home', home, '--json'], { cwd: sandbox.cwd });
  assert.equal(synced.code, 0, synced.stderr);
  const installed = await runCli(installArgs(sandbox, home));
  assert.equal(installed.code, 0, installed.stderr);
  const config = JSON.parse(readFileSync(hooksFile(sandbox), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
  };
  for (const event of options.events ?? DEFAULT_EVENTS)
    (config.hooks[event] ??= []).push({
      hooks: [
        {
          type: 'command',
          command: (recordingHookCommand as (e: string) => string)(event),
          timeout: event === 'SessionEnd' ? 3 : 30,
        },
      ],
    });
  writeFileSync(hooksFile(sandbox), `${JSON.stringify(config, null, 2)}\n`);
  return { sandbox, home, requests: server.requests, records: join(sandbox.root, 'hooks.jsonl') };
}

/** A sandboxed Claude Code with `install claude` done, on a fake Messages server that answers `script`. */
export const claudeLedgerWorld = async (
  options: LedgerWorldOptions,
  script: MessagesScript,
): Promise<LedgerWorld<ClaudeSandbox>> =>
  open(
    await startFakeAnthropicServer({ script }),
    createClaudeSandbox,
    options,
    (sandbox, home) => ['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home],
    (sandbox) => sandbox.settingsPath,
  );

/** A sandboxed Codex with `install codex` done, on a fake Responses server that answers `script`. */
export const codexLedgerWorld = async (
  options: LedgerWorldOptions,
  script: ResponsesScript,
): Promise<LedgerWorld<CodexSandbox>> =>
  open(
    await startFakeResponsesServer({ script }),
    createCodexSandbox,
    options,
    (sandbox, home) => ['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home],
    (sandbox) => join(sandbox.codexHome, 'hooks.json'),
  );

/** The ledger part of `status --json`. */
export async function ledgerStatus(
  home: string,
  cwd: string,
): Promise<{ state: string; roots: number; entries: number; reason: string }> {
  const status = await runCli(['status', '--home', home, '--json'], { cwd });
  assert.equal(status.code, 0, status.stderr);
  return (JSON.parse(status.stdout) as { ledger: { state: string; roots: number; entries: number; reason: string } })
    .ledger;
}

/** A subagent's first request after its root read `use-pnpm`: the hint with id and title, never the body. */
export function assertHintedRead(request: string): void {
  assert.ok(request.includes(HINT_HEAD), 'the subagent got the hint');
  assert.ok(request.includes('use-pnpm') && request.includes('Use pnpm, not npm'), 'with id and title');
  assert.ok(!request.includes(BODY_MARK), 'never the body');
}

/** The first requests of the subagents of a resumed root: one, hinted the root's read, not its first subagent's. */
export function assertRootReadOnly(next: readonly string[]): void {
  assert.equal(next.length, 1);
  assert.ok(next[0]!.includes(HINT_HEAD) && next[0]!.includes('use-pnpm'), 'the resumed root still hints its read');
  assert.ok(!next[0]!.includes('named-exports'), "the first subagent's own read is not the root's");
}

/**
 * Overwrites the world's ledger with garbage; the returned check asserts that `get` answers as it
 * did before the break.
 */
export async function breakLedger(world: LedgerWorld<Sandbox>): Promise<() => Promise<void>> {
  const { home, sandbox } = world;
  writeFileSync(storeFiles(home).ledger, 'not a database'.repeat(500), { mode: 0o600 });
  const got = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
  return async () => {
    const after = await runCli(['get', 'use-pnpm', '--home', home, '--json'], { cwd: sandbox.cwd });
    assert.equal(after.stdout, got.stdout, '`get` is unchanged');
  };
}
