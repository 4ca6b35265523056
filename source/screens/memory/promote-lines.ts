// The Prepare & promote screen's text: the chosen candidates and scope, the plan (its files and the
// unified diff, line for line), and the result — for a voided plan, which target changed and what
// to do. Wrapped to the screen, never cut: a diff line wider than the screen continues below it.
import type { PromoteState } from './promote-state.js';
import type { PreparedPlan, PromoteResult } from './promotion-methods.js';
import { type ScreenLine, splitLine, wrapLines, idLabel } from './wrap-lines.js';

const fileCount = (count: number) => `${count} file${count === 1 ? '' : 's'}`;

export function chooseLines(state: PromoteState, columns: number): ScreenLine[] {
  if (state.chosen.length === 0)
    return wrapLines(
      'No candidates chosen. On Review, mark candidates with m (or select one), then press p to bring them here.',
      columns,
      'muted',
    );
  const lines: ScreenLine[] = wrapLines(
    `${state.chosen.length} candidate${state.chosen.length === 1 ? '' : 's'} to promote into the ${state.scope} memory root (${state.scope === 'project' ? "this worktree's .common-memory/memory, committed with git" : 'your user memory, for every repository'}):`,
    columns,
    'heading',
  );
  for (const chosen of state.chosen)
    lines.push(...wrapLines(`${idLabel(chosen.candidateId)}  ${chosen.label}`, columns, 'text', '          '));
  return lines;
}

function diffTone(line: string): ScreenLine['tone'] {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@')) return 'muted';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'text';
}

export function planLines(plan: PreparedPlan, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = wrapLines(
    `Plan ${idLabel(plan.planId)} · digest ${plan.planDigest.slice(0, 16)}… · ${fileCount(plan.files.length)}`,
    columns,
    'heading',
  );
  for (const file of plan.files)
    lines.push(
      ...wrapLines(
        `${file.targetBlobHash === null ? 'new     ' : 'changed '} ${file.path}${file.targetBlobHash === null ? '' : ` (now blob ${file.targetBlobHash.slice(0, 10)})`}`,
        columns,
        'text',
        '  ',
      ),
    );
  lines.push({ text: '', tone: 'muted' });
  const diff = plan.diff.replace(/\n$/, '');
  for (const line of diff === '' ? [] : diff.split('\n'))
    for (const piece of splitLine(line.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' '), columns))
      lines.push({ text: piece, tone: diffTone(line) });
  return lines;
}

function fileOutcome(file: PromoteResult['files'][number]): string {
  const outcome = typeof file.outcome === 'string' ? file.outcome : typeof file.status === 'string' ? file.status : '';
  return outcome ? `${outcome.padEnd(9)} ${file.path}` : file.path;
}

export function resultLines(result: PromoteResult, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = [];
  if (result.status === 'applied') {
    lines.push(
      ...wrapLines(
        `Promoted: plan ${idLabel(result.planId)} applied, ${fileCount(result.files.length)} with exactly the approved bytes.`,
        columns,
        'ok',
      ),
    );
    for (const file of result.files) lines.push(...wrapLines(fileOutcome(file), columns, 'text', '  '));
    lines.push(
      ...wrapLines(
        'The files are in the memory root; common-memory never commits: review them with git status and commit them yourself.',
        columns,
        'muted',
      ),
    );
    return lines;
  }
  lines.push(...wrapLines(`Plan ${idLabel(result.planId)} was voided: nothing more was written.`, columns, 'error'));
  if (typeof result.reason === 'string') lines.push(...wrapLines(result.reason, columns, 'text', '  '));
  for (const file of result.files) lines.push(...wrapLines(fileOutcome(file), columns, 'text', '  '));
  lines.push(
    ...wrapLines(
      'A target file changed after the plan was prepared (edited by hand, or by another promotion), so the approved bytes no longer apply to it. Look at that file, then press Enter to prepare a new plan from the same candidates and read its diff again.',
      columns,
      'muted',
    ),
  );
  return lines;
}
