// The writer thread: owns the one read-write connection to core.sqlite. Every mutation arrives as a
// named command, is validated against its schema, and runs as one synchronous BEGIN IMMEDIATE
// transaction; nothing here awaits.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { asCmError, CmError } from '../errors.js';
import { coreSchema } from '../store/core-schema.js';
import { databaseError, openDatabase } from '../store/database.js';
import { migrate } from '../store/migrations.js';
import { readStoreId } from '../store/sequences.js';
import { commit } from '../store/transaction.js';
import { faultPointFromEnv } from './faults.js';
import type { AnyCommand, WriterContext } from '../store/command.js';
import { writerCommands } from './writer-commands.js';
import type { Reply } from './reply-channel.js';

export type WriterRequest = { id: number; name: string; input: unknown };
export type WriterReady = { type: 'ready'; storeId: string } | { type: 'failed'; error: { code: string; message: string } };

const port = parentPort!;
const { corePath } = workerData as { corePath: string };
const fault = faultPointFromEnv();
const registry: Record<string, AnyCommand | undefined> = writerCommands;

function errorOf(error: unknown): { code: string; message: string } {
  const sqliteCode = (error as { code?: unknown }).code;
  const cm = typeof sqliteCode === 'string' && sqliteCode.startsWith('SQLITE') ? databaseError(corePath, error) : asCmError(error);
  return cm.toJSON();
}

try {
  const db = openDatabase(corePath);
  migrate(db, coreSchema);
  const context: WriterContext = { storeId: readStoreId(db) };
  // Other threads (the agents runtime) get their own port to the writer; the writer serves them all, one command at a time.
  const serve = (channel: MessagePort | typeof port) =>
    channel.on('message', (request: WriterRequest | { attach: MessagePort }) => {
      if ('attach' in request) return serve(request.attach);
      channel.postMessage(handle(request));
    });
  const handle = (request: WriterRequest): Reply => {
    let reply: Reply;
    try {
      const definition = registry[request.name];
      if (!definition) throw new CmError('internal', `Unknown writer command ${request.name}.`);
      const parsed = definition.schema.safeParse(request.input);
      if (!parsed.success) throw new CmError('invalid_input', `Invalid ${request.name}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
      const result = commit(db, request.name, (tx) => definition.run(tx, context, parsed.data), fault);
      reply = { id: request.id, ok: true, result };
    } catch (error) {
      reply = { id: request.id, ok: false, error: errorOf(error) };
    }
    return reply;
  };
  serve(port);
  port.on('close', () => db.close());
  port.postMessage({ type: 'ready', storeId: context.storeId } satisfies WriterReady);
} catch (error) {
  port.postMessage({ type: 'failed', error: errorOf(error) } satisfies WriterReady);
}
