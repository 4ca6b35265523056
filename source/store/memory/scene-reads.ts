// Reads of the scenes the projection holds (state-schema v13), for `get scene:<name>`, MCP
// `memory_get` and search: read-only, no zod, no file (the sync that read the scene files stored
// them). A scene is given with its summary and its entries — ids and titles always, bodies while
// they fit a bound — and search matches its name, title, `appliesWhen` and summary.
import { prepared, type Db } from '../database.js';
import type { MemoryScope } from '../../effects/approved-scan.js';
import { sceneIdOf } from '../../memory/snapshot.js';
import type { ApprovedOwner } from './approved-sync.js';
import { matchScore, queryTerms } from './match-words.js';
import { staleNote } from '../../memory/staleness.js';
import { readVerdicts, verdictFor } from './verdict-read.js';

/** Bodies of a scene's entries given by `get`, in all: past this, entries are given by id and title. */
export const SCENE_BODIES_MAX_BYTES = 24 * 1024;

/** The scene id's prefix: `scene:<name>`. */
export const SCENE_ID_PREFIX = 'scene:';

export interface SceneEntryView {
  entryId: string;
  title: string;
  appliesWhen: string | null;
  /** Absent past SCENE_BODIES_MAX_BYTES. */
  body?: string;
  /** Present when the last verification found this text of the entry stale, as search marks it. */
  stale?: true;
  staleNote?: string;
}

export interface SceneView {
  id: string;
  name: string;
  scope: MemoryScope;
  title: string;
  appliesWhen: string | null;
  summary: string;
  path: string;
  contentDigest: string;
  entries: SceneEntryView[];
  /** Ids the file names that are not approved entries of its scope (retired, misspelt). */
  missing: string[];
  /** Entries given without their body (the bound). */
  bodiesLeftOut: number;
}

interface SceneRow {
  name: string;
  scope: MemoryScope;
  title: string;
  applies_when: string | null;
  summary: string;
  file_entries_json: string;
  entry_ids_json: string;
  entries: number;
  path: string;
  content_digest: string;
  repository_key: string;
  worktree_key: string;
}

const encoder = new TextEncoder();

/** A scene by its id across the owners, the repository's first; undefined when none holds it. */
export function readScene(db: Db, owners: readonly ApprovedOwner[], sceneId: string): SceneView | undefined {
  if (!sceneId.startsWith(SCENE_ID_PREFIX)) return undefined;
  const name = sceneId.slice(SCENE_ID_PREFIX.length);
  const read = prepared(db, 'SELECT * FROM approved_scenes WHERE repository_key = ? AND worktree_key = ? AND name = ?');
  for (const owner of owners) {
    const row = read.get(owner.repositoryKey, owner.worktreeKey, name) as SceneRow | undefined;
    if (row) return sceneView(db, row);
  }
  return undefined;
}

