// Scene and doctrine files, in the entries' frontmatter dialect (entry-format.ts: `key: <JSON>`,
// bare strings allowed, arrays may span lines) and parsed with the same parser, so a hand edit
// round-trips to the same bytes and an update rewrites only the fields it changes.
//
//   scenes/<name>.md     scene: <name>, title, appliesWhen, entries: [ids]; body: the summary
//   doctrine/<name>.md   doctrine: <name>, title, cites: [ids]; body: the principle
//
// A scene groups entries that apply together (an area, a workflow, a part of the codebase); a
// doctrine is a cross-cutting principle that cites the entries instantiating it. Neither is an
// entry: the projection's scan reads only `<type>/*.md`, and these live beside those folders.
import { MEMORY_APPLIES_WHEN_MAX_CHARS, MEMORY_ENTRY_MAX_BYTES, MEMORY_TITLE_MAX_CHARS } from '../../limits.js';
import {
  checkEntryId,
  checkSlug,
  decodeEntryBytes,
  type EntryDocument,
  type JsonValue,
  type ParseResult,
  parseEntryDocument,
  serializeEntryDocument,
  updateEntryDocument,
} from '../entry-format.js';

export const SCENE_DIRECTORY = 'scenes';
export const DOCTRINE_DIRECTORY = 'doctrine';

/** At most this many entries in one scene or cited by one doctrine: a scene is read in one go. */
export const SCENE_ENTRIES_MAX = 200;

export interface SceneFile {
  kind: 'scene';
  name: string;
  title: string;
  appliesWhen: string | null;
  entries: string[];
  /** Frontmatter fields not interpreted here, in file order. */
  extra: Array<[string, JsonValue]>;
  body: string;
}

export interface DoctrineFile {
  kind: 'doctrine';
  name: string;
  title: string;
  cites: string[];
  extra: Array<[string, JsonValue]>;
  body: string;
}

export type ConsolidationFile = SceneFile | DoctrineFile;

const SCENE_KEYS = ['scene', 'title', 'appliesWhen', 'entries'];
const DOCTRINE_KEYS = ['doctrine', 'title', 'cites'];

const fail = (line: number, message: string) => ({ ok: false as const, problem: { line, message } });

/** The path of a scene or doctrine file relative to its memory root. */
export const consolidationPath = (file: Pick<ConsolidationFile, 'kind' | 'name'>): string =>
  `${file.kind === 'scene' ? SCENE_DIRECTORY : DOCTRINE_DIRECTORY}/${file.name}.md`;

function idList(
  key: string,
  field: { value: JsonValue; line: number } | undefined,
  closeLine: number,
): ParseResult<string[]> {
  if (!field) return fail(closeLine, `\`${key}\` is required: an array of entry ids`);
  const value = field.value;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || checkEntryId(id) !== null)) {
    return fail(field.line, `\`${key}\` must be an array of entry ids, e.g. ["m-1a2b…"]`);
  }
  const ids = value as string[];
  if (new Set(ids).size !== ids.length) return fail(field.line, `\`${key}\` names an entry twice`);
  if (ids.length > SCENE_ENTRIES_MAX)
    return fail(field.line, `\`${key}\` names more than ${SCENE_ENTRIES_MAX} entries`);
  return { ok: true, value: ids };
}

