// v8: the dedup pool's candidates by owner and content digest, so that a draft repeating one word
// for word is found by an index probe before adjudication recalls it (exact-repeat.ts).
import type { Db } from '../../database.js';

export function migrateToPooledByContent(db: Db): void {
  db.exec(`
        CREATE INDEX candidates_pooled_by_content ON candidates (repository_key, worktree_key, content_digest)
          WHERE status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge');
      `);
}
