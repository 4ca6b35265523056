// An approved entry's id as `get` and `memory retire` take it on the command line.
import { ENTRY_ID_CHARS, entryIdFits } from '../../api/entry-id-bounds.js';
import { CmError } from '../../errors.js';

/**
 * An entry id given on the command line, checked against the bounds the API's entryIdText is built
 * from (zod stays unloaded in `get`): the store is read here without a host, past the API's
 * schemas, so an id longer than any entry's would otherwise be looked up and answered "not found"
 * when it is a mistake in the input.
 */
export function checkEntryIdArgument(entryId: string, nothingDone: string): void {
  if (entryIdFits(entryId)) return;
  throw new CmError(
    'usage',
    `An entry id has at most ${ENTRY_ID_CHARS.max} characters; this one has ${entryId.length}. memory search lists the ids.${nothingDone}`,
  );
}
