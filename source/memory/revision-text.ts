// An approved entry as a person edits it to revise it (`memory revise`, the Memory screen's `e`):
// the entry file's own dialect — a `---` frontmatter, then the Markdown body — holding only what a
// revision may change: title, appliesWhen and type. The id, priority, evidence and dates stay with
// the entry's file: the promotion plan rewrites the fields it owns and keeps the others. Reading the
// edited text back checks it as a proposal is checked, so a bad edit is refused with its line
// before anything is made.
import {
  MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES,
  MCP_PROPOSAL_MAX_BYTES,
  MCP_PROPOSAL_TITLE_MAX_BYTES,
  MEMORY_APPLIES_WHEN_MAX_CHARS,
  MEMORY_TITLE_MAX_CHARS,
} from '../limits.js';
import { sanitizeBody } from './candidate-entry.js';
import { ENTRY_TYPES, type EntryType, formatField, parseEntryDocument } from './entry-format.js';

/** What a revision may change, as a revising candidate carries it. */
export interface RevisionFields {
  title: string;
  type: EntryType;
  /** Null: the entry says nothing about when it applies. */
  appliesWhen: string | null;
  /** The body as it is written (sanitised: LF line ends, no trailing blanks, one final newline). */
  content: string;
}

export type RevisionRead = { ok: true; value: RevisionFields } | { ok: false; line: number; message: string };

const EDITABLE = ['title', 'appliesWhen', 'type'] as const;

/** The text a person edits: title, appliesWhen and type in the entry file's frontmatter, then its body. */
export function revisionText(entry: { title: string; type: string; appliesWhen: string | null; body: string }): string {
  return [
    '---\n',
    formatField('title', entry.title),
    formatField('appliesWhen', entry.appliesWhen ?? ''),
    formatField('type', entry.type),
    '---\n',
    sanitizeBody(entry.body),
  ].join('');
}

const encoder = new TextEncoder();
const bytes = (text: string): number => encoder.encode(text).length;
const chars = (text: string): number => [...text].length;

/** Reads an edited text back: its fields checked, or the first problem with its line. */
export function readRevisionText(text: string): RevisionRead {
  const parsed = parseEntryDocument(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) return { ok: false, line: parsed.problem.line, message: parsed.problem.message };
  const fields = new Map<string, { value: unknown; line: number }>();
  for (const item of parsed.value.items) {
    if (item.kind !== 'field') continue;
    if (!(EDITABLE as readonly string[]).includes(item.key))
      return {
        ok: false,
        line: item.line,
        message: `\`${item.key}\` is not changed by a revision; keep only title, appliesWhen and type above the body`,
      };
    fields.set(item.key, { value: item.value, line: item.line });
  }
  const closeLine = 2 + parsed.value.items.reduce((n, item) => n + (item.raw.match(/\n/g)?.length ?? 0), 0);

  const title = fields.get('title');
  if (typeof title?.value !== 'string' || title.value.trim() === '' || /[\r\n]/.test(title.value))
    return { ok: false, line: title?.line ?? closeLine, message: '`title` is required: a non-empty line of text' };
  const titleText = title.value.trim();
  if (chars(titleText) > MEMORY_TITLE_MAX_CHARS || bytes(titleText) > MCP_PROPOSAL_TITLE_MAX_BYTES)
    return {
      ok: false,
      line: title.line,
      message: `\`title\` is too long: at most ${MEMORY_TITLE_MAX_CHARS} characters and ${MCP_PROPOSAL_TITLE_MAX_BYTES} bytes`,
    };

  const type = fields.get('type');
  if (!ENTRY_TYPES.includes(type?.value as EntryType))
    return { ok: false, line: type?.line ?? closeLine, message: `\`type\` must be one of ${ENTRY_TYPES.join(', ')}` };

  const applies = fields.get('appliesWhen');
  if (applies && applies.value !== null && typeof applies.value !== 'string')
    return { ok: false, line: applies.line, message: '`appliesWhen` must be text (or "" for none)' };
  const appliesText = typeof applies?.value === 'string' ? applies.value.trim() : '';
  if (
    chars(appliesText) > MEMORY_APPLIES_WHEN_MAX_CHARS ||
    bytes(appliesText) > MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES ||
    /[\r\n]/.test(appliesText)
  )
    return {
      ok: false,
      line: applies!.line,
      message: `\`appliesWhen\` must be one line of at most ${MEMORY_APPLIES_WHEN_MAX_CHARS} characters and ${MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES} bytes`,
    };

  const content = sanitizeBody(parsed.value.body);
  if (content === '')
    return { ok: false, line: closeLine + 1, message: 'the body is empty: write what the entry says below the `---`' };
  if (bytes(content) > MCP_PROPOSAL_MAX_BYTES)
    return {
      ok: false,
      line: closeLine + 1,
      message: `the body is ${bytes(content)} bytes, over the ${MCP_PROPOSAL_MAX_BYTES}-byte limit of a candidate; shorten it`,
    };
  return {
    ok: true,
    value: { title: titleText, type: type!.value as EntryType, appliesWhen: appliesText || null, content },
  };
}

/** Whether an edit changed nothing a revision would write (the body compared as it is written). */
export function sameAsEntry(
  fields: RevisionFields,
  entry: { title: string; type: string; appliesWhen: string | null; body: string },
): boolean {
  return (
    fields.title === entry.title.trim() &&
    fields.type === entry.type &&
    fields.appliesWhen === (entry.appliesWhen?.trim() || null) &&
    fields.content === sanitizeBody(entry.body)
  );
}
