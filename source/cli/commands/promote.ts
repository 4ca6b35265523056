// `memory confirm | discard | prepare | plan | approve | promote`: the human gate on the command
// line. Every change goes to the running host, or takes the lease for its own duration; `plan`
// is a read. Nothing here decides anything: the person names the candidates, reads the plan's
// diff (hidden characters shown as ⟨U+XXXX⟩: the bytes as the model will read them) and approves its digest.
import { digestFlag } from '../parse.js';
import { connect } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import { echoed } from '../../echo-text.js';
import type { MemoryPlanView, MemoryPromoteResult } from '../../api/memory-views.js';
import { promotePreviewIn, wholeMemoryId } from '../../client/local-memory.js';
import { refuseRetirement } from '../../client/memory-refusals.js';
import { checkEntryIdArgument } from './entry-id.js';
import { fitLine, fitLines, type Output, TEXT_COLUMNS } from '../output.js';
import { textColumns } from '../../text-columns.js';
import { visibleText } from '../../memory/visible-text.js';
import { withStepAfterVoid } from '../../memory/plan-voided.js';
import { inPromotionOrder } from '../../memory/promotion-order.js';
import { counted } from '../../ground/count-text.js';

const need = (value: string | undefined, what: string): string => {
  if (!value) throw new CmError('usage', what);
  return value;
};

/** `work` over a writing connection to the data home (a host's, or one under the lease), closed after. */
export async function withWrite<T>(
  home: string,
  work: (app: Awaited<ReturnType<typeof connect>>['app']) => Promise<T>,
) {
  const connection = await connect(home, 'write');
  try {
    return await work(connection.app);
  } finally {
    await connection.close();
  }
}

export async function memoryConfirm(home: string, args: string[], out: Output): Promise<number> {
  const usage =
    'Give the candidate and the statement: common-memory memory confirm <candidate-id> <statement-id> (memory review lists both).';
  const typed = need(args[0], usage);
  const statementId = need(args[1], usage);
  const candidateId = wholeMemoryId(home, 'candidate', typed);
  const result = await withWrite(home, (app) => app.memoryConfirm({ candidateId, statementId, cwd: process.cwd() }));
  const stays = result.quarantined
    ? `; the candidate stays quarantined: its blocking finding keeps it from being promoted (memory discard ${candidateId})`
    : '';
  out.result(result, () =>
    result.replayed
      ? `statement ${statementId} of ${candidateId} was already confirmed${stays}`
      : `statement ${statementId} of ${candidateId} is confirmed by you (assessment revision ${result.revision})${stays}`,
  );
  return EXIT.ok;
}

export async function memoryDiscard(home: string, args: string[], out: Output): Promise<number> {
  const candidateId = wholeMemoryId(
    home,
    'candidate',
    need(
      args[0],
      'Give the candidate to discard: common-memory memory discard <candidate-id> (memory review lists them).',
    ),
  );
  const result = await withWrite(home, (app) => app.memoryDiscard({ candidateId, cwd: process.cwd() }));
  out.result(result, () =>
    result.replayed
      ? `${candidateId} was already discarded`
      : `${candidateId} is discarded: out of the review queue and the dedup pool (kept in memory-state, never deleted)`,
  );
  return EXIT.ok;
}

export async function memoryPrepare(
  home: string,
  args: string[],
  scope: string | undefined,
  out: Output,
  operations?: string,
): Promise<number> {
  if (args.length === 0)
    throw new CmError(
      'usage',
      'Name the candidates to promote: common-memory memory prepare <candidate-id>… [--scope project|user] (memory review lists them).',
    );
  // The flags' values are checked before any id is looked up: an unknown id is not the mistake.
  const chosen = scopeOption(scope);
  if (args[0]!.startsWith(PATCH_ID_PREFIX) || operations !== undefined)
    return preparePatch(home, args, chosen, operations, out);
  const plan = await withWrite(home, (app) =>
    app.memoryPrepare({
      candidateIds: args.map((id) => wholeMemoryId(home, 'candidate', id)),
      scope: chosen,
      cwd: process.cwd(),
    }),
  );
  out.result(plan, () => planWithDiff(plan, 'read the diff above; to approve exactly these bytes:'));
  return EXIT.ok;
}

/** A consolidation patch's id (its task's): `memory prepare con-…` prepares the patch. */
const PATCH_ID_PREFIX = 'con-';

