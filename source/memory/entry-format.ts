// The canonical memory entry: `<memory root>/<type>/<slug>.md`, a frontmatter block, then the
// Markdown body. The frontmatter dialect has no YAML in it: each field is `key: <JSON value>`;
// a string may be written without quotes; an array or object may span lines and ends where its
// brackets balance. Files are edited by hand as often as written by us, so the parser keeps every
// field's source text: serialising a parsed document gives back the same bytes, and an update
// rewrites only the fields it changes.

import {
  MEMORY_APPLIES_WHEN_MAX_CHARS,
  MEMORY_ENTRY_ID_MAX_CHARS,
  MEMORY_ENTRY_MAX_BYTES,
  MEMORY_SLUG_MAX_CHARS,
  MEMORY_TITLE_MAX_CHARS,
} from '../limits.js';
import { ENTRY_TYPES, type EntryType } from '../api/common.js';
import { canonicalJson } from '../ground/canonical-json.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// The entry types are the API's language (a proposal names one); this module is their home for the domain.
export { ENTRY_TYPES, type EntryType } from '../api/common.js';

export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];

/** An entry without a `priority` field ranks in the middle. */
export const DEFAULT_PRIORITY = 50;

/** The typed fields of an entry; anything else in the frontmatter is kept in `extra`. */
export interface EntryFields {
  id: string;
  type: EntryType;
  title: string;
  appliesWhen: string | null;
  priority: number;
  confidence: Confidence | null;
  /** What the entry rests on, e.g. `{"summary": "2 statements from 2 user turns", "candidateId": "…"}`. */
  evidence: { [key: string]: JsonValue } | null;
  created: string | null;
  supersedes: string[];
}

export interface MemoryEntry extends EntryFields {
  /** Frontmatter fields we do not interpret, in file order. */
  extra: Array<[string, JsonValue]>;
  body: string;
}

/** A piece of the frontmatter: a field with its exact source text, or a blank line. */
export type FrontmatterItem =
  | { kind: 'field'; key: string; value: JsonValue; raw: string; line: number }
  | { kind: 'blank'; raw: string };

/** A parsed file that serialises back to exactly its bytes. */
export interface EntryDocument {
  open: string;
  items: FrontmatterItem[];
  close: string;
  body: string;
  /** The line terminator new fields get: the one the opening line uses. */
  eol: '\n' | '\r\n';
}

export interface EntryProblem {
  /** 1-based line of the file the problem is on. */
  line: number;
  message: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problem: EntryProblem };

const ENTRY_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DELIMITER = '---';
/** A JSON string literal with no escapes and no control characters. */
const PLAIN_STRING_RE = /^"[^"\\\u0000-\u001f]*"$/;
const FIELD_ORDER = [
  'id',
  'type',
  'title',
  'appliesWhen',
  'priority',
  'confidence',
  'evidence',
  'created',
  'supersedes',
];
/** A short array or object stays on its field's line; a longer one is indented JSON over several lines. */
const INLINE_VALUE_MAX_CHARS = 100;

const fail = (line: number, message: string): { ok: false; problem: EntryProblem } => ({
  ok: false,
  problem: { line, message },
});

/**
 * The lines of the frontmatter, through the closing `---` line (the body is not split: it can be
 * long and is kept as it is). `raw` has the terminator; `text` is without `\n` or `\r\n`.
 */
function frontmatterLines(source: string): Array<{ raw: string; text: string }> {
  const lines: Array<{ raw: string; text: string }> = [];
  let position = 0;
  while (position < source.length) {
    const newline = source.indexOf('\n', position);
    const end = newline < 0 ? source.length : newline + 1;
    const raw = source.slice(position, end);
    const cut = newline < 0 ? raw.length : raw.length - (raw.endsWith('\r\n') ? 2 : 1);
    const text = raw.slice(0, cut);
    lines.push({ raw, text });
    position = end;
    if (lines.length > 1 && text === DELIMITER) break;
  }
  return lines;
}

