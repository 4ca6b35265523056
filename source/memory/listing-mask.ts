// Listings mask what the secret lint finds: the first prompt of each session (`sessions`, the
// TUI's Sessions list), session search snippets (`search`), and `session <key>` unless it is asked
// to `--reveal`. Masking happens where the API builds its answer, so `--json`, the TUI and the text
// output are masked alike. Pure: text in, text out; every finding, warn or block, is masked (a
// listing is a summary, and a false positive costs a few characters of it).
import { lintText } from './secret-lint.js';
import { maskText, mergeSpans } from './secret-mask.js';

/** The text with every finding masked, and how many findings there were. */
export function maskSecrets(text: string): { text: string; masked: number } {
  const findings = lintText(text);
  return { text: findings.length === 0 ? text : maskText(text, findings), masked: findings.length };
}

/**
 * How much of a long text the first-line listing lints: the first line is cut far sooner, and the
 * lines after it are read too, so a token wrapped over the line end is still seen whole.
 */
const FIRST_LINE_LINT_CHARS = 4096;

/** The first line of `text`, masked, at most `maxChars` characters (cut with `…`). */
export function maskedFirstLine(text: string, maxChars: number): string {
  const head = maskSecrets(text.trim().slice(0, FIRST_LINE_LINT_CHARS)).text;
  const line = head.split('\n')[0]!;
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** The markers a snippet is made with so it can be matched back to its text: none occurs in ordinary text. */
export const SNIPPET_MARKS = { open: '\u0001', close: '\u0002', ellipsis: '\u0003' } as const;

/** How far around a snippet the lint reads, so a token or a keyword just outside the snippet is still seen. */
const SNIPPET_LINT_MARGIN = 2048;

/**
 * A search snippet with what the lint finds in its text masked. `marked` is the snippet made with
 * SNIPPET_MARKS (open/close around matched words, the ellipsis where the text was cut); the result
 * uses `[`, `]` and `…` as the plain snippet does. The snippet's words are found again in `body`,
 * the body is linted around them, and each finding's part inside the snippet is masked — a snippet
 * that starts in the middle of a token, or highlights a word inside one, shows none of it.
 */
export function maskSnippet(body: string, marked: string): string {
  const { open, close, ellipsis } = SNIPPET_MARKS;
  const plainMarks = (text: string) => text.replaceAll(open, '[').replaceAll(close, ']').replaceAll(ellipsis, '…');
  const lead = marked.startsWith(ellipsis) ? '…' : '';
  const trail = marked.length > 1 && marked.endsWith(ellipsis) ? '…' : '';
  const core = marked.slice(lead.length, marked.length - trail.length);
  // The snippet's own text, and where its highlight marks go in it.
  let plain = '';
  const marks: Array<{ at: number; mark: string }> = [];
  for (const char of core) {
    if (char === open || char === close) marks.push({ at: plain.length, mark: char === open ? '[' : ']' });
    else plain += char;
  }
  const start = plain.length === 0 ? -1 : body.indexOf(plain);
  if (start === -1) {
    // Not found again (the body holds a marker character itself): mask the snippet's own text.
    return plainMarks(maskSecrets(marked).text);
  }
  const from = Math.max(0, start - SNIPPET_LINT_MARGIN);
  const window = body.slice(from, start + plain.length + SNIPPET_LINT_MARGIN);
  const spans = mergeSpans(window, lintText(window))
    .map((span) => ({
      start: Math.max(span.start + from, start) - start,
      end: Math.min(span.end + from, start + plain.length) - start,
    }))
    .filter((span) => span.end > span.start);
  if (spans.length === 0) return plainMarks(marked);
  // Rebuilt left to right. A mark inside a masked span would split the mask: the highlight is
  // left as those marks leave it, said after the mask ("[Tr0u…[16 chars]]", never left open).
  const pieces: string[] = [lead];
  let at = 0;
  let next = 0;
  let highlighted = false;
  const marksUpTo = (end: number) => {
    while (next < marks.length && marks[next]!.at <= end) {
      const mark = marks[next]!;
      pieces.push(plain.slice(at, mark.at), mark.mark);
      highlighted = mark.mark === '[';
      at = mark.at;
      next += 1;
    }
  };
  for (const span of spans) {
    marksUpTo(span.start);
    pieces.push(
      plain.slice(at, span.start),
      maskText(plain.slice(span.start, span.end), [{ offset: 0, length: span.end - span.start }]),
    );
    at = span.end;
    let after: boolean = highlighted;
    for (; next < marks.length && marks[next]!.at < span.end; next += 1) after = marks[next]!.mark === '[';
    if (after !== highlighted) pieces.push(after ? '[' : ']');
    highlighted = after;
  }
  marksUpTo(plain.length);
  pieces.push(plain.slice(at), trail);
  return pieces.join('');
}
