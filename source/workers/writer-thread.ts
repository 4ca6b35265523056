// The writer thread: owns the one read-write connection to core.sqlite. Every mutation arrives as a
// typed command and runs as one synchronous BEGIN IMMEDIATE transaction; nothing here awaits.
import { parentPort, workerData } from 'node:worker_threads';
import { asCmError, CmError } from '../errors.js';
import { coreSchema } from '../store/core-schema.js';
import { databaseError, openDatabase, type Db } from '../store/database.js';
import { recordHostStarted, recordHostStopped } from '../store/host-activations.js';
import { migrate } from '../store/migrations.js';
import { appendNote } from '../store/notes.js';
import { readStoreId } from '../store/sequences.js';
import { commit } from '../store/transaction.js';
import { faultPointFromEnv } from './faults.js';
import { writerCommand, type WriterCommand, type WriterReply, type WriterRequest } from './writer-protocol.js';

const port = parentPort!;
const { corePath } = workerData as { corePath: string };
const fault = faultPointFromEnv();

function execute(db: Db, storeId: string, command: WriterCommand): unknown {
  switch (command.type) {
    case 'appendNote':
      return commit(db, 'appendNote', (tx) => appendNote(tx, storeId, command), fault);
    case 'hostStarted':
      return { sequence: commit(db, 'hostStarted', (tx) => recordHostStarted(tx, command), fault) };
    case 'hostStopped':
      return { sequence: commit(db, 'hostStopped', (tx) => recordHostStopped(tx, command.hostId), fault) };
  }
}

function errorOf(error: unknown): { code: string; message: string } {
  const sqliteCode = (error as { code?: unknown }).code;
  const cm = typeof sqliteCode === 'string' && sqliteCode.startsWith('SQLITE') ? databaseError(corePath, error) : asCmError(error);
  return cm.toJSON();
}

try {
  const db = openDatabase(corePath);
  migrate(db, coreSchema);
  const storeId = readStoreId(db);
  port.on('message', (request: WriterRequest) => {
    let reply: WriterReply;
    try {
      const parsed = writerCommand.safeParse(request.command);
      if (!parsed.success) throw new CmError('invalid_input', `Invalid writer command: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      reply = { id: request.id, ok: true, result: execute(db, storeId, parsed.data) };
    } catch (error) {
      reply = { id: request.id, ok: false, error: errorOf(error) };
    }
    port.postMessage(reply);
  });
  port.on('close', () => db.close());
  port.postMessage({ type: 'ready', storeId });
} catch (error) {
  port.postMessage({ type: 'failed', error: errorOf(error) });
}