const countNewlines = (text: string): number => {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes a file's bytes; only strict UTF-8 without a byte order mark round-trips to the same bytes. */
export function decodeEntryBytes(bytes: Uint8Array): ParseResult<string> {
  if (bytes.length > MEMORY_ENTRY_MAX_BYTES) {
    return fail(
      1,
      `the file is ${bytes.length} bytes, over the ${MEMORY_ENTRY_MAX_BYTES}-byte limit of an entry; split it`,
    );
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const line = 1 + bytes.subarray(0, bad).reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
    return fail(line, 'the file is not valid UTF-8; save it as UTF-8');
  }
  if (text.startsWith('\uFEFF')) return fail(1, 'the file starts with a byte order mark; save it as UTF-8 without BOM');
  if (text.includes('\0')) return fail(lineOf(text, text.indexOf('\0')), 'the file contains a NUL character');
  return { ok: true, value: text };
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, by bisection: decoding a prefix that ends inside a character fails too,
  // so this finds the bad byte within three positions, which is all a line number needs.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      decoder.decode(bytes.subarray(0, middle));
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  return low;
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/**
 * Where the bracketed JSON value that starts at `text[0]` ends, scanning string literals so that
 * brackets inside strings do not count: the index after the closing bracket, or the open depth.
 */
function scanBrackets(text: string, state: { depth: number; inString: boolean; escaped: boolean }): number {
  // Char codes, not one-character strings: this loop runs over every bracketed value a scan reads.
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (state.inString) {
      if (state.escaped) state.escaped = false;
      else if (code === 0x5c /* \ */) state.escaped = true;
      else if (code === 0x22 /* " */) state.inString = false;
      continue;
    }
    if (code === 0x22) state.inString = true;
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) state.depth++;
    else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      state.depth--;
      if (state.depth === 0) return index + 1;
    }
  }
  return -1;
}

/**
 * `key: rest` of a frontmatter line — a letter, then letters, digits and `_`, spaces or tabs, a
 * colon — without a regular expression (a scan parses every line of every file): the key and the
 * text after the colon; null if the line is not a field. The rest may not hold a carriage return
 * or a line or paragraph separator (what `.` of /^([A-Za-z]\w*)[ \t]*:(.*)$/ would refuse).
 */
function splitField(text: string): { key: string; rest: string } | null {
  const first = text.charCodeAt(0);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return null;
  let at = 1;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const word =
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x5f;
    if (!word) break;
  }
  const keyEnd = at;
  while (at < text.length && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09)) at++;
  if (text.charCodeAt(at) !== 0x3a /* : */) return null;
  const rest = text.slice(at + 1);
  if (/[\r\u2028\u2029]/.test(rest)) return null;
  return { key: text.slice(0, keyEnd), rest };
}

function jsonError(error: unknown, text: string, firstLine: number, key: string): { ok: false; problem: EntryProblem } {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  const line = position ? firstLine + lineOf(text, Number(position[1])) - 1 : firstLine;
  return fail(
    line,
    `the value of \`${key}\` is not valid JSON (${message.replace(/^.*?JSON[^:]*: ?/, '').trim() || message})`,
  );
}

