// What the MCP tools read and write. Reads: memory-state opened read-only per call
// (client/local-memory.ts), exactly as `memory search`, `get` and `memory status` read it without
// a host (a running host changes nothing: the reads never go through its writer). A proposal is a write: it goes to the running
// host's writer, or takes the lease for the call's duration like any memory command — never for
// longer, so the server never keeps a host from starting. The caller's scopes come from the
// directory the client started the server in: its worktree's and the user's.
import type { Application } from '../api/application.js';
import type { ProposalOrigin } from '../api/proposal.js';
import { CmError } from '../errors.js';
import type { McpConsolidatePreview, McpStatus, MemoryBackend } from './tools.js';

// Loaded at a tool's first call, not at the server's start: a client waits for `initialize`
// before it offers the tools (and may not wait long), and these bring the store and the pipeline.
const localMemory = () => import('../client/local-memory.js');
const connection = () => import('../client/connect.js');
const refreshing = () => import('../hook/refresh.js');

export function localBackend(home: string, cwd: string, origin: () => ProposalOrigin): Required<MemoryBackend> {
  // Writes one at a time: without a host each takes the lease for its duration, and a second
  // call of this same server while the first holds it would be refused as "store already open"
  // (clients do call tools in parallel).
  let writes: Promise<unknown> = Promise.resolve();
  const write = <T>(work: (app: Application) => Promise<T>): Promise<T> => {
    const run = async () => {
      const connected = await (await connection()).connect(home, 'write');
      try {
        return await work(connected.app);
      } finally {
        await connected.close();
      }
    };
    const result = writes.then(run, run);
    writes = result.catch(() => undefined);
    return result;
  };
  return {
    search: async (query, limit) => (await localMemory()).searchApprovedIn(home, cwd, query, limit),
    // An agent looks ids up with its own tool, not the CLI the message names for a person.
    get: async (entryId) =>
      (await localMemory()).approvedEntryIn(home, cwd, entryId, 'memory_search lists the ids (by a few words).'),
    status: async (): Promise<McpStatus> => {
      const { approved, memory, ledger } = await (await localMemory()).memoryOverviewIn(home, cwd);
      const { draft, quarantined, promoted } = memory.candidates;
      const { state, reason, roots, entries } = ledger;
      return {
        approved,
        candidates: { state: memory.state, reason: memory.reason, draft, quarantined, promoted },
        ledger: { state, reason, roots, entries },
      };
    },
    propose: (proposal) =>
      write((app) =>
        app.memoryPropose({ cwd, ...proposal, appliesWhen: proposal.appliesWhen ?? null, origin: origin() }),
      ),
    // Only the task: the built-in runner runs when the user runs `memory consolidate`.
    consolidatePreview: async (scope) => {
      // Refused here, in the tool's terms: `memory consolidate`'s refusal names its --scope flag.
      if (scope === 'project' && !(await import('../client/worktree-here.js')).insideWorktree(cwd))
        throw new CmError(
          'usage',
          `This server runs in ${cwd}, which is not inside a git worktree: there is no project memory here. Call memory_consolidate_preview with "scope": "user" (or without scope) for the user's memory.`,
        );
      return write(async (app): Promise<McpConsolidatePreview> => {
        const made = await app.memoryConsolidate({ cwd, ...(scope ? { scope } : {}), preview: true });
        return {
          taskId: made.taskId,
          scope: made.scope,
          outcome: made.outcome === 'unchanged' ? 'unchanged' : 'pending',
          entries: made.entries,
          problems: made.problems,
          // No entries: `memory consolidate` would answer "nothing to propose", so do not send the user there.
          next:
            made.entries === 0
              ? 'There are no approved entries in this scope: nothing to consolidate.'
              : made.outcome === 'unchanged'
                ? 'These entries were consolidated before: the patch is in `common-memory memory review`.'
                : 'The user runs `common-memory memory consolidate` to propose the patch, then reviews it in `common-memory memory review`.',
        };
      });
    },
    // The session is found as `memory refresh` run from the session's shell finds it: the client
    // started this server, so the client's process is among its ancestors, and the conversation id
    // the client put in the server's environment (server.ts) narrows it further.
    refresh: async (sessionKey) =>
      (await refreshing()).refreshSnapshot(home, { sessionKey, caller: 'mcp' }, process.env),
  };
}
