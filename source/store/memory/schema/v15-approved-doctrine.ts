// v15: the doctrine of each owner's projection (issue 28: doctrine given back). A doctrine file
// (`doctrine/<name>.md`, memory/consolidation/scene-format.ts) is read and linted with the entry
// files by the scan that syncs an owner, and kept here, so that `get doctrine:<name>`, search and
// the SessionStart snapshot read one short row and never parse a file. `cites_json` holds the ids
// the file cites, in its order; `basis_json` what each of them was (its content digest, or null
// when it was not an approved entry) when this text of the doctrine (`content_digest`) was first
// stored: a cited entry changed or gone since, and the doctrine is not given as true.
//
// The projections stored before this version never kept doctrine: their scan and source digest
// are dropped (and the hook's directory stamps), so the next reading of each root reads every file
// again and stores its doctrine; entries whose bytes are unchanged keep their revision.
import type { Db } from '../../database.js';

export function migrateToApprovedDoctrine(db: Db): void {
  db.exec(`
        CREATE TABLE approved_doctrine (
          repository_key TEXT NOT NULL,
          worktree_key TEXT NOT NULL,
          name TEXT NOT NULL,
          scope TEXT NOT NULL CHECK (scope IN ('project', 'user')),
          title TEXT NOT NULL,
          principle TEXT NOT NULL,
          cites_json TEXT NOT NULL,
          basis_json TEXT NOT NULL,
          path TEXT NOT NULL,
          content_digest TEXT NOT NULL,
          PRIMARY KEY (repository_key, worktree_key, name)
        ) STRICT, WITHOUT ROWID;
        UPDATE approved_projection SET scan_json = NULL, source_tree_digest = '';
        DELETE FROM memory_state_meta WHERE key LIKE 'approved_directories:%';
      `);
}
