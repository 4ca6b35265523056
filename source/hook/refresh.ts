// `memory refresh`: replaces a running activation's frozen session-start snapshot with the current
// selection, to be given to the model once, at that session's next UserPromptSubmit or PostToolUse
// hook (inbox-writes.ts) — ordinary turns never read memory again. Like a hook, it writes the
// activation row of core.sqlite directly in one BEGIN IMMEDIATE transaction, and the selection is
// read from memory-state inside that transaction: what is stored is exactly what that read saw, and
// no hook or other refresh of the activation can come between the read and the replacement.
//
// Which activation: the one a session key names, or else the one whose host process is an
// ancestor of this process (an agent running `common-memory memory refresh` in its shell tool),
// narrowed by the host's session id where the host exports it. A pi process's instance is random
// (kept across /reload), so no ancestor walk finds it: the extension exports its instance and
// session id to the commands pi runs (PI_INSTANCE_ENV, PI_SESSION_ENV). Not exactly one: refused,
// with the way to name it.
//
// pi takes a refresh differently from the hook clients: its memory block is part of the system
// prompt of every turn, so the extension picks the new snapshot up once, at pi's next
// before_agent_start, and from then on gives that one (hook/main.ts piRefreshedSnapshot).
import { storeFiles } from '../home.js';
import { CmError } from '../errors.js';
import { echoed } from '../echo-text.js';
import { ID_PREFIX_HINT, resolveIdPrefix } from '../store/id-prefix.js';
import { readSessionSnapshot } from '../store/memory/snapshot-read.js';
import { MEMORY_FOLLOW_HOOK_BUDGET_MS, MEMORY_FOLLOW_HOOK_FILE_STAMPS_MAX } from '../limits.js';
import { cliCommand } from './cli-command.js';
import { commit } from '../store/transaction.js';
import type { Db } from '../store/database.js';
import {
  activationByKey,
  activeHookActivations,
  activePiActivation,
  type RefreshActivation,
  replaceSnapshot,
} from '../store/core/snapshot-refresh.js';
import { openStore } from './open-store.js';
import { ancestorInstances, INSTANCE_ENV } from './process-instance.js';
import { blockedFileProblem } from '../memory/file-lint.js';

export interface RefreshTarget {
  /** The activation's session key (as `sessions` and `status` print it). */
  sessionKey?: string | undefined;
  /**
   * Who asks: the `memory refresh` command (the default) or the memory_refresh MCP tool. A message
   * that cannot tell the session says how to name one in the caller's terms: an agent calling the
   * tool passes `session`, it has no shell of its session to run a command from.
   */
  caller?: 'cli' | 'mcp';
}

export interface MemoryRefreshResult {
  sessionKey: string;
  client: string;
  /** Entries in the new snapshot, entries left out by the budget, and its size. */
  entries: number;
  omitted: number;
  bytes: number;
  /** When the model gets the new snapshot: once with the next prompt or tool use; for pi, in its system prompt from then on. */
  delivery: 'next UserPromptSubmit or PostToolUse' | 'next pi prompt, then every later one';
}

/** What the pi extension exports to the commands pi runs: its process instance and its session id. */
export const PI_INSTANCE_ENV = 'COMMON_MEMORY_PI_INSTANCE';
export const PI_SESSION_ENV = 'COMMON_MEMORY_PI_SESSION';

/** Host session ids exported to the commands an agent runs, per client. */
const SESSION_ENV: Record<string, string> = { codex: 'CODEX_THREAD_ID', claude: 'CLAUDE_CODE_SESSION_ID' };

function findActivation(db: Db, target: RefreshTarget, env: NodeJS.ProcessEnv): RefreshActivation {
  if (target.sessionKey !== undefined) {
    // A unique start of the key names the session, as `session <key>` takes it.
    const key = resolveIdPrefix(db, 'capture_activations', 'session_key', target.sessionKey, 'session');
    const row = activationByKey(db, key);
    if (!row)
      throw new CmError(
        'not_found',
        `No session has the key ${echoed(target.sessionKey)}: ${ID_PREFIX_HINT.replace('ID', 'key')}; common-memory sessions lists them.`,
      );
    if (row.state !== 'active')
      throw new CmError('not_found', `Session ${row.session_key} has ended; a new session reads memory at its start.`);
    return row;
  }
  const piInstance = env[PI_INSTANCE_ENV];
  if (piInstance) {
    const row = activePiActivation(db, piInstance, env[PI_SESSION_ENV] ?? '');
    if (row) return row;
  }
  const instances = ancestorInstances(env);
  if (instances.length === 0) instances.push('no-ancestor');
  let rows = activeHookActivations(db, instances);
  const bySession = rows.filter((row) => env[SESSION_ENV[row.client]!] === row.host_session_id);
  if (bySession.length > 0) rows = bySession;
  if (rows.length === 1) return rows[0]!;
  const tool = target.caller === 'mcp';
  const nameOne = tool
    ? 'call memory_refresh again with "session" set to its key'
    : 'name one: common-memory memory refresh --session <key>';
  throw new CmError(
    rows.length === 0 ? 'not_found' : 'usage',
    rows.length === 0
      ? `No running Codex, Claude Code or pi session of this data home started this ${tool ? 'MCP server' : 'command'} (checked its parent processes${env[INSTANCE_ENV] ? ` and ${INSTANCE_ENV}` : ''}). ${tool ? 'To refresh one anyway, ' : "Run it from the session's shell, or "}${nameOne} (common-memory sessions lists them).`
      : `${rows.length} running sessions could have started this ${tool ? 'MCP server' : 'command'} (${rows.map((r) => r.session_key).join(', ')}); ${nameOne}.`,
  );
}

export function refreshSnapshot(
  home: string,
  target: RefreshTarget = {},
  env: NodeJS.ProcessEnv = process.env,
): MemoryRefreshResult {
  const db = openStore(home, 2000);
  try {
    return commit(db, 'memoryRefresh', (tx) => {
      const row = findActivation(db, target, env);
      const snapshot = readSessionSnapshot(storeFiles(home).memoryState, row.cwd, cliCommand(home), undefined, {
        home,
        budgetMs: MEMORY_FOLLOW_HOOK_BUDGET_MS,
        fileStampsUpTo: MEMORY_FOLLOW_HOOK_FILE_STAMPS_MAX,
        lintFile: blockedFileProblem,
      });
      replaceSnapshot(tx, row.activation_id, snapshot.text);
      return {
        sessionKey: row.session_key,
        client: row.client,
        entries: snapshot.entryIds.length,
        omitted: snapshot.omitted,
        bytes: snapshot.bytes,
        delivery: row.client === 'pi' ? 'next pi prompt, then every later one' : 'next UserPromptSubmit or PostToolUse',
      };
    });
  } finally {
    db.close();
  }
}
