// How long an approved entry's id in a request may be, without zod: the API's schema (proposal.ts
// entryIdText) is built from these bounds, and the command line checks an id against them before
// reading the store, in processes (`get`) that never evaluate zod.
import { MEMORY_ENTRY_ID_MAX_CHARS } from '../limits.js';

/** At least one character, at most as many as an entry id may have (entry-format.ts checkEntryId). */
export const ENTRY_ID_CHARS = { min: 1, max: MEMORY_ENTRY_ID_MAX_CHARS } as const;

/** Whether `id` is within the bounds entryIdText declares. */
export const entryIdFits = (id: string): boolean => id.length >= ENTRY_ID_CHARS.min && id.length <= ENTRY_ID_CHARS.max;