function sceneView(db: Db, row: SceneRow): SceneView {
  const held = JSON.parse(row.entry_ids_json) as string[];
  const named = JSON.parse(row.file_entries_json) as string[];
  const entry = prepared(
    db,
    'SELECT frontmatter_json, body_text, content_digest FROM approved_entries WHERE entry_id = ? AND repository_key = ? AND worktree_key = ?',
  );
  // A scene hands out its members' bodies: a member the last verification found stale must carry
  // that mark here as it does in `get` and search, or the scene gives its claim as true. Verdicts
  // that cannot be read mark nothing (as everywhere: never "everything is stale").
  const verdicts = readVerdicts(db, [{ repositoryKey: row.repository_key, worktreeKey: row.worktree_key }], {
    entryIds: held,
  });
  let room = SCENE_BODIES_MAX_BYTES;
  let bodiesLeftOut = 0;
  const entries: SceneEntryView[] = [];
  const found = new Set<string>();
  for (const id of held) {
    const stored = entry.get(id, row.repository_key, row.worktree_key) as
      | { frontmatter_json: string; body_text: string; content_digest: string }
      | undefined;
    if (!stored) continue;
    found.add(id);
    const front = JSON.parse(stored.frontmatter_json) as { title?: unknown; appliesWhen?: unknown };
    const view: SceneEntryView = {
      entryId: id,
      title: typeof front.title === 'string' ? front.title : id,
      appliesWhen: typeof front.appliesWhen === 'string' ? front.appliesWhen : null,
    };
    const verdict = verdictFor(verdicts, id, stored.content_digest);
    if (verdict?.verdict === 'stale') {
      view.stale = true;
      view.staleNote = staleNote(verdict.failed);
    }
    const size = encoder.encode(stored.body_text).length;
    if (size <= room) {
      view.body = stored.body_text;
      room -= size;
    } else bodiesLeftOut++;
    entries.push(view);
  }
  return {
    id: sceneIdOf(row.name),
    name: row.name,
    scope: row.scope,
    title: row.title,
    appliesWhen: row.applies_when,
    summary: row.summary,
    path: row.path,
    contentDigest: row.content_digest,
    entries,
    missing: named.filter((id) => !found.has(id)),
    bodiesLeftOut,
  };
}

/** A scene as `get` prints it and `memory_get` gives it: the summary, then each entry. */
export function sceneBody(scene: SceneView): string {
  const lines = [scene.summary.replace(/\s+$/, ''), '', `Notes in this scene (${scene.entries.length}):`];
  for (const entry of scene.entries) {
    lines.push('', `## ${entry.title} [${entry.entryId}]`);
    if (entry.appliesWhen) lines.push(`applies when: ${entry.appliesWhen}`);
    if (entry.stale) lines.push(`STALE — not given as true: ${entry.staleNote}`);
    if (entry.body !== undefined) lines.push('', entry.body.replace(/\s+$/, ''));
  }
  if (scene.bodiesLeftOut > 0)
    lines.push('', `(${scene.bodiesLeftOut} notes given by id and title only: read each with memory_get and its id)`);
  if (scene.missing.length > 0)
    lines.push('', `(named by the scene but not approved notes of its scope: ${scene.missing.join(', ')})`);
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}

export interface SceneHit {
  sceneId: string;
  title: string;
  scope: MemoryScope;
  path: string;
  entries: number;
}

/**
 * The owners' scenes matching `query`: a scene matches when at least half of the query's words
 * (of three letters or more, common words aside) begin a word of its name, title, `appliesWhen`
 * or summary. Most words matched first, then most entries, then the repository's, then by name.
 */
export function searchScenes(db: Db, owners: readonly ApprovedOwner[], query: string, limit: number): SceneHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0 || owners.length === 0 || limit < 1) return [];
  const read = prepared(
    db,
    `SELECT name, scope, title, applies_when, summary, path, entries FROM approved_scenes
     WHERE repository_key = ? AND worktree_key = ? AND entries > 0`,
  );
  const hits: Array<SceneHit & { score: number; order: number }> = [];
  owners.forEach((owner, order) => {
    const rows = read.all(owner.repositoryKey, owner.worktreeKey) as Array<
      Pick<SceneRow, 'name' | 'scope' | 'title' | 'applies_when' | 'summary' | 'path' | 'entries'>
    >;
    for (const row of rows) {
      const score = matchScore(terms, `${row.name} ${row.title} ${row.applies_when ?? ''} ${row.summary}`);
      if (score === null) continue;
      hits.push({
        sceneId: sceneIdOf(row.name),
        title: row.title,
        scope: row.scope,
        path: row.path,
        entries: row.entries,
        score,
        order,
      });
    }
  });
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      b.entries - a.entries ||
      a.order - b.order ||
      (a.sceneId < b.sceneId ? -1 : a.sceneId > b.sceneId ? 1 : 0),
  );
  return hits.slice(0, limit).map(({ score: _score, order: _order, ...hit }) => hit);
}
