// Reads without a host: a read-only connection, no lease, so `log --follow` never blocks a host start.
import { CmError } from '../errors.js';
import type { Application, HostStatus, PageRequest } from '../protocol.js';
import { openDatabase, type Db } from '../store/database.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/history-reads.js';
import { readHeads, readStoreId } from '../store/sequences.js';

export class ReadOnlyApplication implements Application {
  private constructor(private readonly db: Db) {}

  static open(corePath: string): ReadOnlyApplication {
    return new ReadOnlyApplication(openDatabase(corePath, { readonly: true }));
  }

  async status(): Promise<HostStatus> {
    return { storeId: readStoreId(this.db), hostId: '', pid: process.pid, startedAt: '', mode: 'read-only', heads: readHeads(this.db) };
  }

  async appendNote(): Promise<never> {
    throw new CmError('internal', 'This connection is read-only.');
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

  close(): void {
    this.db.close();
  }
}