/** Parses the text of a file into a document; nothing is checked beyond the dialect itself. */
export function parseEntryDocument(source: string): ParseResult<EntryDocument> {
  const lines = frontmatterLines(source);
  const first = lines[0];
  if (!first || first.text !== DELIMITER) {
    return fail(1, 'an entry starts with a `---` line, then `key: value` fields, then `---` and the body');
  }
  const eol = first.raw.endsWith('\r\n') ? '\r\n' : '\n';
  const items: FrontmatterItem[] = [];
  const seen = new Map<string, number>();
  let index = 1;
  while (index < lines.length) {
    const line = lines[index]!;
    const lineNumber = index + 1;
    if (line.text === DELIMITER) {
      let bodyStart = 0;
      for (const l of lines) bodyStart += l.raw.length;
      return { ok: true, value: { open: first.raw, items, close: line.raw, body: source.slice(bodyStart), eol } };
    }
    if (line.text.trim() === '') {
      items.push({ kind: 'blank', raw: line.raw });
      index++;
      continue;
    }
    const match = splitField(line.text);
    if (!match) {
      return fail(
        lineNumber,
        'expected `key: value` (a JSON value; a string may go without quotes) or the closing `---`',
      );
    }
    const key = match.key;
    if (seen.has(key)) return fail(lineNumber, `\`${key}\` is set twice (first on line ${seen.get(key)})`);
    seen.set(key, lineNumber);
    const valueText = match.rest.trim();
    if (valueText === '') return fail(lineNumber, `\`${key}\` has no value; write "" for an empty string`);
    if (valueText.startsWith('[') || valueText.startsWith('{')) {
      // Scan to the line where the brackets balance.
      const state = { depth: 0, inString: false, escaped: false };
      const parts: string[] = [];
      let end = -1;
      let at = index;
      let text = match.rest;
      for (;;) {
        end = scanBrackets(text, state);
        if (end >= 0) {
          if (text.slice(end).trim() !== '') {
            return fail(at + 1, `unexpected text after the value of \`${key}\`: one field per line`);
          }
          parts.push(text.slice(0, end));
          break;
        }
        parts.push(text);
        at++;
        const next = lines[at];
        if (!next || next.text === DELIMITER) {
          return fail(
            lineNumber,
            `the value of \`${key}\` opens a bracket that is not closed before the end of the frontmatter`,
          );
        }
        text = next.text;
        // A newline inside a JSON string literal is never valid; say so where it happens.
        if (state.inString) return fail(at, `a string in the value of \`${key}\` runs past the end of its line`);
      }
      const json = parts.length === 1 ? parts[0]! : parts.join('\n');
      let value: JsonValue;
      try {
        value = JSON.parse(json) as JsonValue;
      } catch (error) {
        return jsonError(error, json.trimStart(), lineNumber, key);
      }
      const raw =
        at === index
          ? line.raw
          : lines
              .slice(index, at + 1)
              .map((l) => l.raw)
              .join('');
      items.push({ kind: 'field', key, value, raw, line: lineNumber });
      index = at + 1;
      continue;
    }
    let value: JsonValue;
    if (PLAIN_STRING_RE.test(valueText)) {
      // A string without escapes reads as its characters: no JSON.parse needed (the common case).
      value = valueText.slice(1, -1);
    } else if (valueText.startsWith('"')) {
      try {
        value = JSON.parse(valueText) as JsonValue;
      } catch (error) {
        return jsonError(error, valueText, lineNumber, key);
      }
    } else {
      value = bareValue(valueText);
    }
    items.push({ kind: 'field', key, value, raw: line.raw, line: lineNumber });
    index++;
  }
  return fail(1, 'the frontmatter opened on line 1 is never closed by a `---` line');
}

/** A value without quotes: a JSON literal (number, true, false, null) if it is one, else the string itself. */
function bareValue(text: string): JsonValue {
  if (/^(?:true|false|null|-?\d[\d.eE+-]*)$/.test(text)) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      return text;
    }
  }
  return text;
}

/** The exact text of a document: for a parsed file, the bytes it was parsed from. */
export function serializeEntryDocument(document: EntryDocument): string {
  return document.open + document.items.map((item) => item.raw).join('') + document.close + document.body;
}

const isObject = (value: JsonValue | undefined): value is { [key: string]: JsonValue } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** More than `max` characters (code points)? No longer in UTF-16 units means no longer in characters. */
const longerThan = (text: string, max: number): boolean => text.length > max && [...text].length > max;

const oneLine = (text: string): boolean => !/[\r\n]/.test(text);

