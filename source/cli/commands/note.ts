// `note`: one client note into the journal. The operation ID is chosen here, before the first
// attempt, so that retrying after a lost reply returns the original receipt instead of a duplicate.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import type { Receipt } from '../../protocol.js';
import type { Output } from '../output.js';

const ATTEMPTS = 3;

export async function runNote(home: string, words: string[], operationId: string | undefined, out: Output): Promise<number> {
  const text = words.length === 1 && words[0] === '-' ? readFileSync(0, 'utf8') : words.join(' ');
  if (text.length === 0) throw new CmError('usage', 'usage: common-memory note <text> [--operation-id ID]   (use "-" to read the text from stdin)');
  const input = { text, operationId: operationId ?? randomUUID() };
  let receipt: Receipt | undefined;
  for (let attempt = 1; !receipt; attempt++) {
    const connection = await connect(home, 'write');
    try {
      receipt = await connection.app.appendNote(input);
    } catch (error) {
      // Only a lost connection is retried, and always with the same operation ID.
      if (!(error instanceof CmError && error.code === 'host_unreachable') || attempt >= ATTEMPTS) throw error;
      await sleep(200 * attempt);
    } finally {
      await connection.close();
    }
  }
  const done = receipt;
  out.result(done, () => `${done.replayed ? 'already noted' : 'noted'}: journal #${done.sequence} (operation ${done.operationId}, store ${done.storeId})`);
  return 0;
}
