// Reads of the doctrine the projection holds (state-schema v15), for `get doctrine:<name>`, MCP
// `memory_get`, search and the SessionStart snapshot: read-only, no zod, no file. A doctrine is a
// principle citing the entries that instantiate it; it is given as true only while its basis holds
// — every entry it cites is the approved entry it was when this text of the doctrine was first
// stored, and none of them is stale. Otherwise `get` gives it with the changes named first, search
// marks it stale, and the snapshot leaves it out.
import { prepared, type Db } from '../database.js';
import type { MemoryScope } from '../../effects/approved-scan.js';
import { doctrineIdOf, type SnapshotDoctrine } from '../../memory/snapshot.js';
import type { ApprovedOwner } from './approved-sync.js';
import { readVerdicts, verdictFor } from './verdict-read.js';
import { matchScore, queryTerms } from './match-words.js';

/** The doctrine id's prefix: `doctrine:<name>`. */
export const DOCTRINE_ID_PREFIX = 'doctrine:';

interface DoctrineRow {
  repository_key: string;
  worktree_key: string;
  name: string;
  scope: MemoryScope;
  title: string;
  principle: string;
  cites_json: string;
  basis_json: string;
  path: string;
  content_digest: string;
}

export interface DoctrineView {
  id: string;
  name: string;
  scope: MemoryScope;
  title: string;
  principle: string;
  path: string;
  contentDigest: string;
  /** The entries it cites, in its order; `title` null for one that is not an approved entry now. */
  cites: Array<{ entryId: string; title: string | null }>;
  /** Why it is not given as true (empty: its basis holds). */
  basisChanged: string[];
}

type OwnerKeys = Pick<ApprovedOwner, 'repositoryKey' | 'worktreeKey'>;

/** What changed under a doctrine since its text was stored: each cited entry gone, edited or stale. */
function basisChanges(db: Db, row: DoctrineRow): { changes: string[]; titles: Map<string, string> } {
  const cites = JSON.parse(row.cites_json) as string[];
  const basis = JSON.parse(row.basis_json) as Record<string, string | null>;
  const owner: OwnerKeys = { repositoryKey: row.repository_key, worktreeKey: row.worktree_key };
  const entry = prepared(
    db,
    `SELECT content_digest, json_extract(frontmatter_json, '$.title') AS title FROM approved_entries
      WHERE entry_id = ? AND repository_key = ? AND worktree_key = ? AND status = 'approved'`,
  );
  const verdicts = readVerdicts(db, [owner], { entryIds: cites });
  const changes: string[] = [];
  const titles = new Map<string, string>();
  for (const id of cites) {
    const now = entry.get(id, owner.repositoryKey, owner.worktreeKey) as
      | { content_digest: string; title: unknown }
      | undefined;
    if (!now) {
      changes.push(`${id} is no longer an approved note`);
      continue;
    }
    titles.set(id, typeof now.title === 'string' ? now.title : id);
    if (basis[id] !== now.content_digest) {
      changes.push(
        basis[id] == null
          ? `${id} was not an approved note when this doctrine was written`
          : `${id} changed since this doctrine was written`,
      );
      continue;
    }
    const verdict = verdictFor(verdicts, id, now.content_digest);
    if (verdict?.verdict === 'stale' && verdict.failed.length > 0)
      changes.push(`${id} may be stale: ${verdict.failed[0]!.reason}`);
  }
  return { changes, titles };
}

function view(db: Db, row: DoctrineRow): DoctrineView {
  const { changes, titles } = basisChanges(db, row);
  return {
    id: doctrineIdOf(row.name),
    name: row.name,
    scope: row.scope,
    title: row.title,
    principle: row.principle,
    path: row.path,
    contentDigest: row.content_digest,
    cites: (JSON.parse(row.cites_json) as string[]).map((entryId) => ({ entryId, title: titles.get(entryId) ?? null })),
    basisChanged: changes,
  };
}

