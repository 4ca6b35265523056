// An approved entry's id as `get` and `memory retire` take it on the command line.
import { entryIdText } from '../../api/proposal.js';
import { CmError } from '../../errors.js';
import { MEMORY_ENTRY_ID_MAX_CHARS } from '../../limits.js';

/**
 * An entry id given on the command line, checked by the API's own declaration (entryIdText): the
 * store is read here without a host, past the API's schemas, so an id longer than any entry's
 * would otherwise be looked up and answered "not found" when it is a mistake in the input.
 */
export function checkEntryIdArgument(entryId: string, nothingDone: string): void {
  if (entryIdText.safeParse(entryId).success) return;
  throw new CmError(
    'usage',
    `An entry id has at most ${MEMORY_ENTRY_ID_MAX_CHARS} characters; this one has ${entryId.length}. memory search lists the ids.${nothingDone}`,
  );
}
