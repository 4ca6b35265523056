// The writer itself, wherever it runs: the one read-write connection to core.sqlite and the one to
// memory-state.sqlite. Every mutation arrives as a named command, is validated against its schema,
// and runs as one synchronous BEGIN IMMEDIATE transaction on its database; nothing here awaits, so
// the two databases are never written at the same time. A memory-state that cannot be opened fails
// only the memory commands (each retries the open), never capture.
//
// A serving host runs it in the writer thread (writer-thread.ts), beside the API and the other
// threads; a command working alone runs it on its own thread (writer-inline.ts), where a thread
// would only be started and loaded to be waited on. Either way it is reached by messages on a port.
import type { MessagePort } from 'node:worker_threads';
import { asCmError, CmError } from '../errors.js';
import { coreSchema } from '../store/core/core-schema.js';
import { databaseError, openDatabase } from '../store/database.js';
import { WRITER_BUSY_TIMEOUT_MS, WRITER_WAL_AUTOCHECKPOINT_PAGES } from '../limits.js';
import { migrate } from '../store/migrations.js';
import { readStoreId } from '../store/core/sequences.js';
import { commit, commitOn } from '../store/transaction.js';
import { faultPointFromEnv } from '../ground/faults.js';
import type { AnyCommand, MemoryContext, WriterContext } from '../store/command.js';
import { memoryUnavailable, openMemoryState, type MemoryState } from '../store/memory/state-database.js';
import { writerCommands } from '../store/writer-commands.js';
import type { Reply } from './reply-channel.js';

export type WriterRequest = { id: number; name: string; input: unknown };

/** A port the writer answers on: the thread's parentPort, or one end of a MessageChannel. */
type Channel = Pick<MessagePort, 'on' | 'postMessage'>;

export interface WriterCore {
  readonly storeId: string;
  /** Answers every request arriving on `channel`, and serves the ports attached through it. */
  serve(channel: Channel): void;
  close(): void;
}

const registry: Record<string, AnyCommand | undefined> = writerCommands;

/** The error a reply carries: a SQLite failure worded for its database, anything else as it is. */
export function writerErrorOf(
  error: unknown,
  paths: { corePath: string; memoryStatePath: string },
  database: 'core' | 'memory' = 'core',
): { code: string; message: string } {
  const sqliteCode = (error as { code?: unknown }).code;
  if (typeof sqliteCode !== 'string' || !sqliteCode.startsWith('SQLITE')) return asCmError(error).toJSON();
  return (
    database === 'memory' ? memoryUnavailable(paths.memoryStatePath, error) : databaseError(paths.corePath, error)
  ).toJSON();
}

/** Opens and migrates core.sqlite (memory-state on first use); throws as openDatabase and migrate do. */
export function openWriterCore(paths: { corePath: string; memoryStatePath: string }): WriterCore {
  const fault = faultPointFromEnv();
  const db = openDatabase(paths.corePath, { busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS });
  try {
    migrate(db, coreSchema);
    db.pragma(`wal_autocheckpoint = ${WRITER_WAL_AUTOCHECKPOINT_PAGES}`);
  } catch (error) {
    db.close();
    throw error;
  }
  const context: WriterContext = { storeId: readStoreId(db) };
  let memory: MemoryState | undefined;
  /** The memory-state connection's setting (FULL as opened); replayable commands commit without an fsync. */
  let memorySynchronous: 'FULL' | 'NORMAL' = 'FULL';
  // Opened on first use: a host whose memory-state is damaged still starts and captures.
  const memoryContext = (): { state: MemoryState; context: MemoryContext } => {
    memory ??= openMemoryState(paths.memoryStatePath);
    return { state: memory, context: { ...context, memoryStateUuid: memory.memoryStateUuid, core: db } };
  };
  const handle = (request: WriterRequest): Reply => {
    const definition = registry[request.name];
    try {
      if (!definition) throw new CmError('internal', `Unknown writer command ${request.name}.`);
      const parsed = definition.schema.safeParse(request.input);
      if (!parsed.success)
        throw new CmError(
          'invalid_input',
          `Invalid ${request.name}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
        );
      let result: unknown;
      if (definition.database === 'memory') {
        const { state, context: memoryCtx } = memoryContext();
        const synchronous = definition.replayable ? 'NORMAL' : 'FULL';
        if (memorySynchronous !== synchronous) {
          state.db.pragma(`synchronous = ${synchronous}`);
          memorySynchronous = synchronous;
        }
        result = commitOn('memory', state.db, request.name, (tx) => definition.run(tx, memoryCtx, parsed.data), fault);
      } else {
        result = commit(db, request.name, (tx) => definition.run(tx, context, parsed.data), fault);
      }
      return { id: request.id, ok: true, result };
    } catch (error) {
      return { id: request.id, ok: false, error: writerErrorOf(error, paths, definition?.database) };
    }
  };
  let closed = false;
  // Other threads (the drain, runners, the agents runtime) get their own port to the writer; the
  // writer serves them all, one command at a time.
  const serve = (channel: Channel): void => {
    channel.on('message', (request: WriterRequest | { attach: MessagePort }) => {
      if ('attach' in request) return serve(request.attach);
      channel.postMessage(handle(request));
    });
  };
  return {
    storeId: context.storeId,
    serve,
    close() {
      if (closed) return;
      closed = true;
      memory?.db.close();
      db.close();
    },
  };
}
