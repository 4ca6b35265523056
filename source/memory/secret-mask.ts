// The one way a text is shown or sent with its secrets hidden. Every path that masks (candidate
// submit, proposals, the review screens, listings, runner input) goes through `maskText`, so a
// fix here is a fix everywhere. Pure: a text and findings in, a string out.
//
// Why rebuild instead of splicing: splicing replacements one by one into a string that has
// already changed length moves every later position, and two findings that overlap (a token and a
// finding inside it, as a lint that sees through disguises may report) would mask the wrong
// characters and leave part of the token whole. Here the spans are merged first (overlapping or
// touching ones become one), sorted, and the output is built left to right from the ORIGINAL
// text, so no position is ever read from a string that was already rewritten.
import { maskSecret } from './secret-lint.js';

/** What masking needs of a finding: where it is in the original text (UTF-16 code units). */
export interface MaskSpan {
  offset: number;
  length: number;
}

/** A merged span of the original text and the findings it covers (in order of position). */
export interface MergedSpan<F extends MaskSpan> {
  start: number;
  end: number;
  findings: F[];
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The findings' spans clipped to the text, widened so that none cuts a surrogate pair in two, then
 * merged when they overlap or touch; sorted by position. Empty or out-of-range findings are dropped.
 */
export function mergeSpans<F extends MaskSpan>(text: string, findings: readonly F[]): MergedSpan<F>[] {
  const spans: MergedSpan<F>[] = [];
  for (const finding of findings) {
    if (!Number.isFinite(finding.offset) || !Number.isFinite(finding.length)) continue;
    let start = Math.max(0, Math.min(text.length, Math.floor(finding.offset)));
    let end = Math.max(start, Math.min(text.length, Math.ceil(finding.offset + finding.length)));
    if (end === start) continue;
    if (start > 0 && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1))) start -= 1;
    if (end < text.length && isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1))) end += 1;
    spans.push({ start, end, findings: [finding] });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: MergedSpan<F>[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      last.findings.push(...span.findings);
    } else merged.push({ ...span, findings: [...span.findings] });
  }
  return merged;
}

/**
 * `text` with every finding's span replaced, built left to right from the original: merged spans
 * (see `mergeSpans`) each become `replacement(secret, findings)` — by default the secret's masked
 * form (`maskSecret`: at most its first four characters, then its length).
 */
export function maskText<F extends MaskSpan>(
  text: string,
  findings: readonly F[],
  replacement: (secret: string, findings: readonly F[]) => string = (secret) => maskSecret(secret),
): string {
  if (findings.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const span of mergeSpans(text, findings)) {
    parts.push(text.slice(at, span.start), replacement(text.slice(span.start, span.end), span.findings));
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
