// `memory extract | status | recall | lint | review`: the memory pipeline on the command line.
// extract (memory-extract.ts) is a run in the running host, or in this command holding the lease; status, recall and
// review are reads (read-only without a host); lint runs here and needs no store.
import { RESULTS_LIMIT_MAX, REVIEW_PAGE_MAX } from '../../limits.js';
import { parseReviewCursor } from '../../memory/review-cursor.js';
import { readUserFile, shownPath } from '../../ground/user-file.js';
import { connect } from '../../client/connect.js';
import { insideWorktree } from '../../client/worktree-here.js';
import { CmError, EXIT, lintRefusalCode } from '../../errors.js';
import { isPoisonRule } from '../../memory/finding-kind.js';
import { counted } from '../../ground/count-text.js';
import { visibleText } from '../../memory/visible-text.js';
import { formatFinding } from '../../memory/secret-lint.js';
import { originText } from '../../screens/memory/review-lines.js';
import { reteachLines, usageSummaryLines } from '../../screens/memory/usage-lines.js';
import type { MemoryAnchorRun, MemoryRecallResult, MemoryReview } from '../../api/memory-views.js';
import type { MemoryStatus } from '../../api/memory-runs.js';
import { FLUSH_COMMAND, SERVICE_COMMAND, waitingText } from '../../waiting-text.js';
import { patchLines, patchPhrases } from './patch-lines.js';
import { waitingWithoutHost } from '../waiting.js';
import { fitLines, type Output } from '../output.js';
import { pageLimitFlag } from '../parse.js';
import type { ExtractFlags } from './memory-extract.js';

// Each subcommand's module is loaded when it runs: a read (`memory review --json`) is a whole
// process that scripts call in loops, and the plan and lint rules are most of the memory half.
const approved = () => import('./approved.js');
const given = () => import('./memory-given.js');
const suggestions = () => import('./memory-suggestions.js');
const promote = () => import('./promote.js');
const revise = () => import('./revise.js');
const consolidate = () => import('./consolidate.js');
const extract = () => import('./memory-extract.js');
const memoryLint = () => import('../../memory/memory-lint.js');
const refusals = () => import('../../client/memory-refusals.js');

/** The memory group's options: memory extract's, and those of the other subcommands. */
export interface MemoryFlags extends ExtractFlags {
  scope?: string | undefined;
  after?: string | undefined;
  digest?: string | undefined;
  provider?: string | undefined;
  dryRun?: boolean | undefined;
  days?: string | undefined;
  file?: string | undefined;
  skills?: boolean | undefined;
  operations?: string | undefined;
}

/**
 * What `memory lint` reads whole, from a file or stdin: a memory entry is at most 64 KiB; this leaves
 * room for any text a person lints. Bounded well below where the lint's regular expressions overflow
 * their backtracking stack (one run of token characters over about 5 Mi characters), and it lints
 * the most in about a second and a half.
 */
const LINT_FILE_MAX_BYTES = 2 * 1024 * 1024;

