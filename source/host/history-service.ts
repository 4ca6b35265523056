// The history area behind the application API: notes go to the writer thread, reads to the
// host's read-only connection.
import { dirname } from 'node:path';
import type { HistoryRoutes, HostStatus, NoteInput } from '../api/history.js';
import type { PageRequest } from '../api/common.js';
import type { MethodsOf } from '../api/route.js';
import { storeFiles } from '../home.js';
import { waitingAt } from '../pipeline/memory-access.js';
import { lastEventsAt } from '../store/core/capture-reads.js';
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';
import type { Db } from '../store/database.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/core/history-reads.js';
import { readHeads } from '../store/core/sequences.js';
import type { WriterClient } from '../workers/writer-client.js';

export interface HostIdentity {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  mode: 'host' | 'local';
}

/** Every method of the history area (the compiler asks for each one the area declares). */
export class HistoryService implements MethodsOf<HistoryRoutes> {
  constructor(
    private readonly writer: WriterClient,
    private readonly reader: Db,
    private readonly identity: HostIdentity,
  ) {}

  async status(): Promise<HostStatus> {
    const files = storeFiles(dirname(this.reader.name));
    return {
      ...this.identity,
      heads: readHeads(this.reader),
      ledger: ledgerStatusAt(files.ledger, files.ledgerHealth),
      waiting: waitingAt(this.reader, files.memoryState),
      lastEventAt: lastEventsAt(this.reader),
    };
  }

  appendNote(input: NoteInput) {
    return this.writer.call('appendNote', { text: input.text, operationId: input.operationId });
  }

  async journal(request: PageRequest) {
    return readJournalPage(this.reader, request);
  }

  async timeline(request: PageRequest) {
    return readTimelinePage(this.reader, request);
  }

  async message({ messageId }: { messageId: string }) {
    return readMessage(this.reader, messageId);
  }

  async operation({ operationId }: { operationId: string }) {
    return readOperation(this.reader, operationId);
  }
}