/** `1,3` or `2-4` → operation numbers (checked against the patch by prepare). */
function operationNumbers(text: string): number[] {
  const numbers: number[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const range = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(part);
    const from = Number(range?.[1]);
    const to = range?.[2] === undefined ? from : Number(range[2]);
    if (!range || from < 1 || to < from)
      throw new CmError(
        'usage',
        `--operations takes operation numbers from memory review, e.g. 1,3 or 2-4 (not "${part}").`,
      );
    for (let n = from; n <= to; n++) numbers.push(n);
  }
  return numbers;
}

/**
 * `memory prepare <patch-id> [--operations 1,3]`: a plan of a consolidation patch's operations (all,
 * or those named), with the exact bytes of every file it creates, updates and removes.
 */
async function preparePatch(
  home: string,
  args: string[],
  scope: 'project' | 'user' | undefined,
  operations: string | undefined,
  out: Output,
): Promise<number> {
  // --operations with a candidate's id: the flag is what is wrong, not the number of patches.
  if (args.length === 1 && !args[0]!.startsWith(PATCH_ID_PREFIX))
    throw new CmError(
      'usage',
      `--operations picks operations of a consolidation patch (${PATCH_ID_PREFIX}…); ${echoed(args[0]!)} is not one. Prepare a candidate without it: common-memory memory prepare <candidate-id>…`,
    );
  if (args.length !== 1 || !args[0]!.startsWith(PATCH_ID_PREFIX))
    throw new CmError(
      'usage',
      'Prepare one consolidation patch on its own: common-memory memory prepare <patch-id> [--operations 1,3] (memory review lists them).',
    );
  const numbers = operations === undefined ? undefined : operationNumbers(operations);
  const taskId = wholeMemoryId(home, 'patch', args[0]!);
  const plan = await withWrite(home, (app) =>
    app.memoryPrepare({
      candidateIds: [],
      patch: { taskId, ...(numbers !== undefined ? { operations: numbers } : {}) },
      scope,
      cwd: process.cwd(),
    }),
  );
  out.result(plan, () =>
    planWithDiff(
      plan,
      'read the diff above; to approve exactly these bytes:',
      'nothing is written or removed yet; git keeps the history of every file once committed',
    ),
  );
  return EXIT.ok;
}

/**
 * `memory retire <entry-id>`: a plan that removes the entry's file, printed with its removal diff
 * and the approve command — nothing is removed until it is approved and promoted.
 */
export async function memoryRetire(
  home: string,
  args: string[],
  scope: string | undefined,
  out: Output,
): Promise<number> {
  // One entry a plan (the parser refuses a second word); an empty word (`""`) names none either.
  if (args.length === 0 || args[0] === '')
    throw new CmError(
      'usage',
      'Name the approved entry to retire: common-memory memory retire <entry-id> [--scope project|user] (memory search lists entries).',
    );
  const entryId = args[0]!;
  refuseGroupId(entryId, 'retire', 'Nothing was prepared.');
  checkEntryIdArgument(entryId, ' Nothing was prepared.');
  const request = { entryId, scope: scopeOption(scope), cwd: process.cwd() };
  // An entry no file holds is refused before the lease is taken, which creates memory-state.
  await refuseRetirement(home, request);
  const plan = await withWrite(home, (app) => app.memoryRetire(request));
  out.result(plan, () =>
    planWithDiff(
      plan,
      'read the removal above; to approve exactly it:',
      `nothing is removed yet; ${retiredTextStays(plan)}`,
    ),
  );
  return EXIT.ok;
}

/**
 * Where a retired file's text stays, as true for this file: git keeps only what a commit holds (a
 * file never committed, or edits since, are only in the plan); none: the data home holding the user
 * memory is in no repository.
 */
function retiredTextStays(plan: MemoryPlanView): string {
  const inPlan = `(memory plan ${plan.planId})`;
  switch (plan.history) {
    case 'committed':
      return `git keeps the file's history once the removal is committed`;
    case 'changed':
      return `git keeps only its last committed version: the changes since stay only in this plan ${inPlan}`;
    case 'uncommitted':
      return `the file was never committed: once removed, its text stays only in this plan ${inPlan}`;
    case 'none':
      return `the user memory is in no git repository: once removed, its text stays only in this plan ${inPlan}`;
    default:
      return `git could not say whether a commit holds the file; this plan keeps its text ${inPlan}`;
  }
}

