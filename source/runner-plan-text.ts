// A pending runner plan as a person reads it before approving — where the bytes go, how many,
// what they cover — for `memory extract` and the Memory screen alike.
import type { PendingAuthorization, RunnerExecutionPlan } from './api/memory-runs.js';

/** Findings shown per plan; the rest are counted (`--json` lists them all). */
const FINDINGS_SHOWN_MAX = 10;

/** What the lint found in a plan's input (masked) and how many secrets the bytes carry as placeholders instead. */
function findingLines(plan: RunnerExecutionPlan): string[] {
  const findings = plan.inputFindings ?? [];
  if (findings.length === 0) return ['    secret lint: nothing found in these bytes'];
  const lines = [
    `    secret lint: ${findings.length} finding(s); ${plan.secretsReplaced} blocked secret(s) replaced by [secret:<rule>] before the digest, so these bytes do not hold them`,
  ];
  for (const finding of findings.slice(0, FINDINGS_SHOWN_MAX)) {
    const where = finding.turn ? `turn ${finding.turn}` : `${finding.source} ${finding.ref}`;
    const via = finding.transform ? ` (${finding.transform})` : '';
    lines.push(
      `      ${finding.severity} ${finding.rule}${via} in ${where} ${finding.line}:${finding.column} — ${finding.excerpt}${finding.replaced ? ` → [secret:${finding.rule}]` : ' (sent as is: a warning)'}`,
    );
  }
  if (findings.length > FINDINGS_SHOWN_MAX)
    lines.push(`      … ${findings.length - FINDINGS_SHOWN_MAX} more (--json lists them all)`);
  return lines;
}

export function planLines(p: PendingAuthorization): string[] {
  const first = p.plans[0]!;
  const lines = [
    // The digest given on a line of its own: a 64-digit word in the sentence broke it at 80 columns.
    ...(p.reason === 'digest-mismatch'
      ? [
          `The digest you gave does not match what the ${p.runner} runner would send now; nothing was sent.`,
          `  you gave ${p.given}`,
        ]
      : [`The ${p.runner} runner sends these bytes off this machine; nothing was sent yet.`]),
    `  provider ${first.provider}, model ${first.model}, endpoint ${first.endpoint}`,
    `  provider retention: ${first.providerRetention}; local session persistence: ${first.localSessionPersistence}`,
  ];
  for (const plan of p.plans) {
    const turns = plan.inputCoverage.filter((item) => item.sourceKind === 'transcript');
    const context = plan.inputCoverage.filter((item) => item.sourceKind === 'context');
    const contextBytes = context.reduce((sum, item) => sum + item.bytes, 0);
    if (plan.taskKind === 'consolidation') {
      const count = (kind: string) => plan.inputCoverage.filter((item) => item.sourceKind === kind).length;
      lines.push(
        `  consolidation ${plan.taskId}: ${plan.bytesToSend} bytes (sha256 ${plan.runnerInputDigest.slice(0, 16)}…), ${count('entry')} approved entries, ${count('scene')} scene(s)`,
        ...findingLines(plan),
        `    plan ${plan.planDigest}`,
      );
      continue;
    }
    lines.push(
      `  ${plan.taskKind} ${plan.taskId}: ${plan.bytesToSend} bytes (sha256 ${plan.runnerInputDigest.slice(0, 16)}…), ${turns.length} turn(s)${turns.some((t) => t.truncated) ? ', some truncated' : ''}${context.length > 0 ? `, ${context.length} earlier turn(s) as context (${contextBytes} bytes)` : ''}`,
    );
    lines.push(...findingLines(plan), `    plan ${plan.planDigest}`);
  }
  lines.push(
    `  total: ${p.manifest.totalBytes} bytes in ${p.plans.length} task(s); manifest ${p.manifest.manifestDigest}`,
  );
  return lines;
}

/**
 * What each label of planLines labels, with the label: phrases a text laid out in columns must not
 * break inside (a digest read without its "sha256" or "manifest", a count without its unit).
 */
export function planPhrases(p: PendingAuthorization): string[] {
  const first = p.plans[0]!;
  const phrases = [
    `provider ${first.provider}`,
    `model ${first.model}`,
    `endpoint ${first.endpoint}`,
    `provider retention: ${first.providerRetention}`,
    `local session persistence: ${first.localSessionPersistence}`,
    `you gave ${p.given}`,
    `${p.manifest.totalBytes} bytes`,
    `${p.plans.length} task(s)`,
    `manifest ${p.manifest.manifestDigest}`,
  ];
  for (const plan of p.plans) {
    const count = (kind: string) => plan.inputCoverage.filter((item) => item.sourceKind === kind).length;
    const contextBytes = plan.inputCoverage
      .filter((item) => item.sourceKind === 'context')
      .reduce((sum, item) => sum + item.bytes, 0);
    phrases.push(
      `${plan.taskKind} ${plan.taskId}:`,
      `${plan.bytesToSend} bytes`,
      `sha256 ${plan.runnerInputDigest.slice(0, 16)}…`,
      `${count('transcript')} turn(s)`,
      `some truncated`,
      `${count('context')} earlier turn(s) as context (${contextBytes} bytes)`,
      `${count('entry')} approved entries`,
      `${count('scene')} scene(s)`,
      `${(plan.inputFindings ?? []).length} finding(s);`,
      `${plan.secretsReplaced} blocked secret(s)`,
      `plan ${plan.planDigest}`,
    );
    for (const finding of plan.inputFindings ?? [])
      phrases.push(
        `${finding.severity} ${finding.rule}${finding.transform ? ` (${finding.transform})` : ''}`,
        finding.turn ? `in turn ${finding.turn}` : `in ${finding.source} ${finding.ref}`,
        `→ [secret:${finding.rule}]`,
        '(sent as is: a warning)',
        ...(finding.excerpt.match(/\S*\[\d+ chars\]/g) ?? []),
      );
  }
  return phrases;
}

/** Which digest approves exactly these plans (what `approveWith` names as a flag). */
export function approvalOf(p: PendingAuthorization): { approvePlan: string } | { approveManifest: string } {
  const [flag, digest] = p.approveWith.split(' ') as [string, string];
  return flag === '--approve-plan' ? { approvePlan: digest } : { approveManifest: digest };
}
