// `note`: one client note into the journal. The operation ID is chosen here, before the first
// attempt, so that retrying after a lost reply returns the original receipt instead of a duplicate.
import { randomUUID } from 'node:crypto';
import { CmError } from '../../errors.js';
import type { Output } from '../output.js';
import { isBlank, readStdinText } from '../stdin.js';
import { writeWithRetry } from './retry.js';

export async function runNote(
  home: string,
  words: string[],
  operationId: string | undefined,
  out: Output,
): Promise<number> {
  const text = words.length === 1 && words[0] === '-' ? await readStdinText('note') : words.join(' ');
  if (isBlank(text))
    throw new CmError(
      'usage',
      'A note needs some text (whitespace alone is refused). usage: common-memory note <text> [--operation-id ID]   ("-" reads the text from stdin)',
    );
  const input = { text, operationId: operationId ?? randomUUID() };
  const receipt = await writeWithRetry(home, (app) => app.appendNote(input));
  out.result(
    receipt,
    () =>
      `${receipt.replayed ? 'already noted' : 'noted'}: journal #${receipt.sequence} (operation ${receipt.operationId}, store ${receipt.storeId})`,
  );
  return 0;
}
