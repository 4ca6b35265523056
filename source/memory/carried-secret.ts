// A part of a wrapped secret carried into a draft. The lint finds a token wrapped over lines in the
// user's turn by joining its lines (`transform: wrapped`), but a runner drafts from one line, and a
// draft holding one line's part of the token matches no format rule (a documented prefix of the wrong
// shape is decided not to be reported): half a token would reach review unmasked, and a memory file.
// So the parts of each wrapped secret of the cited turns are looked for in the draft's text itself.
// Pure: the turns' findings come in, findings in the draft's text come out.
import type { SecretFinding } from './secret-lint.js';
import { maskSecret } from './secret-lint.js';
import { lineStarts, position } from './text-position.js';

/** A shorter part (a line's last few characters) is too likely to be an ordinary word of the draft. */
export const CARRIED_PART_MIN_CHARS = 8;

/**
 * Findings in `text` for each line's part (at least 8 characters) of a secret the lint found wrapped
 * over lines in one of the `sources` (`findings[i]` are `sources[i]`'s), except where a blocking
 * finding of the text itself already covers it. Each has the source finding's rule, severity `block`
 * and `transform: wrapped`, and spans the part in `text`, so masking hides it.
 */
export function carriedSecretFindings(
  text: string,
  sources: ReadonlyArray<{ text: string; findings: readonly SecretFinding[] }>,
  own: readonly SecretFinding[],
): SecretFinding[] {
  const covered = (offset: number, length: number) =>
    own.some((f) => f.severity === 'block' && f.offset < offset + length && offset < f.offset + f.length);
  const found: SecretFinding[] = [];
  let starts: number[] | undefined;
  for (const source of sources)
    for (const finding of source.findings) {
      if (finding.severity !== 'block' || !finding.transform?.split('+').includes('wrapped')) continue;
      const span = source.text.slice(finding.offset, finding.offset + finding.length);
      // Lines apart, or string literals concatenated over a line break ("…"\n  + "…").
      for (const part of span.split(/[\s"'`]+/)) {
        if (part.length < CARRIED_PART_MIN_CHARS) continue;
        for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
          if (covered(at, part.length) || found.some((f) => f.offset === at && f.length === part.length)) continue;
          starts ??= lineStarts(text);
          found.push({
            rule: finding.rule,
            severity: 'block',
            ...position(starts, at),
            offset: at,
            length: part.length,
            excerpt: maskSecret(part),
            transform: 'wrapped',
          });
        }
      }
    }
  return found.sort((a, b) => a.offset - b.offset);
}