/** Checks and types the fields of a document. */
export function entryFromDocument(document: EntryDocument): ParseResult<MemoryEntry> {
  const fields = new Map<string, { value: JsonValue; line: number }>();
  const extra: Array<[string, JsonValue]> = [];
  for (const item of document.items) {
    if (item.kind !== 'field') continue;
    fields.set(item.key, { value: item.value, line: item.line });
    if (!FIELD_ORDER.includes(item.key)) extra.push([item.key, item.value]);
  }
  const closeLine = 2 + document.items.reduce((lines, item) => lines + countNewlines(item.raw), 0);
  const required = (key: string) => fields.get(key) ?? { value: undefined, line: closeLine };

  const id = required('id');
  if (typeof id.value !== 'string') return fail(id.line, '`id` is required: a string such as "m-3f9a…"');
  const idProblem = checkEntryId(id.value);
  if (idProblem) return fail(id.line, `\`id\` ${idProblem}`);

  const type = required('type');
  if (!ENTRY_TYPES.includes(type.value as EntryType)) {
    return fail(type.line, `\`type\` must be one of ${ENTRY_TYPES.join(', ')}`);
  }

  const title = required('title');
  if (typeof title.value !== 'string' || title.value.trim() === '' || !oneLine(title.value)) {
    return fail(title.line, '`title` is required: a non-empty string on one line');
  }
  if (longerThan(title.value, MEMORY_TITLE_MAX_CHARS)) {
    return fail(title.line, `\`title\` is longer than ${MEMORY_TITLE_MAX_CHARS} characters`);
  }

  const appliesWhen = fields.get('appliesWhen');
  if (appliesWhen && appliesWhen.value !== null && typeof appliesWhen.value !== 'string') {
    return fail(appliesWhen.line, '`appliesWhen` must be a string');
  }
  if (typeof appliesWhen?.value === 'string' && longerThan(appliesWhen.value, MEMORY_APPLIES_WHEN_MAX_CHARS)) {
    return fail(appliesWhen.line, `\`appliesWhen\` is longer than ${MEMORY_APPLIES_WHEN_MAX_CHARS} characters`);
  }

  const priority = fields.get('priority');
  if (
    priority &&
    !(Number.isInteger(priority.value) && (priority.value as number) >= 0 && (priority.value as number) <= 100)
  ) {
    return fail(priority.line, '`priority` must be a whole number from 0 to 100');
  }

  const confidence = fields.get('confidence');
  if (confidence && confidence.value !== null && !CONFIDENCE_LEVELS.includes(confidence.value as Confidence)) {
    return fail(confidence.line, `\`confidence\` must be one of ${CONFIDENCE_LEVELS.join(', ')}`);
  }

  const evidence = fields.get('evidence');
  if (evidence && evidence.value !== null && !isObject(evidence.value)) {
    return fail(evidence.line, '`evidence` must be a JSON object, e.g. {"summary": "…"}');
  }
  if (isObject(evidence?.value) && 'summary' in evidence.value && typeof evidence.value.summary !== 'string') {
    return fail(evidence.line, '`evidence.summary` must be a string');
  }

  const created = fields.get('created');
  if (
    created &&
    created.value !== null &&
    (typeof created.value !== 'string' || Number.isNaN(Date.parse(created.value)))
  ) {
    return fail(created.line, '`created` must be a date string such as "2026-01-31T12:00:00Z"');
  }

  const supersedes = fields.get('supersedes');
  if (supersedes) {
    if (!Array.isArray(supersedes.value) || supersedes.value.some((v) => typeof v !== 'string' || checkEntryId(v))) {
      return fail(supersedes.line, '`supersedes` must be an array of entry ids, e.g. ["m-1a2b…"]');
    }
  }

  return {
    ok: true,
    value: {
      id: id.value,
      type: type.value as EntryType,
      title: title.value,
      appliesWhen: typeof appliesWhen?.value === 'string' ? appliesWhen.value : null,
      priority: (priority?.value as number | undefined) ?? DEFAULT_PRIORITY,
      confidence: (confidence?.value as Confidence | null | undefined) ?? null,
      evidence: isObject(evidence?.value) ? evidence.value : null,
      created: typeof created?.value === 'string' ? created.value : null,
      supersedes: (supersedes?.value as string[] | undefined) ?? [],
      extra,
      body: document.body,
    },
  };
}

