// Reads without a host: a read-only connection, no lease, so `log --follow` never blocks a host start.
import { dirname, join } from 'node:path';
import { CmError } from '../errors.js';
import { parseRecoveryId } from '../protocol.js';
import { readCaptureStatus } from '../store/capture-reads.js';
import type { Application, HostStatus, PageRequest } from '../protocol.js';
import { listAgents } from '../store/agents.js';
import { coreSchema } from '../store/core-schema.js';
import { schemaVersion } from '../store/migrations.js';
import { openDatabase, type Db } from '../store/database.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/history-reads.js';
import { readHeads, readStoreId } from '../store/sequences.js';
import { sessionSearch } from '../store/session-search.js';
import type { SessionSearchRequest } from '../protocol.js';

export class ReadOnlyApplication implements Application {
  private constructor(private readonly db: Db) {}

  /** Whether the store is at this common-memory's schema version (reads never migrate). */
  static isCurrent(corePath: string): boolean {
    const db = openDatabase(corePath, { readonly: true });
    try {
      return schemaVersion(db) >= coreSchema.steps.length;
    } finally {
      db.close();
    }
  }

  static open(corePath: string): ReadOnlyApplication {
    return new ReadOnlyApplication(openDatabase(corePath, { readonly: true }));
  }

  async status(): Promise<HostStatus> {
    return { storeId: readStoreId(this.db), hostId: '', pid: process.pid, startedAt: '', mode: 'read-only', heads: readHeads(this.db) };
  }

  private refuse(): Promise<never> {
    return Promise.reject(new CmError('internal', 'This connection is read-only.'));
  }
  appendNote = () => this.refuse();
  createAgent = () => this.refuse();
  startAgent = () => this.refuse();
  stopAgent = () => this.refuse();
  prompt = () => this.refuse();
  abort = () => this.refuse();
  abandon = () => this.refuse();

  async listAgents() {
    return listAgents(this.db);
  }

  async journal(request: PageRequest) {
    return readJournalPage(this.db, request);
  }

  async timeline(request: PageRequest) {
    return readTimelinePage(this.db, request);
  }

  async message(messageId: string) {
    return readMessage(this.db, messageId);
  }

  async operation(operationId: string) {
    return readOperation(this.db, operationId);
  }

  // ---- host capture (issue 4): status reads without a host; draining needs the host or the lease ----
  async captureStatus(request: { afterRecovery?: string | undefined }) {
    const after = request.afterRecovery === undefined ? 0 : parseRecoveryId(request.afterRecovery);
    if (after === undefined) throw new CmError('invalid_cursor', `"${request.afterRecovery}" is not a recovery ID (rec-<n>); use the nextRecoveryId that status printed.`);
    return readCaptureStatus(this.db, { storeId: readStoreId(this.db), mode: 'read-only', afterRecovery: after, hookErrorsPath: join(dirname(this.db.name), 'hook-errors.jsonl') });
  }

  async sessionDrain(): Promise<never> {
    throw new CmError('internal', 'This connection is read-only; draining needs the host or the lease.');
  }

  async flush(): Promise<never> {
    throw new CmError('internal', 'This connection is read-only; flushing needs the host or the lease.');
  }

  // ---- the memory half ----
  async sessionSearch(request: SessionSearchRequest) {
    return sessionSearch(this.db, request);
  }

  close(): void {
    this.db.close();
  }
}
