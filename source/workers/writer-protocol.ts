// The writer's typed commands. Validated with zod at the thread boundary; each is run as one
// synchronous transaction by the writer, the only writer of core.sqlite.
import { z } from 'zod';
import type { Receipt } from '../protocol.js';

export const writerCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('appendNote'), text: z.string(), operationId: z.string().optional() }),
  z.object({
    type: z.literal('hostStarted'),
    hostId: z.string().uuid(),
    pid: z.number().int().positive(),
    processStartedAt: z.string().nullable(),
    role: z.enum(['host', 'local']),
  }),
  z.object({ type: z.literal('hostStopped'), hostId: z.string().uuid() }),
]);

export type WriterCommand = z.infer<typeof writerCommand>;

export interface WriterResults {
  appendNote: Receipt;
  hostStarted: { sequence: number };
  hostStopped: { sequence: number };
}

export type WriterRequest = { id: number; command: WriterCommand };
export type WriterReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { code: string; message: string } };
export type WriterReady = { type: 'ready'; storeId: string } | { type: 'failed'; error: { code: string; message: string } };
