// Reads without a host: a read-only connection, no lease, so `log --follow` never blocks a host start.
// It answers the API's reads; its refusals of the writes are derived from the declarations.
import { dirname, join } from 'node:path';
import type { Application } from '../api/application.js';
import { readOnlyApplication } from '../api/read-only.js';
import { listAgents } from '../store/core/agents.js';
import { lastEventsAt, readCaptureStatus } from '../store/core/capture-reads.js';
import { coreSchema } from '../store/core/core-schema.js';
import { openDatabase } from '../store/database.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/core/history-reads.js';
import { schemaVersion } from '../store/migrations.js';
import { readHeads, readStoreId } from '../store/core/sequences.js';
import { sessionSearch } from '../store/core/session-search.js';
import { listSessions, readSession } from '../store/core/session-reads.js';
import { storeFiles } from '../home.js';
import { CmError } from '../errors.js';
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';

// The memory half is loaded by the reads that need it: a plain read (`sessions`, `log`) is a whole
// process, and these modules bring the lint and promotion rules, which it never runs.
const memoryAccess = () => import('../pipeline/memory-access.js');
const approvedAccess = () => import('../pipeline/approved-access.js');
const usageAccess = () => import('../pipeline/usage-access.js');
const promotion = () => import('../pipeline/promotion.js');

/** Whether the store is at this common-memory's schema version (reads never migrate). */
export function isCurrentStore(corePath: string): boolean {
  const db = openDatabase(corePath, { readonly: true });
  try {
    return schemaVersion(db) >= coreSchema.steps.length;
  } finally {
    db.close();
  }
}

function ledgerOf(home: string) {
  const files = storeFiles(home);
  return ledgerStatusAt(files.ledger, files.ledgerHealth);
}

export function openReadOnly(corePath: string): { app: Application; close(): void } {
  const db = openDatabase(corePath, { readonly: true });
  const memoryStatePath = storeFiles(dirname(corePath)).memoryState;
  const app = readOnlyApplication({
    status: async () => ({
      storeId: readStoreId(db),
      hostId: '',
      pid: process.pid,
      startedAt: '',
      mode: 'read-only',
      heads: readHeads(db),
      ledger: ledgerOf(dirname(corePath)),
      waiting: (await memoryAccess()).waitingAt(db, memoryStatePath),
      lastEventAt: lastEventsAt(db),
    }),
    journal: async (request) => readJournalPage(db, request),
    timeline: async (request) => readTimelinePage(db, request),
    message: async ({ messageId }) => readMessage(db, messageId),
    operation: async ({ operationId }) => readOperation(db, operationId),
    listAgents: async () => listAgents(db),
    captureStatus: async (request) =>
      readCaptureStatus(db, {
        storeId: readStoreId(db),
        mode: 'read-only',
        ...request,
        // From the path, not db.name: a store read from a copy in memory (read-only home) is named ":memory:".
        hookErrorsPath: join(dirname(corePath), 'hook-errors.jsonl'),
        ledger: () => ledgerOf(dirname(corePath)),
      }),
    sessionSearch: async (request) => sessionSearch(db, request),
    listSessions: async (request) => listSessions(db, request),
    readSession: async (request) => readSession(db, request),
    memoryStatus: async () =>
      (await import('../pipeline/memory-status.js')).memoryStatusAt(memoryStatePath, false, null),
    memoryReview: async (request) => (await memoryAccess()).memoryReviewAt(memoryStatePath, request),
    memoryRecall: async ({ text, cwd, limit }) =>
      (await memoryAccess()).memoryRecallAt(memoryStatePath, text, cwd, limit),
    memorySearch: async ({ query, cwd, limit }) =>
      (await approvedAccess()).memorySearchAt(memoryStatePath, cwd, query, limit),
    memoryGet: async ({ entryId, cwd }) => (await approvedAccess()).memoryGetAt(memoryStatePath, cwd, entryId),
    memoryStale: async ({ cwd }) => (await approvedAccess()).memoryStaleAt(memoryStatePath, cwd),
    memorySuggestions: async (request) => (await usageAccess()).memorySuggestionsAt(memoryStatePath, request),
    memoryPlan: async ({ planId }) => (await promotion()).readPlanAt(memoryStatePath, planId),
    memoryPatch: async ({ taskId }) => (await memoryAccess()).memoryPatchAt(memoryStatePath, taskId),
    // A probe lives in the host that ran it; none runs.
    memoryReverifyProbe: async ({ probeId }) => {
      throw new CmError(
        'not_found',
        `No conformance probe ${JSON.stringify(probeId.slice(0, 200))}: no host runs; run memory reverify-runner again.`,
      );
    },
    // An import lives in the host that runs it; none runs.
    captureImportRun: async ({ importId }) => {
      throw new CmError(
        'not_found',
        `No import ${JSON.stringify(importId.slice(0, 200))}: no host runs; run common-memory import again (it goes on where it stopped).`,
      );
    },
    // No host runs: a run is what memory-state recorded of it.
    memoryExtractRun: async ({ runId }) => {
      const run = (await memoryAccess()).storedExtractRunAt(memoryStatePath, runId);
      if (!run)
        throw new CmError(
          'not_found',
          `No extraction run ${JSON.stringify(runId.slice(0, 200))} in this data home; memory status shows the last and the running run.`,
        );
      return run;
    },
  });
  return { app, close: () => db.close() };
}
