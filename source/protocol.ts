// The application's public language: the DTOs that the host API, the CLI and the screens share.
// Pure types and tiny pure helpers; no store, no I/O.

export type Stream = 'journal' | 'timeline';

export interface Receipt {
  storeId: string;
  operationId: string;
  /** Always the journal position of the operation's intent. */
  sequence: number;
  /** True when this answer is the original receipt of an earlier identical request. */
  replayed: boolean;
}

export interface JournalRow {
  sequence: number;
  eventId: string;
  kind: string;
  agentId: string | null;
  generationId: string | null;
  operationId: string | null;
  wireStream: 'stdout' | 'stderr' | null;
  wireOrdinal: number | null;
  payload: unknown;
  canonicalMessageId: string | null;
  recordedAt: string;
}

export interface TimelineRow {
  sequence: number;
  messageId: string;
  agentId: string | null;
  generationId: string | null;
  operationId: string | null;
  role: string;
  payload: unknown;
  sourceJournalSequence: number;
  recordedAt: string;
}

export interface PageRequest {
  after: number;
  limit: number;
  agentId?: string | undefined;
  /** The store the caller's cursor belongs to; a different store is a 409. */
  storeId?: string | undefined;
}

export interface Page<Row> {
  storeId: string;
  stream: Stream;
  agentId: string | null;
  rows: Row[];
  /** The last included row's sequence, or the request's `after` on an empty page. */
  nextAfter: number;
  /** The stream's head when the page was read. A short page is not the end: read until an empty page. */
  head: number;
}

export interface HistoryCursor {
  storeId: string;
  stream: Stream;
  after: number;
  agentId: string | null;
}

export interface HostStatus {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  /** host: a running host; local: this command holds the lease alone; read-only: no lease, reads only. */
  mode: 'host' | 'local' | 'read-only';
  heads: { journal: number; timeline: number };
}

export interface MessageView {
  message: TimelineRow;
  source: JournalRow;
  observations: JournalRow[];
  operation: OperationView | null;
}

export interface OperationView {
  operationId: string;
  kind: string;
  agentId: string | null;
  state: string;
  outcome: string | null;
  journalSequence: number;
  userMessageId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NoteInput {
  text: string;
  operationId?: string | undefined;
}

/** What a screen or a CLI command may ask of common-memory. Implemented in-process by the host and over HTTP by the client. */
export interface Application {
  status(): Promise<HostStatus>;
  appendNote(input: NoteInput): Promise<Receipt>;
  journal(request: PageRequest): Promise<Page<JournalRow>>;
  timeline(request: PageRequest): Promise<Page<TimelineRow>>;
  message(messageId: string): Promise<MessageView>;
  operation(operationId: string): Promise<OperationView>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Operation IDs are caller-chosen identities: safe characters only, bounded. */
export const OPERATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
