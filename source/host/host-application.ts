// The application API, in process: mutations go to the writer thread, reads to a read-only
// connection. The HTTP server and the TUI both speak to this object.
import type { Application, HostStatus, NoteInput, PageRequest } from '../protocol.js';
import type { Db } from '../store/database.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/history-reads.js';
import { readHeads } from '../store/sequences.js';
import type { WriterClient } from '../workers/writer-client.js';

export interface HostIdentity {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  mode: 'host' | 'local';
}

export class HostApplication implements Application {
  constructor(
    private readonly writer: WriterClient,
    private readonly reader: Db,
    private readonly identity: HostIdentity,
  ) {}

  async status(): Promise<HostStatus> {
    return { ...this.identity, heads: readHeads(this.reader) };
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

  async message(messageId: string) {
    return readMessage(this.reader, messageId);
  }

  async operation(operationId: string) {
    return readOperation(this.reader, operationId);
  }
}
