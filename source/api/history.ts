// The history area: the host's status, notes, and reading the journal and the timeline.
import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT } from '../limits.js';
import type {
  HostStatus,
  JournalRow,
  MessageView,
  NoteInput,
  OperationView,
  Page,
  PageRequest,
  Receipt,
  TimelineRow,
} from '../protocol.js';
import { optionalText, read, wholeNumber, write } from './route.js';

const page = {
  after: wholeNumber('after', 0, 'invalid_cursor'),
  limit: wholeNumber('limit', PAGE_LIMIT_DEFAULT, 'invalid_input'),
  agentId: optionalText('agent'),
  storeId: optionalText('store'),
};

export const historyApi = {
  status: read<void, HostStatus>('/v1/status'),
  appendNote: write<NoteInput, Receipt>('/v1/notes', {
    body: {
      schema: z.object({ text: z.string(), operationId: z.string().optional() }).strict(),
      shape: '{"text": string, "operationId"?: string}',
    },
    created: (receipt) => !receipt.replayed,
  }),
  journal: read<PageRequest, Page<JournalRow>>('/v1/journal', page),
  timeline: read<PageRequest, Page<TimelineRow>>('/v1/timeline', page),
  message: read<{ messageId: string }, MessageView>('/v1/messages/:messageId'),
  operation: read<{ operationId: string }, OperationView>('/v1/operations/:operationId'),
};
