// The shape of a writer command: a zod schema for its input (checked at the thread boundary) and a
// synchronous body that runs inside one transaction. Aggregates define theirs with `command`.
import type { z } from 'zod';
import type { Tx } from './transaction.js';

export interface WriterContext {
  storeId: string;
}

export interface CommandDefinition<Schema extends z.ZodType, Result> {
  schema: Schema;
  run(tx: Tx, context: WriterContext, input: z.infer<Schema>): Result;
}

/** The registry's runtime view: the writer validates the input against the schema before `run`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = { schema: z.ZodType; run(tx: Tx, context: WriterContext, input: any): unknown };

/** Keeps each definition's input and result types (a plain object literal would widen them). */
export const command = <Schema extends z.ZodType, Result>(definition: CommandDefinition<Schema, Result>) => definition;