const ownerRows = (db: Db, owner: OwnerKeys): DoctrineRow[] =>
  prepared(db, 'SELECT * FROM approved_doctrine WHERE repository_key = ? AND worktree_key = ? ORDER BY name').all(
    owner.repositoryKey,
    owner.worktreeKey,
  ) as DoctrineRow[];

/** Whether memory-state has doctrine at all (a store before v15 has no table: none). */
const hasDoctrine = (db: Db): boolean =>
  prepared(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'approved_doctrine'").get() !== undefined;

/** A doctrine by its id across the owners, the repository's first; undefined when none holds it. */
export function readDoctrine(db: Db, owners: readonly OwnerKeys[], doctrineId: string): DoctrineView | undefined {
  if (!doctrineId.startsWith(DOCTRINE_ID_PREFIX) || !hasDoctrine(db)) return undefined;
  const name = doctrineId.slice(DOCTRINE_ID_PREFIX.length);
  const read = prepared(
    db,
    'SELECT * FROM approved_doctrine WHERE repository_key = ? AND worktree_key = ? AND name = ?',
  );
  for (const owner of owners) {
    const row = read.get(owner.repositoryKey, owner.worktreeKey, name) as DoctrineRow | undefined;
    if (row) return view(db, row);
  }
  return undefined;
}

/** A doctrine as `get` prints it and `memory_get` gives it: a changed basis first, the principle, the notes it cites. */
export function doctrineBody(doctrine: DoctrineView): string {
  const lines: string[] = [];
  if (doctrine.basisChanged.length > 0)
    lines.push(
      `(Not given as true: the notes it rests on changed since it was written — ${doctrine.basisChanged.join('; ')}. Read those notes; common-memory memory consolidate --runner can propose it anew.)`,
      '',
    );
  lines.push(doctrine.principle.replace(/\s+$/, ''), '', `Notes it cites (${doctrine.cites.length}):`);
  for (const cite of doctrine.cites) lines.push(`- ${cite.entryId}: ${cite.title ?? '(not an approved note now)'}`);
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}

export interface DoctrineHit {
  doctrineId: string;
  title: string;
  scope: MemoryScope;
  path: string;
  cites: number;
  /** The first change under it when its basis no longer holds (search marks it stale). */
  basisChanged: string | null;
}

/** The owners' doctrine matching `query` as scenes match (scene-reads.ts): those whose basis holds first. */
export function searchDoctrine(db: Db, owners: readonly OwnerKeys[], query: string, limit: number): DoctrineHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0 || owners.length === 0 || limit < 1 || !hasDoctrine(db)) return [];
  const hits: Array<DoctrineHit & { score: number; order: number }> = [];
  owners.forEach((owner, order) => {
    for (const row of ownerRows(db, owner)) {
      const score = matchScore(terms, `${row.name} ${row.title} ${row.principle}`);
      if (score === null) continue;
      const { changes } = basisChanges(db, row);
      hits.push({
        doctrineId: doctrineIdOf(row.name),
        title: row.title,
        scope: row.scope,
        path: row.path,
        cites: (JSON.parse(row.cites_json) as string[]).length,
        basisChanged: changes[0] ?? null,
        score,
        order,
      });
    }
  });
  hits.sort(
    (a, b) =>
      Number(a.basisChanged !== null) - Number(b.basisChanged !== null) ||
      b.score - a.score ||
      a.order - b.order ||
      (a.doctrineId < b.doctrineId ? -1 : a.doctrineId > b.doctrineId ? 1 : 0),
  );
  return hits.slice(0, limit).map(({ score: _score, order: _order, ...hit }) => hit);
}

/** The owners' doctrine whose basis holds, for the snapshot's doctrine line: the repository's first, by name. */
export function readSnapshotDoctrine(
  db: Db,
  owners: readonly (OwnerKeys & { scope: MemoryScope })[],
): SnapshotDoctrine[] {
  if (!hasDoctrine(db)) return [];
  const out: SnapshotDoctrine[] = [];
  for (const owner of owners)
    for (const row of ownerRows(db, owner))
      if (basisChanges(db, row).changes.length === 0)
        out.push({ doctrineId: doctrineIdOf(row.name), scope: row.scope, title: row.title });
  return out;
}
