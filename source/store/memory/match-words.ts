// How a scene or a doctrine matches a search: the query's words of three letters or more (common
// words aside), each matching when it begins a word of the text, folded as search folds. Pure and
// zod-free: the snapshot's doctrine read, on the hook's path, shares the module with search.
import { foldForMatch } from '../../memory/visible-text.js';

/** Words too common to say anything of a scene. */
const STOP = new Set(['the', 'and', 'for', 'with', 'when', 'how', 'what', 'this', 'that', 'from', 'into']);

const wordsOf = (text: string): string[] =>
  [...text]
    .map(foldForMatch)
    .join('')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);

/** The words of a query a scene or doctrine is matched on: three letters or more, common words aside. */
export const queryTerms = (query: string): string[] => [
  ...new Set(wordsOf(query).filter((word) => word.length >= 3 && !STOP.has(word))),
];

/** How many of `terms` begin a word of `text`; null when fewer than half of them do (no match). */
export function matchScore(terms: readonly string[], text: string): number | null {
  const words = wordsOf(text);
  const score = terms.filter((term) => words.some((word) => word.startsWith(term))).length;
  return score < Math.ceil(terms.length / 2) ? null : score;
}
