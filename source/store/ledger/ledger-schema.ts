// ledger.sqlite: what each root conversation's agent read (candidate metadata, never bodies),
// bound to the client, a digest of the root's session id, and the generation that held when it
// was read. Its own file and its own migrations: resetting it never touches capture or memory.
// Each step is its own file in schema/ (one per version, never edited once released).
import type { Schema } from '../migrations.js';
import { migrateToReads } from './schema/v1-reads.js';

export const ledgerSchema: Schema = {
  name: 'ledger.sqlite',
  steps: [migrateToReads],
};