/** Checks and types a parsed document as a scene or doctrine (which one its first known key says). */
export function consolidationFromDocument(document: EntryDocument): ParseResult<ConsolidationFile> {
  const fields = new Map<string, { value: JsonValue; line: number }>();
  for (const item of document.items) if (item.kind === 'field') fields.set(item.key, item);
  let line = 2;
  for (const item of document.items) line += item.raw.split('\n').length - 1;
  const closeLine = line;
  const kind = fields.has('scene') ? 'scene' : fields.has('doctrine') ? 'doctrine' : null;
  if (kind === null) return fail(closeLine, 'a scene file has `scene: <name>`, a doctrine file `doctrine: <name>`');
  if (fields.has('scene') && fields.has('doctrine')) {
    return fail(fields.get('doctrine')!.line, 'a file is a scene or a doctrine, not both');
  }
  const nameField = fields.get(kind)!;
  if (typeof nameField.value !== 'string' || checkSlug(nameField.value) !== null) {
    return fail(nameField.line, `\`${kind}\` must be a name of lower-case words joined by dashes`);
  }
  const title = fields.get('title');
  if (!title || typeof title.value !== 'string' || title.value.trim() === '' || /[\r\n]/.test(title.value)) {
    return fail(title?.line ?? closeLine, '`title` is required: a non-empty string on one line');
  }
  if ([...title.value].length > MEMORY_TITLE_MAX_CHARS) {
    return fail(title.line, `\`title\` is longer than ${MEMORY_TITLE_MAX_CHARS} characters`);
  }
  const known = kind === 'scene' ? SCENE_KEYS : DOCTRINE_KEYS;
  const extra: Array<[string, JsonValue]> = [];
  for (const item of document.items)
    if (item.kind === 'field' && !known.includes(item.key)) extra.push([item.key, item.value]);
  if (kind === 'doctrine') {
    const cites = idList('cites', fields.get('cites'), closeLine);
    if (!cites.ok) return cites;
    if (cites.value.length === 0) return fail(fields.get('cites')!.line, '`cites` must name at least one entry');
    return {
      ok: true,
      value: { kind, name: nameField.value, title: title.value, cites: cites.value, extra, body: document.body },
    };
  }
  const appliesWhen = fields.get('appliesWhen');
  if (appliesWhen && appliesWhen.value !== null && typeof appliesWhen.value !== 'string') {
    return fail(appliesWhen.line, '`appliesWhen` must be a string');
  }
  if (typeof appliesWhen?.value === 'string' && [...appliesWhen.value].length > MEMORY_APPLIES_WHEN_MAX_CHARS) {
    return fail(appliesWhen.line, `\`appliesWhen\` is longer than ${MEMORY_APPLIES_WHEN_MAX_CHARS} characters`);
  }
  const entries = idList('entries', fields.get('entries'), closeLine);
  if (!entries.ok) return entries;
  return {
    ok: true,
    value: {
      kind,
      name: nameField.value,
      title: title.value,
      appliesWhen: typeof appliesWhen?.value === 'string' ? appliesWhen.value : null,
      entries: entries.value,
      extra,
      body: document.body,
    },
  };
}

export interface ParsedConsolidationFile {
  file: ConsolidationFile;
  document: EntryDocument;
}

/** Bytes → the scene or doctrine and its document (serialising the document gives the bytes back). */
export function parseConsolidationFile(bytes: Uint8Array): ParseResult<ParsedConsolidationFile> {
  if (bytes.length > MEMORY_ENTRY_MAX_BYTES) {
    return fail(1, `the file is ${bytes.length} bytes, over the ${MEMORY_ENTRY_MAX_BYTES}-byte limit; split it`);
  }
  const text = decodeEntryBytes(bytes);
  if (!text.ok) return text;
  const document = parseEntryDocument(text.value);
  if (!document.ok) return document;
  const file = consolidationFromDocument(document.value);
  if (!file.ok) return file;
  return { ok: true, value: { file: file.value, document: document.value } };
}

function fieldsOf(file: ConsolidationFile): Record<string, JsonValue | null> {
  const known: Array<[string, JsonValue | null]> =
    file.kind === 'scene'
      ? [
          ['scene', file.name],
          ['title', file.title],
          ['appliesWhen', file.appliesWhen],
          ['entries', file.entries],
        ]
      : [
          ['doctrine', file.name],
          ['title', file.title],
          ['cites', file.cites],
        ];
  return Object.fromEntries([...known, ...file.extra]);
}

/** The canonical text of a new scene or doctrine file: known fields in fixed order, then `extra`. */
export function formatConsolidationFile(file: ConsolidationFile): string {
  const empty: EntryDocument = { open: '---\n', items: [], close: '---\n', body: file.body, eol: '\n' };
  return serializeEntryDocument(updateEntryDocument(empty, fieldsOf(file)));
}

/**
 * The text of an edited file: the fields that changed are rewritten, every other byte of the
 * existing document (hand-written fields, spacing, line endings) is kept.
 */
export function updateConsolidationFile(document: EntryDocument, file: ConsolidationFile): string {
  const previous = consolidationFromDocument(document);
  const patch: Record<string, JsonValue | null> = {};
  const next = fieldsOf(file);
  const before = previous.ok ? fieldsOf(previous.value) : {};
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(value)) patch[key] = value;
  }
  if (file.kind === 'scene' && file.appliesWhen === null && 'appliesWhen' in before) patch.appliesWhen = null;
  return serializeEntryDocument(updateEntryDocument(document, patch, file.body));
}
