// What a candidate becomes as an entry — its id, title and sanitised body — shared by the plan that
// writes it (promotion-plan.ts) and the review that shows it as the snapshot will
// (store/memory/memory-reads.ts). Apart from the plan so that a read never loads the lint rules.
import { sha256Hex } from '../ground/digests.js';
import { MEMORY_APPLIES_WHEN_MAX_CHARS, MEMORY_TITLE_MAX_CHARS } from '../limits.js';
import { singleLineText } from './entry-format.js';
import type { SnapshotEntry } from './snapshot.js';

/** The fields of a candidate that decide its entry. */
export interface CandidateText {
  candidateId: string;
  /** Null: the first line of the content. */
  title: string | null;
  content: string;
  appliesWhen: string | null;
  priority: number;
}

/** The id a new entry gets from its candidate: stable, so preparing the same candidate twice targets one entry. */
export const entryIdForCandidate = (candidateId: string): string =>
  `m-${sha256Hex(`common-memory entry@1\0${candidateId}`).slice(0, 20)}`;

/**
 * The body as it is written: NFC, LF line ends, no control characters but tabs, no trailing
 * spaces, no leading or trailing blank lines, one final newline.
 */
export function sanitizeBody(text: string): string {
  const lines = text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export function titleOf(candidate: Pick<CandidateText, 'title' | 'content'>): string {
  const source = candidate.title ?? candidate.content.split('\n').find((line) => line.trim() !== '') ?? '';
  const title = singleLineText(source.replace(/^\s*#+\s*/, ''), MEMORY_TITLE_MAX_CHARS);
  return title === '' ? 'Untitled entry' : title;
}

/**
 * The entry a candidate would become, as the SessionStart snapshot reads it: the same title, body,
 * `appliesWhen` and priority prepare writes (an update keeps the id of the entry it rewrites).
 * `memory review` shows its lines so the reviewer reads what the model will.
 */
export function snapshotEntryFor(
  candidate: CandidateText,
  scope: SnapshotEntry['scope'],
  updatesEntryId: string | null = null,
): SnapshotEntry {
  const appliesWhen =
    candidate.appliesWhen === null ? null : singleLineText(candidate.appliesWhen, MEMORY_APPLIES_WHEN_MAX_CHARS);
  return {
    entryId: updatesEntryId ?? entryIdForCandidate(candidate.candidateId),
    scope,
    title: titleOf(candidate),
    appliesWhen: appliesWhen === '' ? null : appliesWhen,
    priority: Math.min(100, Math.max(0, Math.round(candidate.priority))),
    body: sanitizeBody(candidate.content),
    created: null,
  };
}
