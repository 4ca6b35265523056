// A scene or doctrine file never points at an entry that is gone: one merged into another, or
// retired for the entry that supersedes it — in this plan, or in an earlier one whose survivor
// names it in `supersedes`. Its id list (`entries`, `cites`) names the survivor instead (dropped
// when listed already), and so does its text: a member line `- <gone>: <title>` becomes the
// survivor's own line (dropped when the text lists the survivor already), and any other mention
// of the id names the survivor. Every other byte of the file is kept. Pure.
import type { EntryDocument } from '../entry-format.js';
import type { ConsolidationFile } from './scene-format.js';
import { updateConsolidationFile } from './scene-format.js';

/** An entry that is gone, and the entry that now stands for it (null: none). */
export type GoneEntries = ReadonlyMap<string, string | null>;

/** The live entry an id stands for now: itself, its survivor (through chains), or null when none. */
export function survivorOf(gone: GoneEntries, id: string): string | null {
  let next: string | null = id;
  for (let hops = 0; next !== null && gone.has(next); hops++) next = hops > gone.size ? null : gone.get(next)!;
  return next;
}

/**
 * Entries merged or retired by earlier plans: an id a live entry names in `supersedes` that no
 * live entry holds any more, standing for that live entry (the first, by id, when several do).
 */
export function goneBySupersedes(
  entries: ReadonlyArray<{ id: string; supersedes: readonly string[] }>,
): Map<string, string> {
  const live = new Set(entries.map((entry) => entry.id));
  const gone = new Map<string, string>();
  for (const entry of [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    for (const id of entry.supersedes) if (!live.has(id) && !gone.has(id)) gone.set(id, entry.id);
  return gone;
}

const ID_CHAR = '[A-Za-z0-9_-]';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The id as a whole token: not inside a longer id (a dot ends a sentence unless an id character follows). */
const mention = (id: string) => new RegExp(`(?<!${ID_CHAR}|\\.)${escapeRegExp(id)}(?!${ID_CHAR}|\\.${ID_CHAR})`, 'g');
const MEMBER_LINE = /^(\s*[-*+]\s+`?)([A-Za-z0-9][A-Za-z0-9._-]*)(`?\s*:)/;
/** The first line of a summary the built-in runner wrote: `<n> entries that share …`. */
const BUILTIN_COUNT = /^(\d+) entries( that share )/;

/**
 * The text with no mention of a gone entry: member lines relisted (the survivor's title from
 * `titles` when known), other mentions renamed. Line endings are kept.
 */
export function relistText(text: string, gone: GoneEntries, titles: ReadonlyMap<string, string>): string {
  if (gone.size === 0) return text;
  const lines = text.split(/(?<=\n)/);
  const member = (line: string) => MEMBER_LINE.exec(line)?.[2];
  const listed = new Set(lines.map(member).filter((id): id is string => id !== undefined && !gone.has(id)));
  const out: string[] = [];
  for (const line of lines) {
    const id = member(line);
    if (id !== undefined && gone.has(id)) {
      const survivor = survivorOf(gone, id);
      if (survivor === null || listed.has(survivor)) continue;
      listed.add(survivor);
      const ending = /\r?\n$/.exec(line)?.[0] ?? '';
      const title = titles.get(survivor);
      const match = MEMBER_LINE.exec(line)!;
      out.push(
        title === undefined
          ? `${match[1]}${survivor}${line.slice(match[1]!.length + id.length)}`
          : `${match[1]}${survivor}${match[3]} ${title}${ending}`,
      );
      continue;
    }
    let next = line;
    for (const goneId of gone.keys()) {
      if (!next.includes(goneId)) continue;
      const survivor = survivorOf(gone, goneId);
      next = next.replace(mention(goneId), survivor ?? '');
    }
    out.push(next);
  }
  return out.join('');
}

/**
 * The file relisted: its ids and its text name no gone entry. Null when it names none; a string
 * when it would list no entry at all.
 */
export function relistFile(
  document: EntryDocument,
  file: ConsolidationFile,
  gone: GoneEntries,
  titles: ReadonlyMap<string, string>,
): { text: string; removed: string[] } | null | string {
  const ids = file.kind === 'scene' ? file.entries : file.cites;
  const removed = ids.filter((id) => gone.has(id));
  const body = relistText(file.body, gone, titles);
  if (removed.length === 0 && body === file.body) return null;
  const next: string[] = [];
  for (const id of ids) {
    const now = survivorOf(gone, id);
    if (now !== null && !next.includes(now)) next.push(now);
  }
  if (next.length === 0) return `it would list no entry once ${ids.join(', ')} are gone`;
  // The built-in runner's summary counts the scene's members: it counts those it lists now.
  const counted =
    file.kind === 'scene' && next.length !== ids.length
      ? body.replace(BUILTIN_COUNT, (_, count: string, rest: string) =>
          Number(count) === ids.length
            ? `${next.length} ${next.length === 1 ? 'entry' : 'entries'}${rest}`
            : `${count} entries${rest}`,
        )
      : body;
  const edited = file.kind === 'scene' ? { ...file, entries: next, body: counted } : { ...file, cites: next, body };
  return { text: updateConsolidationFile(document, edited), removed };
}
