// `memory consolidate [--scope project|user] [--runner NAME]`: a consolidation task over one
// scope's approved entries, run by the built-in runner or — with --runner — by a profile of
// runners.json once its plan (the exact bytes) is approved by digest; its patch waits in
// `memory review` as one item. No file in the memory root changes.
import { type MemoryConsolidateResult, proposedNothing } from '../../api/memory-views.js';
import { refuseConsolidation } from '../../client/memory-refusals.js';
import { CmError, EXIT } from '../../errors.js';
import { fitLines, type Output } from '../output.js';
import { approvalText } from './memory-extract.js';
import { digestFlag } from '../parse.js';
import { patchLines, patchPhrases } from './patch-lines.js';
import { scopeOption, withWrite } from './promote.js';
import { counted } from '../../ground/count-text.js';

/** What the memory lint found in the patch's texts: a blocked operation was left out of it. */
function findingLines(result: MemoryConsolidateResult): string[] {
  const lines = result.findings.map(
    (f) =>
      `  ! ${f.operation} ${f.field}:${f.line}:${f.column} ${f.severity} ${f.rule}${f.transform ? ` (${f.transform})` : ''} ${f.excerpt}`,
  );
  if (result.blocked > 0)
    lines.unshift(
      `${result.blocked} operation(s) left out: their text holds a secret or an instruction to the model (never stored)`,
    );
  return lines;
}

/**
 * The files the task could not take in (a malformed entry or scene, a lint-blocked scene, a FIFO):
 * --json has them in `problems`; the text must say so too, or "nothing to propose" reads as a
 * verdict over every file when some were never read.
 */
function problemLines(result: MemoryConsolidateResult): string[] {
  if (result.problems.length === 0) return [];
  return [
    ...result.problems.map((problem) => `left out: ${problem}`),
    'fix or remove the files left out, then run memory consolidate again (memory sync lists each problem)',
  ];
}

/**
 * Where the unchanged task's patch is now: a prepared patch has left memory review (it waits as
 * its plan), so "in memory review" would send the person to a list that does not show it.
 */
function whereThePatchIs(result: MemoryConsolidateResult): string {
  const patch = result.patch;
  if (patch?.status === 'prepared' && patch.planId)
    return `its patch was prepared as plan ${patch.planId} (memory plan ${patch.planId}); memory prepare ${patch.taskId} prepares it again`;
  if (patch?.status === 'applied' && patch.planId) return `its patch was applied by plan ${patch.planId}`;
  return 'its patch is in memory review';
}

function resultText(result: MemoryConsolidateResult): string {
  // At 80 columns, the commands kept whole and each id with its label; a runner's plan is laid out already.
  const planId = result.patch?.planId;
  // A longer phrase before one it holds: joined first, the shorter would leave it breakable.
  const keep = [
    ...(result.patch ? patchPhrases(result.patch) : []),
    ...(planId ? [`(memory plan ${planId});`, `plan ${planId}`] : []),
    `consolidation ${result.taskId}`,
    `memory prepare ${result.taskId}`,
  ];
  const outcome = outcomeText(result);
  const lines = [result.pendingPlan ? outcome : fitLines(outcome, '  ', keep)];
  const problems = problemLines(result);
  if (problems.length > 0) lines.push(fitLines(problems.join('\n')));
  return lines.join('\n');
}

/** "1 approved entry", "3 approved entries". */
const approved = (count: number): string => counted(count, 'approved entry', 'approved entries');

function outcomeText(result: MemoryConsolidateResult): string {
  if (result.pendingPlan) return approvalText(result.pendingPlan, 'common-memory memory consolidate');
  // No id is handed out: memory prepare and memory patch of it would find no patch.
  if (proposedNothing(result))
    return [
      result.entries === 0
        ? `no approved entries in the ${result.scope} memory: nothing to consolidate`
        : `consolidated ${approved(result.entries)}: nothing to propose, so no patch was kept`,
      ...findingLines(result),
    ].join('\n');
  switch (result.outcome) {
    case 'stale':
      return `consolidation of ${counted(result.entries, 'entry', 'entries')} was refused: ${result.reason}`;
    case 'rejected':
      return `consolidation ${result.taskId} by ${result.runner} kept nothing: ${result.reason}`;
    case 'pending':
      return `consolidation task ${result.taskId} over ${approved(result.entries)} is waiting; memory consolidate runs it`;
    case 'unchanged':
      return [
        `the ${approved(result.entries)} ${result.entries === 1 ? 'is' : 'are'} unchanged since consolidation ${result.taskId}; ${whereThePatchIs(result)}`,
        ...(result.patch ? patchLines(result.patch) : []),
      ].join('\n');
    default:
      return [
        `consolidated ${approved(result.entries)}; the patch waits in memory review (nothing in the memory root changed)`,
        ...findingLines(result),
        ...(result.patch ? patchLines(result.patch) : []),
      ].join('\n');
  }
}

export interface ConsolidateFlags {
  scope?: string | undefined;
  runner?: string | undefined;
  approvePlan?: string | undefined;
  approveManifest?: string | undefined;
}

export async function memoryConsolidate(home: string, flags: ConsolidateFlags, out: Output): Promise<number> {
  const approvePlan = digestFlag(flags.approvePlan, '--approve-plan');
  const approveManifest = digestFlag(flags.approveManifest, '--approve-manifest');
  if (approvePlan !== undefined && approveManifest !== undefined)
    throw new CmError('usage', 'Give --approve-plan or --approve-manifest, not both.');
  const request = {
    scope: scopeOption(flags.scope),
    cwd: process.cwd(),
    ...(flags.runner === undefined ? {} : { runner: flags.runner }),
    ...(approvePlan === undefined ? {} : { approvePlan }),
    ...(approveManifest === undefined ? {} : { approveManifest }),
  };
  // Refused before the lease is taken, which creates memory-state.
  refuseConsolidation(home, request);
  const result = await withWrite(home, (app) => app.memoryConsolidate(request));
  out.result(result, () => resultText(result));
  if (result.pendingPlan) return EXIT.authorisationNeeded;
  if (result.outcome === 'rejected') return EXIT.incomplete;
  return result.outcome === 'stale' ? EXIT.conflict : EXIT.ok;
}
