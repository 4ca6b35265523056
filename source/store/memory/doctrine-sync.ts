// Storing the doctrine files a scan read (state-schema v15), in the sync's transaction, and giving
// them back to the next scan that does not lint (the SessionStart hook). Each doctrine keeps its
// basis: what each entry it cites was (content digest, or null when not an approved entry) when
// this text of the doctrine was first stored — kept while the doctrine's bytes stay the same, made
// anew when they change. A cited entry that changed or went since is the doctrine's basis changed.
import { prepared } from '../database.js';
import type { Tx } from '../transaction.js';
import type { ScannedDoctrine } from '../../effects/approved-scan.js';

/** Makes the owner's doctrine rows the scan's doctrine, each with its basis (kept for unchanged text). */
export function replaceDoctrine(
  tx: Tx<'memory'>,
  owner: { scope: 'project' | 'user'; repositoryKey: string; worktreeKey: string },
  doctrine: ReadonlyArray<ScannedDoctrine>,
  /** The owner's approved entries as this sync stores them. */
  entries: ReadonlyArray<{ id: string; contentDigest: string }>,
): void {
  const kept = new Map(
    (
      prepared(
        tx.db,
        'SELECT name, content_digest, basis_json FROM approved_doctrine WHERE repository_key = ? AND worktree_key = ?',
      ).all(owner.repositoryKey, owner.worktreeKey) as Array<{
        name: string;
        content_digest: string;
        basis_json: string;
      }>
    ).map((row) => [row.name, row]),
  );
  prepared(tx.db, 'DELETE FROM approved_doctrine WHERE repository_key = ? AND worktree_key = ?').run(
    owner.repositoryKey,
    owner.worktreeKey,
  );
  if (doctrine.length === 0) return;
  const digests = new Map(entries.map((entry) => [entry.id, entry.contentDigest]));
  const insert = prepared(
    tx.db,
    `INSERT INTO approved_doctrine (repository_key, worktree_key, name, scope, title, principle, cites_json, basis_json, path, content_digest)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const item of doctrine) {
    const before = kept.get(item.name);
    const basis =
      before && before.content_digest === item.contentDigest
        ? before.basis_json
        : JSON.stringify(Object.fromEntries(item.cites.map((id) => [id, digests.get(id) ?? null])));
    insert.run(
      owner.repositoryKey,
      owner.worktreeKey,
      item.name,
      owner.scope,
      item.title,
      item.principle,
      JSON.stringify(item.cites),
      basis,
      item.path,
      item.contentDigest,
    );
  }
}
