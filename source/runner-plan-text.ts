// A pending runner plan as a person reads it before approving — where the bytes go, how many,
// what they cover — for `memory extract` and the Memory screen alike.
import type { PendingAuthorization, RunnerExecutionPlan } from './api/memory-runs.js';

/** Findings shown per plan; the rest are counted (`--json` lists them all). */
const FINDINGS_SHOWN_MAX = 10;

/**
 * A plan's text and the phrases in it a text laid out in columns must not break inside: a label with
 * what it labels (a digest read without its "sha256" or "manifest", a count without its unit). Each
 * phrase is marked where it is written, so the two cannot drift apart.
 */
function planText(p: PendingAuthorization): { lines: string[]; phrases: string[] } {
  const phrases: string[] = [];
  const kept = (phrase: string): string => {
    phrases.push(phrase);
    return phrase;
  };

  /** What the lint found in a plan's input (masked) and how many secrets the bytes carry as placeholders instead. */
  const findingLines = (plan: RunnerExecutionPlan): string[] => {
    const findings = plan.inputFindings ?? [];
    if (findings.length === 0) return ['    secret lint: nothing found in these bytes'];
    const lines = [
      `    secret lint: ${kept(`${findings.length} finding(s);`)} ${kept(`${plan.secretsReplaced} blocked secret(s)`)} replaced by [secret:<rule>] before the digest, so these bytes do not hold them`,
    ];
    for (const finding of findings.slice(0, FINDINGS_SHOWN_MAX)) {
      const where = kept(finding.turn ? `in turn ${finding.turn}` : `in ${finding.source} ${finding.ref}`);
      const via = finding.transform ? ` (${finding.transform})` : '';
      phrases.push(...(finding.excerpt.match(/\S*\[\d+ chars\]/g) ?? []));
      lines.push(
        `      ${kept(`${finding.severity} ${finding.rule}${via}`)} ${where} ${finding.line}:${finding.column} — ${finding.excerpt}${finding.replaced ? ` ${kept(`→ [secret:${finding.rule}]`)}` : ` ${kept('(sent as is: a warning)')}`}`,
      );
    }
    if (findings.length > FINDINGS_SHOWN_MAX)
      lines.push(`      … ${findings.length - FINDINGS_SHOWN_MAX} more (--json lists them all)`);
    return lines;
  };

  const first = p.plans[0]!;
  const lines = [
    // The digest given on a line of its own: a 64-digit word in the sentence broke it at 80 columns.
    ...(p.reason === 'digest-mismatch'
      ? [
          `The digest you gave does not match what the ${p.runner} runner would send now; nothing was sent.`,
          `  ${kept(`you gave ${p.given}`)}`,
        ]
      : [`The ${p.runner} runner sends these bytes off this machine; nothing was sent yet.`]),
    `  ${kept(`provider ${first.provider}`)}, ${kept(`model ${first.model}`)}, ${kept(`endpoint ${first.endpoint}`)}`,
    `  ${kept(`provider retention: ${first.providerRetention}`)}; ${kept(`local session persistence: ${first.localSessionPersistence}`)}`,
  ];
  for (const plan of p.plans) {
    const turns = plan.inputCoverage.filter((item) => item.sourceKind === 'transcript');
    const context = plan.inputCoverage.filter((item) => item.sourceKind === 'context');
    const contextBytes = context.reduce((sum, item) => sum + item.bytes, 0);
    const head = `  ${kept(`${plan.taskKind} ${plan.taskId}:`)} ${kept(`${plan.bytesToSend} bytes`)} (${kept(`sha256 ${plan.runnerInputDigest.slice(0, 16)}…`)})`;
    if (plan.taskKind === 'consolidation') {
      const count = (kind: string) => plan.inputCoverage.filter((item) => item.sourceKind === kind).length;
      lines.push(
        `${head}, ${kept(`${count('entry')} approved entries`)}, ${kept(`${count('scene')} scene(s)`)}`,
        ...findingLines(plan),
        `    ${kept(`plan ${plan.planDigest}`)}`,
      );
      continue;
    }
    lines.push(
      `${head}, ${kept(`${turns.length} turn(s)`)}${turns.some((t) => t.truncated) ? `, ${kept('some truncated')}` : ''}${context.length > 0 ? `, ${kept(`${context.length} earlier turn(s) as context (${contextBytes} bytes)`)}` : ''}`,
    );
    lines.push(...findingLines(plan), `    ${kept(`plan ${plan.planDigest}`)}`);
  }
  lines.push(
    `  total: ${kept(`${p.manifest.totalBytes} bytes`)} in ${kept(`${p.plans.length} task(s)`)}; ${kept(`manifest ${p.manifest.manifestDigest}`)}`,
  );
  return { lines, phrases };
}

export const planLines = (p: PendingAuthorization): string[] => planText(p).lines;

/** The phrases of planLines' text never to break inside when it is laid out in columns. */
export const planPhrases = (p: PendingAuthorization): string[] => planText(p).phrases;

/** Which digest approves exactly these plans (what `approveWith` names as a flag). */
export function approvalOf(p: PendingAuthorization): { approvePlan: string } | { approveManifest: string } {
  const [flag, digest] = p.approveWith.split(' ') as [string, string];
  return flag === '--approve-plan' ? { approvePlan: digest } : { approveManifest: digest };
}