export interface ParsedEntry {
  entry: MemoryEntry;
  document: EntryDocument;
}

/** Bytes of a file → its document and typed entry, or the first problem with its line. */
export function parseEntry(bytes: Uint8Array): ParseResult<ParsedEntry> {
  const text = decodeEntryBytes(bytes);
  if (!text.ok) return text;
  const document = parseEntryDocument(text.value);
  if (!document.ok) return document;
  const entry = entryFromDocument(document.value);
  if (!entry.ok) return entry;
  return { ok: true, value: { entry: entry.value, document: document.value } };
}

/** How a field is written when we write it: canonical JSON, long arrays and objects indented. */
export function formatField(key: string, value: JsonValue, eol: '\n' | '\r\n' = '\n'): string {
  const inline = `${key}: ${JSON.stringify(value)}`;
  if (typeof value !== 'object' || value === null || inline.length <= INLINE_VALUE_MAX_CHARS) return inline + eol;
  return `${key}: ${JSON.stringify(value, null, 2).split('\n').join(eol)}${eol}`;
}

function fieldValues(entry: EntryFields): Array<[string, JsonValue | null]> {
  return [
    ['id', entry.id],
    ['type', entry.type],
    ['title', entry.title],
    ['appliesWhen', entry.appliesWhen],
    ['priority', entry.priority],
    ['confidence', entry.confidence],
    ['evidence', entry.evidence],
    ['created', entry.created],
    ['supersedes', entry.supersedes.length > 0 ? entry.supersedes : null],
  ];
}

/** A new document for an entry: the known fields in their fixed order (absent ones left out), then `extra`. */
export function documentForEntry(entry: MemoryEntry): EntryDocument {
  const document: EntryDocument = {
    open: `${DELIMITER}\n`,
    items: [],
    close: `${DELIMITER}\n`,
    body: entry.body,
    eol: '\n',
  };
  const fields: Array<[string, JsonValue | null]> = [...fieldValues(entry), ...entry.extra];
  return updateEntryDocument(document, Object.fromEntries(fields.filter(([, value]) => value !== null)));
}

/** The canonical text of a new entry. */
export function formatEntry(entry: MemoryEntry): string {
  return serializeEntryDocument(documentForEntry(entry));
}

/**
 * Sets fields of a document (a `null` patch value removes the field) and optionally its body.
 * Fields not in the patch, or given their own value again, keep their exact source text; new fields
 * go before the closing line.
 */
export function updateEntryDocument(
  document: EntryDocument,
  patch: Record<string, JsonValue | null>,
  body: string = document.body,
): EntryDocument {
  const remaining = new Map(Object.entries(patch));
  const items: FrontmatterItem[] = [];
  for (const item of document.items) {
    if (item.kind !== 'field' || !remaining.has(item.key)) {
      items.push(item);
      continue;
    }
    const value = remaining.get(item.key)!;
    remaining.delete(item.key);
    if (value === null) continue;
    // The same value keeps its text as written (unquoted, spaced): a plan that sets every field shows
    // in its diff, and in git, only the fields that change.
    if (canonicalJson(value) === canonicalJson(item.value)) {
      items.push(item);
      continue;
    }
    items.push({ kind: 'field', key: item.key, value, raw: formatField(item.key, value, document.eol), line: 0 });
  }
  for (const [key, value] of remaining) {
    if (value === null) continue;
    items.push({ kind: 'field', key, value, raw: formatField(key, value, document.eol), line: 0 });
  }
  // Line numbers follow from the raw text; recompute them so problems point at the right line.
  let line = 2;
  for (const item of items) {
    if (item.kind === 'field') item.line = line;
    line += countNewlines(item.raw);
  }
  return { ...document, items, body };
}