export async function runMemory(home: string, args: string[], flags: MemoryFlags, out: Output): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'extract':
      return (await extract()).runExtract(home, rest, flags, out);
    case 'status':
      return status(home, out);
    case 'suggestions':
      if (rest.length > 0) throw new CmError('usage', 'usage: common-memory memory suggestions [--days N] [--json]');
      return (await suggestions()).memorySuggestions(home, flags.days, out);
    case 'recall':
      return recallCommand(home, rest, flags, out);
    case 'review':
      if (rest.length > 0)
        throw new CmError(
          'usage',
          'usage: common-memory memory review [--scope all|user|project] [--limit N] [--after CURSOR]',
        );
      return review(home, flags, out);
    case 'lint':
      return lint(rest, out);
    case 'retry':
      return retry(home, rest[0], out);
    case 'reverify-runner':
      return reverify(home, flags.runner, out);
    case 'sync':
      return (await approved()).memorySync(home, flags.dryRun ?? false, out);
    case 'search':
      return (await approved()).memorySearch(home, rest, flags.limit, out);
    case 'init':
      return (await approved()).memoryInit(home, flags.scope, flags.dryRun ?? false, out);
    case 'confirm':
      return (await promote()).memoryConfirm(home, rest, out);
    case 'discard':
      return (await promote()).memoryDiscard(home, rest, out);
    case 'prepare':
      return (await promote()).memoryPrepare(home, rest, flags.scope, out, flags.operations);
    case 'plan':
      return (await promote()).memoryPlan(home, rest, out);
    case 'patch':
      return (await import('./patch-show.js')).memoryPatch(home, rest, out);
    case 'approve':
      return (await promote()).memoryApprove(home, rest, flags.digest, out);
    case 'void':
      return (await promote()).memoryVoid(home, rest, out);
    case 'promote':
      return (await promote()).memoryPromote(home, rest, flags.dryRun ?? false, out);
    case 'retire':
      return (await promote()).memoryRetire(home, rest, flags.scope, out);
    case 'consolidate':
      if (rest.length > 0)
        throw new CmError(
          'usage',
          'usage: common-memory memory consolidate [--scope project|user] [--runner NAME [--approve-plan D]] [--json]',
        );
      return (await consolidate()).memoryConsolidate(home, flags, out);
    case 'revise':
      return (await revise()).memoryRevise(home, rest, { scope: flags.scope, file: flags.file }, out);
    case 'refresh':
      if (rest.length > 0 || (flags.session?.length ?? 0) > 1)
        throw new CmError('usage', 'usage: common-memory memory refresh [--session KEY] (one session)');
      return (await given()).memoryRefresh(home, flags.session, out);
    case 'assemble':
      if (rest.length > 0)
        throw new CmError(
          'usage',
          'usage: common-memory memory assemble --provider claude|codex [--dry-run], or --skills [--provider claude|codex] [--scope project|user] [--dry-run]',
        );
      if (flags.skills === true)
        return (await given()).memoryAssembleSkills(home, flags.provider, flags.scope, flags.dryRun ?? false, out);
      if (flags.scope !== undefined)
        throw new CmError('usage', '--scope goes with --skills: memory assemble --skills --scope project|user.');
      return (await given()).memoryAssemble(home, flags.provider, flags.dryRun ?? false, out);
    default: {
      const known =
        'extract, status, suggestions, recall, review, lint, retry, reverify-runner, sync, search, init, confirm, discard, prepare, plan, patch, approve, promote, retire, consolidate, revise, refresh or assemble';
      throw new CmError(
        'usage',
        sub === undefined
          ? `memory needs a command: ${known} (see --help).`
          : `Unknown memory command "${sub}"; use ${known}.`,
      );
    }
  }
}