export async function memoryPlan(home: string, args: string[], out: Output): Promise<number> {
  const planId = wholeMemoryId(
    home,
    'plan',
    need(args[0], 'Give the plan: common-memory memory plan <plan-id> (memory prepare prints it).'),
  );
  const connection = await connect(home, 'read');
  try {
    const plan = await connection.app.memoryPlan({ planId });
    out.result(plan, () => [planText(plan), '', visibleText(plan.diff.trimEnd())].join('\n'));
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

export async function memoryApprove(
  home: string,
  args: string[],
  digest: string | undefined,
  out: Output,
): Promise<number> {
  const typed = need(
    args[0],
    'Give the plan and its digest: common-memory memory approve <plan-id> --digest <plan-digest> (memory prepare prints both).',
  );
  // The hint is a command to copy: the id as typed when it reads as one, else a placeholder — a
  // pasted page of text, or a terminal control, is never written back to the terminal.
  const shown = /^[\w.:-]{1,80}$/.test(typed) ? typed : '<plan-id>';
  const bound = need(
    digest,
    `Approval binds the plan's digest: common-memory memory approve ${shown} --digest <plan-digest> (memory plan ${shown} shows it).`,
  );
  digestFlag(bound, '--digest'); // a malformed digest is said before the plan is looked up
  const planId = wholeMemoryId(home, 'plan', typed);
  const plan = await withWrite(home, (app) => app.memoryApprove({ planId, digest: bound }));
  out.result(plan, () =>
    fitLines(
      `plan ${plan.planId} is approved (${plan.files.length} file(s)); write it: common-memory memory promote ${plan.planId}`,
      '',
      [`common-memory memory promote ${plan.planId}`],
    ),
  );
  return EXIT.ok;
}

/** `memory void <plan-id>`: a person withdraws a plan not yet written; its candidates stay queued. */
export async function memoryVoid(home: string, args: string[], out: Output): Promise<number> {
  const planId = wholeMemoryId(
    home,
    'plan',
    need(args[0], 'Give the plan to withdraw: common-memory memory void <plan-id> (memory prepare printed it).'),
  );
  const result = await withWrite(home, (app) => app.memoryVoid({ planId }));
  out.result(result, () => {
    if (result.alreadyVoided)
      return fitLines(
        `plan ${result.planId} was already voided (${result.voidReason ?? 'no reason recorded'}); nothing changed`,
      );
    const queued =
      result.candidates.length > 0
        ? ` Its ${counted(result.candidates.length, 'candidate')} ${result.candidates.length === 1 ? 'stays' : 'stay'} in the review queue (memory review).`
        : '';
    return fitLines(
      `plan ${result.planId} is voided: nothing was written, and it can no longer be approved or promoted.${queued}`,
    );
  });
  return EXIT.ok;
}

export async function memoryPromote(home: string, args: string[], dryRun: boolean, out: Output): Promise<number> {
  const planId = wholeMemoryId(
    home,
    'plan',
    need(args[0], 'Give the approved plan: common-memory memory promote <plan-id>.'),
  );
  if (dryRun) return promotePreview(home, planId, out);
  const result: MemoryPromoteResult = await withWrite(home, (app) => app.memoryPromote({ planId }));
  out.result(result, () => {
    const retirement = result.files.every((f) => f.action === 'remove');
    if (result.status === 'voided')
      return retirement
        ? `plan ${result.planId} is voided: ${result.voidReason}; nothing was removed`
        : withStepAfterVoid(
            `plan ${result.planId} is voided: ${result.voidReason}; nothing more was written`,
            result.voidReason,
            ' — ',
          );
    // The files' states are the run that applied the plan; this one wrote nothing.
    if (result.alreadyApplied)
      return `plan ${result.planId} was already promoted; this run wrote nothing (${result.files.length} file(s) as the plan approved)`;
    const written = result.files.filter((f) => f.state === 'written' || f.state === 'removed').length;
    const removed = result.files.filter((f) => f.state === 'removed').length;
    const lines = [
      retirement
        ? `plan ${result.planId} is applied: ${written} file(s) removed, ${result.files.length - written} already gone; the entry is retired`
        : `plan ${result.planId} is applied: ${written - removed} file(s) written${removed > 0 ? `, ${removed} removed` : ''}, ${result.files.length - written} already as approved`,
      // Where a person finds the file: from the worktree's root, or in the data home.
      ...result.files.map(
        (f) =>
          `  ${result.scope === 'project' ? '.common-memory/memory' : '<home>/memory'}/${f.path}${f.state === 'removed' && !retirement ? ' (removed)' : ''}`,
      ),
    ];
    if (result.sync)
      lines.push(
        `approved memory: generation ${result.sync.generation}, coverage ${result.sync.coverage}, ${counted(result.sync.entries, 'entry', 'entries')}`,
      );
    if (result.scope === 'project')
      lines.push('common-memory never commits: review the files and commit them with git');
    return fitLines(lines.join('\n'));
  });
  // Voided: nothing was promoted — a conflict between the plan and the files, to prepare again.
  return result.status === 'voided' ? EXIT.conflict : EXIT.ok;
}

/**
 * `memory promote --dry-run`: the plan and what promote would do with each of its files now —
 * already as approved, still to write or remove, or changed (promote would void the plan) — read
 * from the files, read-only (no lease, nothing written; an interrupted promotion is not finished
 * either). A plan promote would refuse is refused the same way.
 */
async function promotePreview(home: string, planId: string, out: Output): Promise<number> {
  const connection = await connect(home, 'read');
  let plan: MemoryPlanView;
  try {
    plan = await connection.app.memoryPlan({ planId });
  } finally {
    await connection.close();
  }
  if (plan.status === 'generated')
    throw new CmError(
      'operation_conflict',
      `Plan ${planId} is not approved yet; read its diff and run memory approve ${planId} --digest ${plan.planDigest}. Nothing was written.`,
    );
  if (plan.status === 'voided')
    throw new CmError(
      'operation_conflict',
      `${withStepAfterVoid(`Plan ${planId} was voided (${plan.voidReason ?? 'no reason recorded'}); nothing was written`, plan.voidReason, ' — ')}.`,
    );
  const root = plan.scope === 'project' ? '.common-memory/memory' : '<home>/memory';
  if (plan.status === 'applied') {
    out.result(
      { ...plan, dryRun: true },
      () => `Dry run — nothing was written. Plan ${planId} is already applied; promote would write nothing.`,
    );
    return EXIT.ok;
  }
  // Read from the files, not the journal: an interrupted promotion's files are marked only as the
  // plan closes, so its journal still says every file is pending.
  const now = await promotePreviewIn(home, planId);
  const nowOf = new Map(now.files.map((f) => [f.path, f.now]));
  const files = inPromotionOrder(plan.files).map((f) => ({ ...f, now: nowOf.get(f.path) ?? ('to-do' as const) }));
  // Why promote would void the plan before writing anything more, as promote would say it.
  const changed = files.filter((f) => f.now === 'changed');
  const voidReason =
    now.voidReason ??
    (changed.length > 0 ? `${changed.map((f) => f.path).join(', ')} changed since the plan was made` : null);
  out.result({ ...plan, files, dryRun: true, voidReason }, () => {
    const head = `Dry run — nothing was written. Plan ${planId}`;
    if (voidReason !== null) return fitLines(`${head} would be voided, nothing more written: ${voidReason}.`, '');
    const done = files.filter((f) => f.now === 'as-approved').length;
    const toDo = files.filter((f) => f.now === 'to-do');
    const writes = toDo.filter((f) => f.action !== 'remove').length;
    const removals = toDo.length - writes;
    const verbs = [
      ...(writes > 0 ? [`write ${filesText(writes)}`] : []),
      ...(removals > 0 ? [`remove ${writes > 0 ? removals : filesText(removals)}`] : []),
    ];
    const interrupted = plan.status === 'applying' ? ' (an interrupted promotion)' : '';
    const blobCheck = 'each only if its target still has the blob it had at prepare';
    return [
      ...fitLine(
        done > 0
          ? `${head}: ${done} of its ${filesText(files.length)} are already done as approved${interrupted}; promote would ${listText([...verbs, 'finish the plan'])}${toDo.length > 0 ? `, ${blobCheck}` : ''}:`
          : `${head} would ${verbs.join(' and ')}${interrupted}, ${blobCheck}:`,
        '',
      ),
      ...files.flatMap((f) =>
        fileLines(f.action, `${root}/${f.path}`, f.now === 'as-approved' ? ' (already done)' : ''),
      ),
    ].join('\n');
  });
  return EXIT.ok;
}

/**
 * A scene's or doctrine's id given to a command that changes one entry (retire, revise): refused
 * by what it is — its file is there, so "no file holds it" would be false, and an editor opened on
 * it could not read back as an entry. Both change through consolidation or by hand.
 */
/**
 * "  create <path>" on one line when it fits 80 columns; else the path whole on a line of its own
 * under its action (a long slug makes a path wider than a line, and a cut path cannot be copied).
 */
function fileLines(action: string, path: string, note: string): string[] {
  const line = `  ${action} ${path}${note}`;
  return textColumns(line) <= TEXT_COLUMNS ? [line] : [`  ${action}${note}`, `    ${path}`];
}

/** "a", "a and b", "a, b and c". */
const listText = (parts: string[]): string =>
  parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/** "1 file", "3 files". */
const filesText = (count: number): string => counted(count, 'file');

export function refuseGroupId(id: string, command: string, nothing: string): void {
  const group = id.startsWith('scene:') ? 'a scene' : id.startsWith('doctrine:') ? 'doctrine' : null;
  if (!group) return;
  const how =
    group === 'a scene'
      ? 'scenes change through consolidation (memory consolidate, then memory prepare <patch-id>) or by editing its file in scenes/ by hand'
      : 'doctrine changes through consolidation with an external runner (memory consolidate --runner) or by editing its file in doctrine/ by hand';
  throw new CmError(
    'usage',
    `${echoed(id)} is ${group}, not an entry: ${how}; memory ${command} takes an approved entry's id. ${nothing}`,
  );
}

/** `--scope` when given: project or user. */
export function scopeOption(scope: string | undefined): 'project' | 'user' | undefined {
  if (scope !== undefined && scope !== 'project' && scope !== 'user')
    throw new CmError('usage', `--scope must be project or user, not ${echoed(scope)}.`);
  return scope;
}

/**
 * A plan as prepare and retire print it: what it writes, its diff, where the text stays, then the
 * command that approves it, whole on a line of its own (longer than 80 columns, to be copied); the
 * rest at 80 columns.
 */
// The diff as the person approving reads it: a removed hand-written file may hold terminal escapes.
const planWithDiff = (plan: MemoryPlanView, approveLead: string, stays?: string) =>
  [
    planText(plan),
    '',
    visibleText(plan.diff.trimEnd()),
    '',
    ...(stays === undefined ? [] : [fitLines(stays)]),
    fitLines(approveLead),
    `  common-memory memory approve ${plan.planId} --digest ${plan.planDigest}`,
  ].join('\n');

function planText(plan: MemoryPlanView): string {
  const lines = [
    `plan ${plan.planId} (${plan.status}, ${plan.scope} scope): ${plan.files.length} file(s)`,
    `digest ${plan.planDigest}`,
  ];
  const carried = plan.consolidation;
  if (carried)
    lines.push(
      ...fitLine(
        `consolidation patch ${carried.taskId}: operations ${carried.operations.map((o) => o.number).join(', ')}` +
          (carried.leftOut.length > 0 ? `; left out: ${carried.leftOut.join(', ')}` : '; none left out'),
      ),
    );
  for (const file of plan.files) {
    const state = file.state === 'pending' ? '' : ` (${file.state})`;
    const source =
      file.action === 'remove'
        ? `(entry ${file.entryId}, blob ${file.targetBlobHash})`
        : `← ${file.candidateIds.join(', ') || file.entryId}`;
    // At 80 columns: what the file comes from goes under it, and a path longer than a line whole
    // on a line of its own.
    const whole = `  ${file.action} ${file.path}${state} ${source}`;
    if (textColumns(whole) <= TEXT_COLUMNS) lines.push(whole);
    else lines.push(...fileLines(file.action, file.path, state), ...fitLine(`    ${source}`));
    for (const f of file.findings)
      lines.push(...fitLine(`    ! ${f.line}:${f.column} ${f.severity} ${f.rule} ${f.excerpt}`));
  }
  if (plan.voidReason) lines.push(...fitLine(`voided: ${plan.voidReason}`));
  return lines.join('\n');
}
