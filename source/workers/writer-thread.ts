// The writer thread: owns the one read-write connection to core.sqlite and the one to
// memory-state.sqlite. Every mutation arrives as a named command, is validated against its schema,
// and runs as one synchronous BEGIN IMMEDIATE transaction on its database; nothing here awaits, so
// the two databases are never written at the same time. A memory-state that cannot be opened fails
// only the memory commands (each retries the open), never capture.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
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
export type WriterReady =
  | { type: 'ready'; storeId: string }
  | { type: 'failed'; error: { code: string; message: string } };

const port = parentPort!;
const { corePath, memoryStatePath } = workerData as { corePath: string; memoryStatePath: string };
const fault = faultPointFromEnv();
const registry: Record<string, AnyCommand | undefined> = writerCommands;

function errorOf(error: unknown, database: 'core' | 'memory' = 'core'): { code: string; message: string } {
  const sqliteCode = (error as { code?: unknown }).code;
  if (typeof sqliteCode !== 'string' || !sqliteCode.startsWith('SQLITE')) return asCmError(error).toJSON();
  return (database === 'memory' ? memoryUnavailable(memoryStatePath, error) : databaseError(corePath, error)).toJSON();
}

try {
  const db = openDatabase(corePath, { busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS });
  migrate(db, coreSchema);
  db.pragma(`wal_autocheckpoint = ${WRITER_WAL_AUTOCHECKPOINT_PAGES}`);
  const context: WriterContext = { storeId: readStoreId(db) };
  let memory: MemoryState | undefined;
  /** The memory-state connection's setting (FULL as opened); replayable commands commit without an fsync. */
  let memorySynchronous: 'FULL' | 'NORMAL' = 'FULL';
  // Opened on first use: a host whose memory-state is damaged still starts and captures.
  const memoryContext = (): { state: MemoryState; context: MemoryContext } => {
    memory ??= openMemoryState(memoryStatePath);
    return { state: memory, context: { ...context, memoryStateUuid: memory.memoryStateUuid, core: db } };
  };
  // Other threads (the agents runtime) get their own port to the writer; the writer serves them all, one command at a time.
  const serve = (channel: MessagePort | typeof port) =>
    channel.on('message', (request: WriterRequest | { attach: MessagePort }) => {
      if ('attach' in request) return serve(request.attach);
      channel.postMessage(handle(request));
    });
  const handle = (request: WriterRequest): Reply => {
    let reply: Reply;
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
      reply = { id: request.id, ok: true, result };
    } catch (error) {
      reply = {
        id: request.id,
        ok: false,
        error: errorOf(error, definition?.database === 'memory' ? 'memory' : 'core'),
      };
    }
    return reply;
  };
  serve(port);
  port.on('close', () => {
    memory?.db.close();
    db.close();
  });
  port.postMessage({ type: 'ready', storeId: context.storeId } satisfies WriterReady);
} catch (error) {
  port.postMessage({ type: 'failed', error: errorOf(error) } satisfies WriterReady);
}
