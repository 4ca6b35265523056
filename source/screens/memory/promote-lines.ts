// The Prepare & promote screen's text: the scope chooser's options, the chosen candidates, the plan (its files and the
// unified diff, line for line, hidden characters shown as ⟨U+XXXX⟩), and the result — for a voided plan, which target changed and what
// to do. Wrapped to the screen, never cut: a diff line wider than the screen continues below it.
import type { ChooserOption } from '../widgets/chooser.js';
import { type ChosenCandidate, type PromoteState, scopesFor } from './promote-state.js';
import type { MemoryPlanFileView, MemoryPlanView, MemoryPromoteResult } from '../../api/memory-views.js';
import { type ScreenLine, splitLine, wrapLines, idLabel } from './wrap-lines.js';
import { visibleText } from '../../memory/visible-text.js';
import { counted } from '../../ground/count-text.js';

/** The scope chooser's options, those the candidates can go to (scopesFor): where each memory root is and who reads it. */
export function scopeOptions(chosen: readonly ChosenCandidate[]): ChooserOption[] {
  const repositories = [...new Set(chosen.flatMap((item) => (item.repository ? [item.repository] : [])))];
  const where = repositories.length === 1 ? `${repositories[0]}'s` : "each candidate's repository's";
  return scopesFor(chosen).map((scope) => ({
    label:
      scope === 'project'
        ? `project · ${where} .common-memory/memory, committed with git`
        : 'user · your own memory, read in every repository',
  }));
}

export function chooseLines(state: PromoteState, columns: number): ScreenLine[] {
  if (state.patch)
    return wrapLines(
      `Consolidation patch ${state.patch.taskId}: operations ${state.patch.operations.join(', ')} of ${state.patch.count}. Enter prepares their plan again.`,
      columns,
      'heading',
    );
  if (state.retire)
    return wrapLines(
      `Retire entry ${state.retire.entryId} (${state.retire.title}) from the ${state.retire.scope} memory root: Enter prepares its retirement plan again.`,
      columns,
      'heading',
    );
  if (state.chosen.length === 0)
    return wrapLines(
      'No candidates chosen. On Review, mark candidates with m (or select one), then press p to bring them here.',
      columns,
      'muted',
    );
  // Each candidate goes into its own repository, whatever directory the TUI runs in.
  const repositories = [...new Set(state.chosen.map((chosen) => chosen.repository ?? 'the user scope'))];
  const root =
    state.scope === 'project'
      ? `${repositories.length === 1 ? `${repositories[0]}'s` : "each repository's"} .common-memory/memory, which you commit with git`
      : 'your own memory, read in every repository';
  const lines: ScreenLine[] = wrapLines(
    `${state.chosen.length} candidate${state.chosen.length === 1 ? '' : 's'} to promote into the ${state.scope} memory root (${root}):`,
    columns,
    'heading',
  );
  for (const chosen of state.chosen)
    lines.push(
      ...wrapLines(`  ${idLabel(chosen.candidateId)}  ${chosen.label}`, columns, 'text', ' '.repeat(17), true),
    );
  // Why the chooser offers one scope (scopesFor): said here, not left to prepare's refusal.
  if (scopesFor(state.chosen).length === 1)
    lines.push(
      ...wrapLines(
        `${state.chosen.length === 1 ? 'It was' : 'One of them was'} made outside any git worktree: it has no repository's memory to go into, so only the user scope is offered.`,
        columns,
        'muted',
      ),
    );
  return lines;
}

function diffTone(line: string): ScreenLine['tone'] {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('@@')) return 'muted';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'text';
}

function fileLine(file: MemoryPlanFileView): string {
  const what =
    file.action === 'create'
      ? 'new file'
      : file.action === 'remove'
        ? `REMOVED, blob ${file.targetBlobHash?.slice(0, 10) ?? ''}`
        : `changes blob ${file.targetBlobHash?.slice(0, 10) ?? ''}`;
  return `${file.path} (${what}, ${file.bytes} bytes)`;
}

export function planLines(plan: MemoryPlanView, columns: number): ScreenLine[] {
  const lines: ScreenLine[] = wrapLines(
    `${counted(plan.files.length, 'file')} in the ${plan.scope} memory root`,
    columns,
    'heading',
  );
  lines.push(...wrapLines(`digest ${plan.planDigest} (approval binds exactly these bytes)`, columns, 'muted'));
  const carried = plan.consolidation;
  if (carried)
    lines.push(
      ...wrapLines(
        `consolidation patch ${carried.taskId}: operations ${carried.operations.map((o) => o.number).join(', ')}${carried.leftOut.length > 0 ? `; left out: ${carried.leftOut.join(', ')}` : '; none left out'}`,
        columns,
        'text',
      ),
    );
  for (const file of plan.files) {
    lines.push(...wrapLines(fileLine(file), columns, 'text', '    '));
    for (const finding of file.findings)
      lines.push(
        ...wrapLines(
          `${finding.severity} ${finding.rule} at ${finding.line}:${finding.column} — ${finding.excerpt}`,
          columns,
          'muted',
          '    ',
        ),
      );
  }
  lines.push({ text: '', tone: 'muted' });
  const diff = plan.diff.replace(/\n$/, '');
  // A diff line wider than the screen continues under "↪", so a continuation is never read as a line of the file.
  for (const line of diff === '' ? [] : diff.split('\n'))
    for (const piece of splitLine(visibleText(line).replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' '), columns, '↪ '))
      lines.push({ text: piece, tone: diffTone(line) });
  return lines;
}

