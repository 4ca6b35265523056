// Which kind a lint finding is, by its rule's name: apart from the lint itself (memory-lint.ts), so
// that code which only sorts findings — the review's lines, a plan's summary — never loads the rules.

/** Poisoning rules are named `poison-…`; every other rule is a secret rule. */
export const isPoisonRule = (rule: string): boolean => rule.startsWith('poison-');

/** Secret findings only: the ones whose spans are masked wherever the text is shown or stored masked. */
export const secretFindings = <T extends { rule: string }>(findings: readonly T[]): T[] =>
  findings.filter((finding) => !isPoisonRule(finding.rule));
