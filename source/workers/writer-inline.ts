// The writer of a command working alone (a write with no host running: `note`, `memory prepare`,
// `session-drain`…): the same writer as a serving host's (writer-core.ts), run on the command's own
// thread and reached through a MessageChannel, so callers and the other threads' ports see the same
// asynchronous replies as from the writer thread. The command has nothing else to do while its
// transaction runs; a thread of its own cost every such process about 70 ms of CPU to start and as
// much again to load the writer's modules a second time (zod, every command's schema, the lint).
import { dirname } from 'node:path';
import { storeFiles } from '../home.js';
import { errorFromReply, servedHere } from './reply-channel.js';
import { WriterClient } from './writer-client.js';
import { openWriterCore, writerErrorOf } from './writer-core.js';

export async function startInlineWriter(corePath: string): Promise<WriterClient> {
  const paths = { corePath, memoryStatePath: storeFiles(dirname(corePath)).memoryState };
  let writer: ReturnType<typeof openWriterCore>;
  try {
    writer = openWriterCore(paths);
  } catch (error) {
    // Worded as the writer thread words a failed start.
    throw errorFromReply(writerErrorOf(error, paths));
  }
  const here = servedHere((far) => writer.serve(far));
  return WriterClient.overPort(here.port, writer.storeId, () => {
    here.close();
    writer.close();
  });
}
