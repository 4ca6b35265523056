// The history area: the host's status, notes, and reading the journal and the timeline.
import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT } from '../limits.js';
import { captureStatusSchema } from './capture.js';
import type { Page, PageRequest, Receipt } from './common.js';
import { nullableText, pageSchema, receiptSchema } from './common-schemas.js';
import { body, optionalText, read, wholeNumber, write } from './route.js';

const noteBody = z.strictObject({ text: z.string(), operationId: z.string().optional() });
export type NoteInput = z.infer<typeof noteBody>;

const page = {
  after: wholeNumber('after', 0, 'invalid_cursor'),
  limit: wholeNumber('limit', PAGE_LIMIT_DEFAULT, 'invalid_input'),
  agentId: optionalText('agent'),
  storeId: optionalText('store'),
};

export const journalRowSchema = z.strictObject({
  sequence: z.number(),
  eventId: z.string(),
  kind: z.string(),
  agentId: nullableText,
  generationId: nullableText,
  operationId: nullableText,
  wireStream: z.enum(['stdout', 'stderr']).nullable(),
  wireOrdinal: z.number().nullable(),
  payload: z.unknown(),
  canonicalMessageId: nullableText,
  recordedAt: z.string(),
});
export type JournalRow = z.infer<typeof journalRowSchema>;

export const timelineRowSchema = z.strictObject({
  sequence: z.number(),
  messageId: z.string(),
  agentId: nullableText,
  generationId: nullableText,
  operationId: nullableText,
  role: z.string(),
  payload: z.unknown(),
  sourceJournalSequence: z.number(),
  recordedAt: z.string(),
});
export type TimelineRow = z.infer<typeof timelineRowSchema>;

export const hostStatusSchema = z.strictObject({
  storeId: z.string(),
  hostId: z.string(),
  pid: z.number(),
  startedAt: z.string(),
  /** host: a running host; local: this command holds the lease alone; read-only: no lease, reads only. */
  mode: z.enum(['host', 'local', 'read-only']),
  heads: z.strictObject({ journal: z.number(), timeline: z.number() }),
  /** The read ledger's health (counts only), as `status` shows it. */
  ledger: captureStatusSchema.shape.ledger,
  /** Captured events the drain has not read yet, and sealed turns no automatic extraction has read: what a host, or flush, processes. */
  waiting: z.strictObject({ events: z.number(), turns: z.number() }),
  /** When the last hook event of each client arrived (ISO), or null: hooks installed after it that never ran may be untrusted. */
  lastEventAt: z.strictObject({ codex: nullableText, claude: nullableText }),
});
export type HostStatus = z.infer<typeof hostStatusSchema>;

export const operationViewSchema = z.strictObject({
  operationId: z.string(),
  kind: z.string(),
  agentId: nullableText,
  generationId: nullableText,
  state: z.string(),
  outcome: nullableText,
  targetOperationId: nullableText,
  journalSequence: z.number(),
  userMessageId: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** On `operation` reads: what happened, in one line (pi's refusal, the provider's error, retries, an abort). */
  detail: nullableText.optional(),
  /** The same, with pi's or the provider's error text whole (its line breaks kept). */
  detailText: nullableText.optional(),
});
export type OperationView = z.infer<typeof operationViewSchema>;

export const messageViewSchema = z.strictObject({
  message: timelineRowSchema,
  source: journalRowSchema,
  observations: z.array(journalRowSchema),
  operation: operationViewSchema.nullable(),
});
export type MessageView = z.infer<typeof messageViewSchema>;

export const historyApi = {
  status: read('/v1/status', hostStatusSchema),
  appendNote: write<NoteInput, Receipt>('/v1/notes', receiptSchema, {
    body: body(noteBody),
    created: (receipt) => !receipt.replayed,
  }),
  journal: read<PageRequest, JournalPage>('/v1/journal', pageSchema(journalRowSchema), page),
  timeline: read<PageRequest, TimelinePage>('/v1/timeline', pageSchema(timelineRowSchema), page),
  message: read<{ messageId: string }, MessageView>('/v1/messages/:messageId', messageViewSchema),
  operation: read<{ operationId: string }, OperationView>('/v1/operations/:operationId', operationViewSchema),
};

export type HistoryRoutes = typeof historyApi;

type JournalPage = Page<JournalRow>;
type TimelinePage = Page<TimelineRow>;