const STATE_WORDS: Record<MemoryPlanFileView['state'], string> = {
  pending: 'not written',
  written: 'written',
  skipped: 'skipped (it already held the approved bytes, or was removed already)',
  drifted: 'CHANGED since the plan was prepared: not written',
  removed: 'removed',
};

/** A removal (a retirement, a merged entry) writes nothing: what did not happen to it is "not removed". */
const REMOVAL_WORDS: Partial<Record<MemoryPlanFileView['state'], string>> = {
  pending: 'not removed',
  drifted: 'CHANGED since the plan was prepared: not removed',
};

const stateWords = (file: MemoryPlanFileView): string =>
  (file.action === 'remove' ? REMOVAL_WORDS[file.state] : undefined) ?? STATE_WORDS[file.state];

/** Where a write stands: "2 of 3 files done", from the plan as the journal holds it. */
export function progressText(plan: MemoryPlanView): string {
  const done = plan.files.filter(
    (file) => file.state === 'written' || file.state === 'skipped' || file.state === 'removed',
  ).length;
  return `${done} of ${counted(plan.files.length, 'file')} done`;
}

/** Where a retired file's text stays (the retire plan's history): git keeps only what a commit holds. */
function retiredTextStays(result: MemoryPromoteResult, history: MemoryPlanView['history']): string {
  const inPlan = `its text stays only in plan ${idLabel(result.planId)}`;
  // The user memory is in the data home, in no repository unless the home is in one (dotfiles).
  const inRepository = history !== undefined && history !== 'none' && history !== 'unknown';
  if (result.scope !== 'project' && !inRepository)
    return `It is no longer given or found in any repository of yours; ${inPlan}.`;
  const change =
    result.scope === 'project'
      ? 'It is no longer given or found. The removal is a change in this worktree: commit it with git'
      : 'It is no longer given or found in any repository of yours. The removal is a change in the repository that holds your data home: commit it with git';
  if (history === 'committed') return `${change}, which keeps the file in its history.`;
  if (history === 'changed') return `${change}. git keeps its last committed version; the changes since: ${inPlan}.`;
  if (history === 'uncommitted') return `${change}. The file was never committed: ${inPlan}.`;
  return `${change}. The plan keeps its text (memory plan ${idLabel(result.planId)}).`;
}

/** The result of a promote; `history` is the retire plan's, where a retired file's text stays. */
export function resultLines(
  result: MemoryPromoteResult,
  columns: number,
  history?: MemoryPlanView['history'],
): ScreenLine[] {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  const files = () => {
    for (const file of result.files)
      add(`${stateWords(file)}: ${file.path}`, file.state === 'drifted' ? 'error' : 'text', '    ');
  };
  const retirement = result.files.every((file) => file.action === 'remove');
  // Applied by an earlier run (another TUI, a memory promote, the run a failed write turned out to
  // finish): the files' states are that run's, so none is shown as this one's — as the CLI says.
  if (result.status === 'applied' && result.alreadyApplied) {
    add(
      `Plan ${idLabel(result.planId)} was already promoted: this run ${retirement ? 'removed' : 'wrote'} nothing.`,
      'ok',
    );
    for (const file of result.files)
      add(`${file.action === 'remove' ? 'removed, as approved' : 'as approved'}: ${file.path}`, 'text', '    ');
    return lines;
  }
  if (result.status === 'applied' && retirement) {
    add(`Retired: plan ${idLabel(result.planId)} removed the entry's file from the ${result.scope} memory root.`, 'ok');
    files();
    add(retiredTextStays(result, history), 'muted');
    return lines;
  }
  if (result.status === 'applied') {
    add(`Promoted: plan ${idLabel(result.planId)} applied to the ${result.scope} memory root.`, 'ok');
    files();
    if (result.sync)
      add(
        `Approved memory: ${counted(result.sync.entries, 'entry', 'entries')} · generation ${result.sync.generation} · coverage ${result.sync.coverage}`,
        'text',
      );
    add(
      result.scope === 'project'
        ? "The files are in this worktree's .common-memory/memory. common-memory never commits: review them with git status and commit them yourself."
        : 'The files are in your user memory root (home/memory); every repository of yours reads them.',
      'muted',
    );
    return lines;
  }
  if (result.status !== 'voided') {
    add(`Plan ${idLabel(result.planId)} is ${result.status}: ${progressText(result)}.`, 'text');
    files();
    return lines;
  }
  add(
    `Plan ${idLabel(result.planId)} was voided: ${retirement ? 'nothing was removed' : 'nothing more was written'}.`,
    'error',
  );
  if (result.voidReason) add(result.voidReason, 'text', '  ');
  files();
  const drifted = result.files.some((file) => file.state === 'drifted');
  add(
    retirement
      ? 'The file changed after the retirement plan was prepared, so it was kept. Look at it (git diff), then press Enter to prepare the retirement again and read it again.'
      : drifted
        ? 'A target file changed after the plan was prepared (edited by hand, or written by another promotion), so the approved bytes no longer apply to it. Look at that file (git diff), then press Enter to prepare a new plan from the same candidates and read its diff again.'
        : 'A candidate changed after the plan was prepared. Press Enter to prepare a new plan from the same candidates and read its diff again.',
    'muted',
  );
  return lines;
}
