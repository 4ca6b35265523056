// The shape of a writer command: a zod schema for its input (checked at the thread boundary) and a
// synchronous body that runs inside one transaction. Aggregates define theirs with `command`
// (core.sqlite) or `memoryCommand` (memory-state.sqlite, served by the same writer thread).
import type { z } from 'zod';
import type { Db } from './database.js';
import type { DatabaseFile, Tx } from './transaction.js';

export interface WriterContext {
  storeId: string;
}

/** A memory command's transaction is on memory-state; `core` reads what capture committed. */
export interface MemoryContext extends WriterContext {
  memoryStateUuid: string;
  core: Db;
}

export interface CommandDefinition<Schema extends z.ZodType, Result> {
  schema: Schema;
  run(tx: Tx, context: WriterContext, input: z.infer<Schema>): Result;
}

export interface MemoryCommandDefinition<Schema extends z.ZodType, Result> {
  database: 'memory';
  /**
   * Work the next extraction run redoes if it is lost: committed without an fsync (SQLite's WAL
   * with synchronous NORMAL). A crash of the process loses none of it; a power failure may lose
   * the last of these commits, never a later fsynced one (the WAL is a prefix), so memory-state
   * rolls back to an earlier consistent state and the next run plans, claims and submits again.
   * An fsync costs more than the rest of such a commit.
   */
  replayable?: true;
  schema: Schema;
  run(tx: Tx<'memory'>, context: MemoryContext, input: z.infer<Schema>): Result;
}

/** The registry's runtime view: the writer validates the input against the schema before `run`. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds commands of every input and context type; each is checked by its own schema.
export type AnyCommand = {
  database?: 'memory';
  replayable?: true;
  schema: z.ZodType;
  run(tx: Tx<DatabaseFile>, context: any, input: any): unknown;
};

/** Keeps each definition's input and result types (a plain object literal would widen them). */
export const command = <Schema extends z.ZodType, Result>(definition: CommandDefinition<Schema, Result>) => definition;

export const memoryCommand = <Schema extends z.ZodType, Result>(
  definition: Omit<MemoryCommandDefinition<Schema, Result>, 'database'>,
): MemoryCommandDefinition<Schema, Result> => ({
  database: 'memory',
  ...definition,
});
