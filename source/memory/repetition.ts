// Repetition is evidence: a statement the user makes in two or more sessions of one scope is worth
// a candidate even when nothing in its words marks it as a rule. This module is pure: it picks the
// sentences of user turns that could be such a statement, recognises them again in other turns
// (equal after the same normalisation de-duplication uses), and drafts the candidate that cites
// every occurrence. Finding the other turns (session search) and submitting the draft are the
// extraction orchestrator's.
import { contentWordCount, normalizeStatement } from './adjudication-rules.js';
import { FORMATS, type DraftBatch, type ExtractionTask } from './contracts.js';

/** Statements of one run looked up in session search: a bound on the queries one run makes (each is an FTS5 AND query; 16 keeps a run of the extraction bench at ~1,100 turns/s). */
export const REPETITION_STATEMENTS_MAX = 16;
/** Session-search hits read per statement, first indexed first: the earliest occurrences are what a draft cites. */
export const REPETITION_HITS_MAX = 24;
/** Occurrences one repetition draft cites (the earliest ones): enough to show the habit. */
export const REPETITION_OCCURRENCES_MAX = 8;
/** Sessions that must say it: twice is a habit, once is a remark. */
export const REPETITION_SESSIONS_MIN = 2;

const SENTENCE_CHARS = { min: 12, max: 240 };
const SENTENCE_WORDS = { min: 3, max: 40 };

// Openings of what is said to the agent about the task at hand, or to keep the conversation
// going — repeated often, durable never.
const CHATTER =
  /^(?:thanks|thank you|thx|ok|okay|great|cool|nice|perfect|awesome|sounds good|looks good|lgtm|yes|yep|no problem|hi|hello|hey|good (?:morning|afternoon|evening)|sure|please continue|continue|go ahead|carry on)\b/i;
const REQUEST =
  /^(?:please\s+)?(?:can|could|would|will)\s+you\b|^(?:please\s+)?(?:fix|debug|look|check|show|explain|help|investigate|continue|retry|rerun|try|review|open|read|summari[sz]e|tell)\b/i;

/** Lines of a user turn that are prose, not pasted material (code, logs, traces, tables, quotes). */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^\s{2,}|^\t|^\s*[>|$#]|^\s*at\s+\S+\s*\(|[{};]\s*$|^\s*[\w.]+(?:Error|Exception):/.test(line))
      continue;
    if (line.length > 2_000) continue;
    lines.push(line.trim());
  }
  return lines;
}

/** The sentences of a user turn's prose, trimmed; bounded by the turn's own length. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const line of proseLines(text))
    for (const sentence of line.split(/(?<=[.!?])\s+(?=\S)/)) {
      const trimmed = sentence.trim();
      if (trimmed !== '') sentences.push(trimmed);
    }
  return sentences;
}

/** Whether a sentence could be a durable statement if said again elsewhere: prose, not a question, chatter or a request. */
export function repeatable(sentence: string): boolean {
  if (sentence.length < SENTENCE_CHARS.min || sentence.length > SENTENCE_CHARS.max) return false;
  if (/\?\s*$/.test(sentence) || CHATTER.test(sentence) || REQUEST.test(sentence)) return false;
  const words = sentence.split(/\s+/).length;
  if (words < SENTENCE_WORDS.min || words > SENTENCE_WORDS.max) return false;
  const letters = (sentence.match(/\p{L}/gu) ?? []).length;
  if (letters / sentence.length < 0.6) return false;
  return contentWordCount(sentence) >= 2;
}

export interface RepeatableStatement {
  /** The key occurrences are recognised by: the statement as de-duplication normalises it. */
  normalized: string;
  /** The words as said (the smallest wording in code-point order, when said in several). */
  text: string;
}

/** The repeatable statements of some user turns, one per normalised form, in normalised order, at most `max`. */
export function repeatableStatements(
  texts: readonly string[],
  max: number = REPETITION_STATEMENTS_MAX,
): RepeatableStatement[] {
  const byKey = new Map<string, string>();
  for (const text of texts)
    for (const sentence of sentencesOf(text)) {
      if (!repeatable(sentence)) continue;
      const normalized = normalizeStatement(sentence);
      const known = byKey.get(normalized);
      if (known === undefined || sentence < known) byKey.set(normalized, sentence);
    }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, max)
    .map(([normalized, text]) => ({ normalized, text }));
}

/** The sentences of `text` by their normalised form (the first wording of each). */
export function normalizedSentences(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const sentence of sentencesOf(text)) {
    const normalized = normalizeStatement(sentence);
    if (!out.has(normalized)) out.set(normalized, sentence);
  }
  return out;
}

/** The sentence of `text` that says `normalized` again, or null. */
export function occurrenceIn(text: string, normalized: string): string | null {
  return normalizedSentences(text).get(normalized) ?? null;
}

export interface Occurrence {
  sessionKey: string;
  turnKey: string;
  recordedAtMs: number;
}

/**
 * The occurrences a repetition draft cites: none unless they span REPETITION_SESSIONS_MIN sessions;
 * otherwise the earliest (by time, then turn key), one per turn, at most REPETITION_OCCURRENCES_MAX,
 * always including a second session's.
 */
export function repetitionOccurrences<T extends Occurrence>(occurrences: readonly T[]): T[] {
  const seen = new Set<string>();
  const ordered = [...occurrences]
    .sort((a, b) => a.recordedAtMs - b.recordedAtMs || (a.turnKey < b.turnKey ? -1 : a.turnKey > b.turnKey ? 1 : 0))
    .filter((o) => {
      const key = `${o.sessionKey}\0${o.turnKey}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  if (new Set(ordered.map((o) => o.sessionKey)).size < REPETITION_SESSIONS_MIN) return [];
  const chosen = ordered.slice(0, REPETITION_OCCURRENCES_MAX);
  if (new Set(chosen.map((o) => o.sessionKey)).size < REPETITION_SESSIONS_MIN) {
    const other = ordered.find((o) => o.sessionKey !== chosen[0]!.sessionKey)!;
    chosen[chosen.length - 1] = other;
  }
  return chosen;
}

/** The draft batch of a repetition task: the statement, citing every user turn of its chunk. */
export function repetitionDraftBatch(task: ExtractionTask, statement: string): DraftBatch {
  return {
    format: FORMATS.draftBatch,
    taskId: task.taskId,
    binding: task.binding,
    candidates: [
      {
        content: statement,
        type: 'work_fact',
        priority: 50,
        confidence: 'medium',
        scene: null,
        statements: [
          { statementId: 's1', text: statement, evidenceIds: task.evidenceCatalog.map((entry) => entry.evidenceId) },
        ],
      },
    ],
  };
}
