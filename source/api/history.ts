// The history area: the host's status, notes, and reading the journal and the timeline.
import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT } from '../limits.js';
import type { CaptureStatus } from './capture.js';
import type { Page, PageRequest, Receipt } from './common.js';
import { body, optionalText, read, wholeNumber, write } from './route.js';

const noteBody = z.object({ text: z.string(), operationId: z.string().optional() }).strict();
export type NoteInput = z.infer<typeof noteBody>;

const page = {
  after: wholeNumber('after', 0, 'invalid_cursor'),
  limit: wholeNumber('limit', PAGE_LIMIT_DEFAULT, 'invalid_input'),
  agentId: optionalText('agent'),
  storeId: optionalText('store'),
};

export const historyApi = {
  status: read<void, HostStatus>('/v1/status'),
  appendNote: write<NoteInput, Receipt>('/v1/notes', {
    body: body(noteBody),
    created: (receipt) => !receipt.replayed,
  }),
  journal: read<PageRequest, Page<JournalRow>>('/v1/journal', page),
  timeline: read<PageRequest, Page<TimelineRow>>('/v1/timeline', page),
  message: read<{ messageId: string }, MessageView>('/v1/messages/:messageId'),
  operation: read<{ operationId: string }, OperationView>('/v1/operations/:operationId'),
};

export type HistoryRoutes = typeof historyApi;

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

export interface HostStatus {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  /** host: a running host; local: this command holds the lease alone; read-only: no lease, reads only. */
  mode: 'host' | 'local' | 'read-only';
  heads: { journal: number; timeline: number };
  /** The read ledger's health (counts only), as `status` shows it. */
  ledger: CaptureStatus['ledger'];
  /** Captured events the drain has not read yet, and sealed turns no automatic extraction has read: what a host, or flush, processes. */
  waiting: { events: number; turns: number };
  /** When the last hook event of each client arrived (ISO), or null: hooks installed after it that never ran may be untrusted. */
  lastEventAt: { codex: string | null; claude: string | null };
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
  generationId: string | null;
  state: string;
  outcome: string | null;
  targetOperationId: string | null;
  journalSequence: number;
  userMessageId: string | null;
  createdAt: string;
  updatedAt: string;
  /** On `operation` reads: what happened, in one line (pi's refusal, the provider's error, retries, an abort). */
  detail?: string | null;
  /** The same, with pi's or the provider's error text whole (its line breaks kept). */
  detailText?: string | null;
}
