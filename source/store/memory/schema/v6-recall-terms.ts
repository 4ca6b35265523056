// v6: how many rows of each recall index hold each term, so that recall can query by a
// draft's rarest terms (recall-terms.ts); counted from the rows the indexes already hold.
import type { Db } from '../../database.js';
import { approvedSearchableText, countRecallTerms } from '../recall-terms.js';

export function migrateToRecallTerms(db: Db): void {
  db.exec(`
        CREATE TABLE recall_terms (
          term TEXT NOT NULL,
          source_kind TEXT NOT NULL CHECK (source_kind IN ('candidate', 'approved')),
          rows INTEGER NOT NULL CHECK (rows > 0),
          PRIMARY KEY (term, source_kind)
        ) STRICT, WITHOUT ROWID;
      `);
  const pooled = db
    .prepare(
      `SELECT json_extract(payload_json, '$.content') FROM candidates
           WHERE status = 'draft' AND adjudication = 'done' AND decision IN ('store', 'update', 'merge')`,
    )
    .pluck()
    .all() as string[];
  for (const text of pooled) countRecallTerms(db, 'candidate', text);
  const approved = db.prepare('SELECT frontmatter_json AS frontmatter, body_text AS body FROM approved_entries');
  for (const row of approved.all() as Array<{ frontmatter: string; body: string }>) {
    const { title, appliesWhen } = JSON.parse(row.frontmatter) as { title?: string; appliesWhen?: string | null };
    const text = approvedSearchableText({ title: title ?? '', appliesWhen: appliesWhen ?? null, body: row.body });
    countRecallTerms(db, 'approved', text);
  }
}
