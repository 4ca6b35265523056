// IDs people can type: a unique prefix of an operation or message ID stands for the whole ID, as
// in git. An exact ID always wins; an ambiguous prefix is refused with the candidates it matches.
import { CmError } from '../errors.js';
import { ID_PREFIX_MIN } from '../limits.js';
import { type Db, prepared } from './database.js';

const SHOWN = 5;

/** What every "not found" of a lookup that takes a start of an ID says about typing one. */
export const ID_PREFIX_HINT = `give the whole ID or a unique start of it (${ID_PREFIX_MIN} characters or more)`;

/** Whether any ID of the column starts with `text` (an exact match included); false below the minimum. */
export function hasIdPrefix(db: Db, table: IdTable, column: IdColumn, text: string): boolean {
  if (text.length < ID_PREFIX_MIN) return false;
  return (
    prepared(db, `SELECT 1 FROM ${table} WHERE ${column} >= ? AND ${column} < ? LIMIT 1`).get(text, `${text}\uffff`) !==
    undefined
  );
}

type IdTable =
  | 'operations'
  | 'timeline'
  | 'capture_activations'
  | 'candidates'
  | 'promotion_journal'
  | 'consolidation_patches';
type IdColumn = 'operation_id' | 'message_id' | 'session_key' | 'candidate_id' | 'plan_id' | 'task_id';

/** The full ID `text` names, or `text` itself when nothing matches (the caller reports "not found"). */
export function resolveIdPrefix(db: Db, table: IdTable, column: IdColumn, text: string, what: string): string {
  if (text.length < ID_PREFIX_MIN) return text;
  // A range over the key's index: every ID that starts with `text`, exact match included.
  const matches = prepared(
    db,
    `SELECT ${column} FROM ${table} WHERE ${column} >= ? AND ${column} < ? ORDER BY ${column} LIMIT ${SHOWN + 1}`,
  )
    .pluck()
    .all(text, `${text}\uffff`) as string[];
  if (matches.includes(text) || matches.length === 0) return text;
  if (matches.length === 1) return matches[0]!;
  const listed = matches.slice(0, SHOWN).join(', ');
  throw new CmError(
    'invalid_input',
    `"${text}" is the start of more than one ${what} ID (${listed}${matches.length > SHOWN ? ', …' : ''}); type more of it.`,
  );
}