/** Why an entry id is not acceptable, or null. */
export function checkEntryId(id: string): string | null {
  if (id.length === 0 || id.length > MEMORY_ENTRY_ID_MAX_CHARS)
    return `must have 1 to ${MEMORY_ENTRY_ID_MAX_CHARS} characters`;
  if (!ENTRY_ID_RE.test(id))
    return 'may hold only letters, digits, ".", "_" and "-", and starts with a letter or digit';
  return null;
}

/** Why a slug is not acceptable, or null. Slugs are lower-case words joined by single dashes. */
export function checkSlug(slug: string): string | null {
  if (slug.length === 0 || slug.length > MEMORY_SLUG_MAX_CHARS)
    return `a slug has 1 to ${MEMORY_SLUG_MAX_CHARS} characters`;
  if (!SLUG_RE.test(slug)) return 'a slug is lower-case letters and digits in words joined by single dashes';
  return null;
}

/** A slug from a title: ASCII letters and digits, accents dropped, cut at a word boundary within the limit. */
export function slugify(title: string, maxChars: number = MEMORY_SLUG_MAX_CHARS): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maxChars) {
      if (slug === '') slug = word.slice(0, maxChars);
      break;
    }
    slug = next;
  }
  return slug === '' ? 'entry' : slug;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * One line of text for a title or display: NFC, controls and runs of whitespace become single
 * spaces, at most `maxChars` characters (cut at a word when that keeps most of it, then `…`).
 */
/** Controls and line breaks: a single line has none of them (each run becomes one space). */
export const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

export function singleLineText(text: string, maxChars: number): string {
  // ASCII is its own NFC form; and a line of no more UTF-16 units than maxChars has no more
  // characters either. Both skips keep the SessionStart hook's snapshot cheap.
  const line = (PRINTABLE_ASCII.test(text) ? text : text.normalize('NFC'))
    .replace(LINE_CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line.length <= maxChars) return line;
  const chars = [...line];
  if (chars.length <= maxChars) return line;
  const cut = chars.slice(0, maxChars - 1).join('');
  const atWord = cut.replace(/\s+\S*$/, '');
  return `${atWord.length > maxChars / 2 ? atWord : cut}…`;
}

/** The path of an entry relative to its memory root. */
export const entryPath = (type: EntryType, slug: string): string => `${type}/${slug}.md`;

export type PathCheck = { ok: true; type: EntryType; name: string } | { ok: false; reason: string };

/**
 * Checks a path relative to a memory root names an entry file `<type>/<name>.md`: no `..`, no
 * absolute path, no NUL, no backslash, no hidden or temporary file. A file we create has a slug for
 * its name (`new`); a file a person named by hand is accepted as it is (`existing`).
 */
export function checkEntryPath(path: string, mode: 'new' | 'existing' = 'new'): PathCheck {
  const refuse = (why: string): PathCheck => ({
    ok: false,
    reason: `${JSON.stringify(path)} is not an entry path: ${why}`,
  });
  if (path.includes('\0')) return refuse('it contains a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return refuse('it is absolute');
  if (path.includes('\\')) return refuse('it contains a backslash');
  const parts = path.split('/');
  if (parts.some((part) => part === '..' || part === '.')) return refuse('it contains "." or ".."');
  if (parts.length !== 2) return refuse('an entry path is <type>/<slug>.md');
  const [type, file] = parts as [string, string];
  if (!ENTRY_TYPES.includes(type as EntryType)) return refuse(`its directory is not one of ${ENTRY_TYPES.join(', ')}`);
  if (!file.endsWith('.md') || file.length === 3) return refuse('an entry file is named <slug>.md');
  if (file.startsWith('.')) return refuse('hidden files are not entries');
  const name = file.slice(0, -3);
  if (mode === 'new') {
    const slugProblem = checkSlug(name);
    if (slugProblem) return refuse(slugProblem);
  } else if (Buffer.byteLength(file) > 255 || /[\x00-\x1f\x7f]/.test(file)) {
    return refuse('the file name is over 255 bytes or holds control characters');
  }
  return { ok: true, type: type as EntryType, name };
}
