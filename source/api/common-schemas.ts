// The zod side of common.ts: the schemas of a receipt and of a page, for the areas' response
// schemas. common.ts keeps its types without zod because the hook loads it; the checks below make
// the compiler refuse a schema that drifts from them.
import { z } from 'zod';
import { type ErrorCode, isErrorCode } from '../errors.js';
import { CAPTURE_CLIENTS, type Page, type Receipt } from './common.js';

/** Compiles only when A and B are the same type. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Names a check that must hold: `Agrees<Same<A, B>>` fails to compile when A and B differ. */
export type Agrees<Check extends true> = Check;

export const receiptSchema = z.strictObject({
  storeId: z.string(),
  operationId: z.string(),
  sequence: z.number(),
  replayed: z.boolean(),
});
export type ReceiptAgrees = Agrees<Same<z.infer<typeof receiptSchema>, Receipt>>;

/** A page of a stream whose rows each answer to `row`. */
export const pageSchema = <Row extends z.ZodType>(row: Row) =>
  z.strictObject({
    storeId: z.string(),
    stream: z.enum(['journal', 'timeline']),
    agentId: z.string().nullable(),
    rows: z.array(row),
    nextAfter: z.number(),
    head: z.number(),
  });
export type PageAgrees = Agrees<Same<z.infer<ReturnType<typeof pageSchema<z.ZodNumber>>>, Page<number>>>;

/** An error as an answer carries it (a failed run, a failed probe). */
export const errorSchema = z.strictObject({ code: z.custom<ErrorCode>(isErrorCode), message: z.string() });

export const captureClientSchema = z.enum(CAPTURE_CLIENTS);

/** Text or null: most optional facts of a row. */
export const nullableText = z.string().nullable();
export const projectOrUser = z.enum(['project', 'user']);
