// What the MCP tools read: memory-state opened read-only per call, exactly as `memory search`,
// `get` and `memory status` read it without a host (a running host changes nothing: the reads
// never go through its writer). The caller's scopes come from the directory the client started
// the server in: its worktree's and the user's.
import { storeFiles } from '../home.js';
import { approvedViewAt, memoryGetAt, memorySearchAt } from '../memory/approved-access.js';
import { memoryStatusAt } from '../memory/memory-access.js';
import { ledgerStatusAt } from '../ledger/ledger-status.js';
import type { MemoryBackend, McpStatus } from './tools.js';

export function localBackend(home: string, cwd: string): Omit<MemoryBackend, 'propose'> {
  const path = storeFiles(home).memoryState;
  return {
    search: async (query, limit) => memorySearchAt(path, cwd, query, limit),
    get: async (entryId) => memoryGetAt(path, cwd, entryId),
    status: async (): Promise<McpStatus> => {
      const memory = memoryStatusAt(path, false, null);
      const { draft, quarantined, promoted } = memory.candidates;
      const files = storeFiles(home);
      const { state, reason, roots, entries } = ledgerStatusAt(files.ledger, files.ledgerHealth);
      return {
        approved: approvedViewAt(path, cwd),
        candidates: { state: memory.state, reason: memory.reason, draft, quarantined, promoted },
        ledger: { state, reason, roots, entries },
      };
    },
  };
}
