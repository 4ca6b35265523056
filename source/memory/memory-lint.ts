// Memory text lint: the one check every path into memory runs (candidate submit, `memory_propose`,
// prepare over a plan's exact bytes, `memory lint`). Two families with one finding shape: secrets
// (secret-lint.ts: masked excerpts, and masked in the text a person is shown) and poisoning
// (poison-lint.ts: text written to steer the model, shown as written with hidden characters
// labelled — it is not a secret, the reviewer must read it). A `block` finding of either family
// quarantines a candidate and refuses a plan.
import { lintPoisoning, type PoisonFinding } from './poison-lint.js';
import { lintText as lintSecrets, type SecretFinding } from './secret-lint.js';

export type MemoryFinding = SecretFinding | PoisonFinding;

/** What a finding shows a person or a script (position, rule, severity, masked excerpt, how it was read), without its offsets. */
export function findingView(f: MemoryFinding) {
  return {
    line: f.line,
    column: f.column,
    rule: f.rule,
    severity: f.severity,
    excerpt: f.excerpt,
    ...(f.transform === undefined ? {} : { transform: f.transform }),
  };
}

/** The excerpt with anything the secret lint finds in it masked: a last guard, never a secret in a poisoning excerpt. */
function guarded(excerpt: string): string {
  let out = excerpt;
  for (const found of lintSecrets(excerpt).sort((a, b) => b.offset - a.offset))
    out = `${out.slice(0, found.offset)}${found.excerpt}${out.slice(found.offset + found.length)}`;
  return out;
}

/**
 * Secret and poisoning findings of `text`, by position (then rule). A poisoning excerpt is the text
 * as written, except that every secret in or around it is masked.
 */
export function lintMemoryText(text: string): MemoryFinding[] {
  const secrets = lintSecrets(text);
  const poisoning = lintPoisoning(text, { secrets }).map((finding) => ({
    ...finding,
    excerpt: guarded(finding.excerpt),
  }));
  return [...secrets, ...poisoning].sort(
    (a, b) => a.offset - b.offset || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
}