async function reverify(home: string, runner: string | undefined, out: Output): Promise<number> {
  if (!runner)
    throw new CmError(
      'usage',
      'Name the profile to probe: common-memory memory reverify-runner --runner NAME (profiles are in runners.json).',
    );
  // Refused before the lease is taken, which creates memory-state.
  (await refusals()).refuseReverify(home, runner);
  const connection = await connect(home, 'write');
  try {
    const result = await connection.app.memoryReverifyRunner({ runner });
    out.result(
      result,
      () => `the ${result.runner} runner passed the conformance probe (${result.probeVersion}); the pass is cached`,
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

async function retry(home: string, taskId: string | undefined, out: Output): Promise<number> {
  if (!taskId)
    throw new CmError(
      'usage',
      'Give the task to retry: common-memory memory retry <task-id> (memory status counts the tasks waiting for one).',
    );
  // A task memory-state does not hold (none without one) is refused before the lease creates it.
  await (await refusals()).refuseRetry(home, taskId);
  const connection = await connect(home, 'write');
  try {
    const result = await connection.app.memoryRetry({ taskId });
    out.result(
      result,
      () => `task ${result.taskId} may be claimed again (attempts reset); run common-memory memory extract`,
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

async function status(home: string, out: Output): Promise<number> {
  let connection = await connect(home, 'read');
  try {
    let s = await connection.app.memoryStatus();
    let verification: MemoryAnchorRun | null = null;
    // With memory-state there, this worktree's entries are verified first (bounded; an unchanged
    // tree costs a stat of each anchor's inputs). That stores verdicts: it needs the host or the
    // lease. Another command holding the lease only leaves the counts of the last run.
    const verify = s.state === 'ready' && insideWorktree(process.cwd());
    if ((verify || s.promotions.applying > 0) && connection.mode === 'read-only') {
      // A promotion a crash interrupted: opening memory with the lease finishes it too.
      const mustWrite = s.promotions.applying > 0;
      await connection.close();
      try {
        connection = await connect(home, 'write');
      } catch (error) {
        if (mustWrite) throw error;
        connection = await connect(home, 'read');
      }
    }
    if (verify && connection.mode !== 'read-only') {
      verification = await connection.app.memoryVerify({ cwd: process.cwd() }).catch((error: unknown) => ({
        state: 'failed' as const,
        entries: 0,
        stale: 0,
        reason: error instanceof Error ? error.message : String(error),
      }));
    }
    if (verify || s.promotions.applying > 0) s = await connection.app.memoryStatus();
    out.result({ ...s, verification }, () => fitLines(statusText(s, verification)));
    return s.state === 'unavailable' ? EXIT.memoryUnavailable : EXIT.ok;
  } finally {
    await connection.close();
  }
}

function anchorsLine(anchors: MemoryStatus['anchors']): string {
  if (anchors.state === 'unavailable') return `stale entries: unavailable — ${anchors.reason}`;
  if (anchors.state === 'unverified') return 'stale entries: not verified yet';
  return `stale entries: ${anchors.staleEntries.project} project, ${anchors.staleEntries.user} user (verified ${anchors.verifiedAt})`;
}

/** Files nothing gives back: where, why (the lint's rule), and what to do. */
function leftOutLines(files: NonNullable<MemoryStatus['leftOutFiles']>): string[] {
  if (files.length === 0) return [];
  const lines = [`memory files left out: ${files.length} (nothing gives them back)`];
  for (const file of files) {
    const where = file.scope === 'user' ? 'user' : `project ${file.repository ?? file.repositoryKey.slice(0, 12)}`;
    const position = file.line === null ? '' : `:${file.line}`;
    lines.push(`  ${where} ${file.path}${position}: ${file.kind}${file.rule ? ` ${file.rule}` : ''}`);
    if (file.kind !== 'blocked') lines.push(`    ${file.message}`);
    lines.push(`    ${file.fix}`);
  }
  return lines;
}

export function statusText(s: MemoryStatus, verification: MemoryAnchorRun | null = null): string {
  if (s.state === 'unavailable') return `memory: unavailable — ${s.reason}`;
  const lines = [
    `memory (${s.state}${s.autoExtract ? ', extracting new turns automatically' : ''})`,
    `chunks: ${s.chunks.pending} pending, ${s.chunks.drafted} drafted, ${s.chunks.extracted} extracted`,
    `tasks: ${s.tasks.pending} pending, ${s.tasks.claimed} claimed, ${s.tasks.submitted} submitted, ${s.tasks.stale} stale, ${s.tasks.waitingForRetry} waiting for a retry`,
    `candidates: ${s.candidates.draft} draft (${s.candidates.awaitingAdjudication} awaiting adjudication), ${s.candidates.quarantined} quarantined, ${s.candidates.superseded} superseded, ${s.candidates.promoted} promoted, ${s.candidates.discarded} discarded`,
    `promotion plans: ${s.promotions.generated} awaiting approval, ${s.promotions.approved} approved, ${s.promotions.applied} applied, ${s.promotions.voided} voided${s.promotions.applying ? `, ${s.promotions.applying} interrupted (memory promote <plan-id> finishes it)` : ''}`,
  ];
  for (const runner of s.runners.filter((entry) => !entry.offline))
    lines.push(
      `runner ${runner.name}: ${runner.provider} ${runner.model} at ${runner.endpoint}; sent today ${runner.sentToday ?? 0} of ${runner.budget?.dayBytes} bytes (run budget ${runner.budget?.runBytes})`,
    );
  lines.push(anchorsLine(s.anchors));
  lines.push(...leftOutLines(s.leftOutFiles ?? []));
  lines.push(...usageSummaryLines(s.usage));
  if (verification?.state === 'failed')
    lines.push(`verification of this worktree: failed — ${verification.reason} (the counts are the last run's)`);
  if (s.runnersProblem) lines.push(`runner profiles: ${s.runnersProblem}`);
  lines.push(`sent off this machine today (UTC ${s.spend.day}): ${s.spend.bytesSent} bytes`);
  if (s.activeRun)
    lines.push(
      `running: ${s.activeRun.runId} ${s.activeRun.phase} ${s.activeRun.done}/${s.activeRun.total} (follow it: memory extract --follow ${s.activeRun.runId})`,
    );
  if (s.lastRun)
    lines.push(`last run: ${s.lastRun.runId} ${s.lastRun.state} (${s.lastRun.runner}, started ${s.lastRun.startedAt})`);
  return lines.join('\n');
}

async function recallCommand(home: string, words: string[], flags: MemoryFlags, out: Output): Promise<number> {
  const text = words.join(' ');
  if (text.trim() === '')
    throw new CmError('usage', 'Give the text to recall against, e.g. common-memory memory recall "use pnpm".');
  const limit = pageLimitFlag(flags.limit, RESULTS_LIMIT_MAX);
  const connection = await connect(home, 'read');
  try {
    const result: MemoryRecallResult = await connection.app.memoryRecall({ text, cwd: process.cwd(), limit });
    out.result(result, () =>
      result.items.length === 0
        ? 'nothing in memory is similar'
        : result.items
            .map((item) => `${String(item.rank).padStart(3)}  ${item.sourceKind.padEnd(9)} ${item.id}`)
            .join('\n'),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

async function review(home: string, flags: MemoryFlags, out: Output): Promise<number> {
  const scope = flags.scope ?? 'all';
  if (scope !== 'all' && scope !== 'user' && scope !== 'project')
    throw new CmError('usage', `--scope must be all, user or project, not ${JSON.stringify(scope)}.`);
  const limit = flags.limit === undefined ? undefined : Number(flags.limit);
  if (flags.limit !== undefined && (!/^\d{1,3}$/.test(flags.limit) || limit! < 1 || limit! > REVIEW_PAGE_MAX))
    throw new CmError(
      'usage',
      `--limit must be a whole number from 1 to ${REVIEW_PAGE_MAX}, not ${JSON.stringify(flags.limit)}.`,
    );
  if (flags.after !== undefined) parseReviewCursor(flags.after); // a bad cursor is refused before connecting
  const connection = await connect(home, 'read');
  try {
    const result: MemoryReview = await connection.app.memoryReview({
      cwd: process.cwd(),
      scope,
      limit,
      after: flags.after,
    });
    const waiting = await waitingWithoutHost(connection);
    out.result({ ...result, waiting }, () =>
      [
        reviewText(result),
        ...(waiting === null ? [] : [fitLines(waitingText(waiting)!, '  ', [FLUSH_COMMAND, SERVICE_COMMAND])]),
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

const REVIEW_SCOPE_TEXT = { all: 'any scope', user: 'the user scope', project: 'this repository', here: 'this scope' };

/**
 * A candidate's text on one line as the reviewer reads it: hidden characters and terminal controls
 * (an escape pasted with a log) as ⟨U+XXXX⟩, which the terminal would otherwise act on — colouring
 * or concealing what is being approved.
 */
const reviewLine = (text: string): string => visibleText(text).replace(/\s+/g, ' ');

export function reviewText(r: MemoryReview): string {
  const patches = r.patches.flatMap(patchLines);
  // Each patch's prepare command whole, its header's labels with their values, with or without candidates.
  const patchKeep = r.patches.flatMap(patchPhrases);
  if (r.total === 0)
    return fitLines(
      [...patches, `no candidates to review in ${REVIEW_SCOPE_TEXT[r.scope]}`].join('\n'),
      '  ',
      patchKeep,
    );
  const lines: string[] = [...patches];
  for (const c of r.candidates) {
    // Only drafts are adjudicated: a quarantined candidate's adjudication stays pending for good.
    const state =
      c.origin.kind === 'proposal'
        ? originText(c.origin)
        : c.adjudication === 'done'
          ? c.decision
          : c.status === 'quarantined'
            ? 'blocked, never adjudicated'
            : 'awaiting adjudication';
    const where = c.scope === 'user' ? 'user scope' : `project ${c.repository ?? c.repositoryKey.slice(0, 12)}`;
    lines.push(`${c.candidateId}  ${c.status}  ${c.type}  ${state}  (${where})`);
    // Hidden characters as ⟨U+XXXX⟩: the reviewer reads what the model will.
    if (c.title !== null) lines.push(`  ${reviewLine(c.title)}`);
    lines.push(`  ${reviewLine(c.content)}`);
    for (const s of c.statements)
      lines.push(
        `  - ${s.statementId} (${s.claimSupport}) cites ${s.evidence.length === 0 ? 'no user turn' : s.evidence.map((e) => `${e.client} ${e.sessionKey} ${e.turnKey}`).join('; ')}`,
      );
    // A disguised secret's excerpt is of the decoded text, which the line above does not hold: say through what.
    for (const f of c.findings)
      lines.push(
        `  ! ${f.field}:${f.line}:${f.column} ${f.severity} ${f.rule}${f.transform ? ` (through ${f.transform})` : ''} ${f.excerpt}`,
      );
    for (const note of reteachLines(c.reteaches)) lines.push(`  ${note}`);
    if (c.snapshot) {
      lines.push(
        c.status === 'quarantined'
          ? '  the snapshot would give (never: it is quarantined):'
          : '  the snapshot will give:',
      );
      for (const line of c.snapshot.split('\n')) lines.push(`    ${line}`);
    }
  }
  const scopeFlag = r.scope === 'all' ? '' : ` --scope ${r.scope}`;
  const older = `common-memory memory review${scopeFlag} --after ${r.nextAfter}`;
  lines.push(`${r.candidates.length} shown of ${r.total} candidate(s) in ${REVIEW_SCOPE_TEXT[r.scope]}, newest first.`);
  if (r.nextAfter) lines.push(`Older ones: ${older}`);
  else if (r.candidates.length < r.total) lines.push('That is the last page.');
  // The next step. Confirm, discard and prepare act on each candidate's own scope, from any directory.
  if (r.candidates.length > 0)
    lines.push(
      'Promote one: common-memory memory prepare <candidate> (the file it would write, to approve); drop one: common-memory memory discard <candidate>.',
    );
  if (r.candidates.some((c) => c.repositoryKey !== r.repositoryKey))
    lines.push(
      "confirm, discard and prepare act on each candidate's own repository (or the user scope), from any directory.",
    );
  // At 80 columns, the commands to copy kept whole on their lines.
  return fitLines(lines.join('\n'), '  ', [
    ...patchKeep,
    older,
    'common-memory memory prepare <candidate>',
    'common-memory memory discard <candidate>',
  ]);
}

/** A path's text, or stdin's for "-": either bounded as a file is, refused before anything is linted. */
async function readInput(path: string): Promise<{ text: string; bytes: number }> {
  if (path !== '-') {
    const text = readUserFile(path, LINT_FILE_MAX_BYTES, 'memory lint');
    return { text, bytes: Buffer.byteLength(text) };
  }
  const read = await (await import('../stdin.js')).readStdinBytes(
    'text',
    LINT_FILE_MAX_BYTES,
    `The text on stdin is over the ${LINT_FILE_MAX_BYTES}-byte limit of memory lint; nothing was linted. Lint it in smaller pieces.`,
  );
  return { text: read.toString('utf8'), bytes: read.length };
}

async function lint(paths: string[], out: Output): Promise<number> {
  // Nothing named and a terminal on stdin: a person who typed `memory lint` alone, not a pipe.
  if (paths.length === 0 && process.stdin.isTTY)
    throw new CmError(
      'usage',
      'Give the files to lint (common-memory memory lint <path>…), or pipe text to common-memory memory lint - (at a terminal, - reads what you type until Ctrl+D).',
    );
  if (paths.includes(''))
    throw new CmError(
      'usage',
      'An empty path names no file: give the files to lint (common-memory memory lint <path>…), or - for stdin.',
    );
  const inputs = paths.length === 0 ? ['-'] : paths;
  const { findingView, lintMemoryText } = await memoryLint();
  // A path named twice is one input: read once, its findings listed once.
  const texts = new Map<string, { text: string; bytes: number }>();
  for (const path of new Set(inputs)) texts.set(path, await readInput(path));
  const findings = [...texts.keys()].flatMap((path) =>
    lintMemoryText(texts.get(path)!.text).map((f) => ({ path, ...findingView(f) })),
  );
  const blocking = findings.filter((f) => f.severity === 'block').length;
  // Stdin read empty (a closed or empty pipe, </dev/null) has no findings, which is true; it is
  // said, since an empty pipe is most often a command before it that wrote nothing.
  const stdin = texts.get('-');
  const emptyStdin =
    texts.size === 1
      ? '0 bytes were read from standard input: nothing was linted. If a command before | was to write the text, it wrote none.'
      : '0 bytes were read from standard input: it was not linted (nothing to lint).';
  out.result({ findings, ...(stdin ? { stdin: { bytes: stdin.bytes } } : {}) }, () => {
    const lines =
      findings.length === 0
        ? stdin?.bytes === 0 && texts.size === 1
          ? []
          : ['no secrets or poisoning found']
        : [
            ...findings.map((f) => formatFinding({ ...f, offset: 0, length: 0 }, shownPath(f.path))),
            `${findings.length} finding(s), ${blocking} blocking`,
          ];
    if (stdin?.bytes === 0) lines.push(fitLines(emptyStdin));
    return lines.join('\n');
  });
  if (blocking === 0) return EXIT.ok;
  // Under --json the findings are the result; the refusal is an error of its own, its code the kind
  // that refused (a secret before any poisoning, as prepare's refusal of a quarantined candidate).
  if (out.json) {
    const blocked = findings.filter((f) => f.severity === 'block');
    const first = blocked.find((f) => !isPoisonRule(f.rule)) ?? blocked[0]!;
    const kind = isPoisonRule(first.rule) ? 'poisoning' : 'secret';
    const what = kind === 'secret' ? 'a secret' : 'text written to steer the model that reads it';
    out.error(
      new CmError(
        lintRefusalCode(kind),
        `${shownPath(first.path)}:${first.line}:${first.column} ${first.rule}: ${what} (${counted(blocking, 'blocking finding')})`,
      ),
    );
  }
  return EXIT.secretFound;
}
