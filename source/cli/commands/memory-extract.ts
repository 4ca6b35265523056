// `memory extract`: an extraction run over this repository's sessions, started where the data home
// is served (the running host, or this command holding the lease) and followed until it ends:
// progress on stderr, the report on stdout (one JSON document with --json), the run's error as the
// command's. No request waits for the run itself, so a runner may take as long as it needs.
// Ctrl+C stops following; a host's run goes on, and `memory extract --follow <run-id>` follows it
// again (memory status shows the running run too).
import { digestFlag } from '../parse.js';
import { checkedCaptureClient } from '../../api/request-checks.js';
import { connect, type Connection } from '../../client/connect.js';
import { followRun, reportOf } from '../../client/extract-run.js';
import { refuseExtractRun } from '../../client/memory-refusals.js';
import { CmError, EXIT } from '../../errors.js';
import type { MemoryExtractReport, MemoryExtractRun, PendingAuthorization } from '../../api/memory-runs.js';
import { planLines, planPhrases } from '../../runner-plan-text.js';
import { fitLine, type Output } from '../output.js';
import { wholeNumber } from './memory.js';

/** The options memory extract takes (a part of memory-group's). */
export interface ExtractFlags {
  since?: string | undefined;
  until?: string | undefined;
  query?: string | undefined;
  client?: string | undefined;
  session?: string[] | undefined;
  runner?: string | undefined;
  approvePlan?: string | undefined;
  approveManifest?: string | undefined;
  limit?: string | undefined;
  /** --follow <run-id>: follow a run again. */
  follow?: boolean | undefined;
}

/** The options that shape a run: given when it starts, never to --follow. */
const RUN_OPTIONS = [
  'since',
  'until',
  'query',
  'client',
  'session',
  'runner',
  'approvePlan',
  'approveManifest',
  'limit',
] as const satisfies ReadonlyArray<keyof ExtractFlags>;

export async function runExtract(home: string, args: string[], flags: ExtractFlags, out: Output): Promise<number> {
  if (flags.follow) {
    const [runId, ...extra] = args;
    const given = RUN_OPTIONS.find((name) => {
      const value = flags[name];
      return value !== undefined && !(Array.isArray(value) && value.length === 0);
    });
    if (given)
      throw new CmError(
        'usage',
        `memory extract --follow takes a run id only, not --${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: the run's options were given when it started.`,
      );
    if (!runId || extra.length > 0)
      throw new CmError(
        'usage',
        'usage: common-memory memory extract --follow <run-id> (memory extract prints the id as the run starts; memory status shows the running run).',
      );
    const connection = await connect(home, 'read');
    try {
      return await follow(connection, await connection.app.memoryExtractRun({ runId }), out, 'again');
    } finally {
      await connection.close();
    }
  }
  if (args.length > 0)
    throw new CmError(
      'usage',
      `memory extract takes options only, not ${JSON.stringify(args[0]!.slice(0, 80))}; to follow a run again: memory extract --follow <run-id>.`,
    );
  const request = {
    since: flags.since,
    until: flags.until,
    query: flags.query,
    client: checkedCaptureClient(flags.client),
    sessions: flags.session && flags.session.length > 0 ? flags.session : undefined,
    runner: flags.runner,
    approvePlan: digestFlag(flags.approvePlan, '--approve-plan'),
    approveManifest: digestFlag(flags.approveManifest, '--approve-manifest'),
    limit: wholeNumber(flags.limit, '--limit'),
    cwd: process.cwd(),
  };
  if (request.approvePlan !== undefined && request.approveManifest !== undefined)
    throw new CmError('usage', 'Give --approve-plan or --approve-manifest, not both.');
  // What the run would refuse is refused before the lease is taken: taking it creates memory-state.
  await refuseExtractRun(home, request);
  const connection = await connect(home, 'write');
  try {
    return await follow(connection, await connection.app.memoryExtractStart(request), out, 'started');
  } finally {
    await connection.close();
  }
}

/** --client: one of the capturing clients, refused here as the host's API would refuse it. */
/**
 * Follows the run to its end and prints its report; Ctrl+C stops following (exit 130). Progress
 * goes to stderr for a person: always in text mode, with --json only when stderr is a terminal
 * (a script's stderr stays for its error).
 */
async function follow(
  connection: Connection,
  first: MemoryExtractRun,
  out: Output,
  how: 'started' | 'again',
): Promise<number> {
  const inHost = connection.mode === 'remote';
  const runId = first.runId;
  const again = `common-memory memory extract --follow ${runId}`;
  // At 80 columns like the report, the run's id with its label and the command to follow it whole.
  const progress = (line: string) =>
    `${fitLine(`memory extract: ${line}`, '  ', [`run ${runId}`, again, 'common-memory host']).join('\n')}\n`;
  const say =
    !out.json || out.streams.stderr.isTTY === true
      ? (line: string) => out.streams.stderr.write(progress(line))
      : () => {};
  if (how === 'started')
    say(
      inHost
        ? `run ${runId} started in the host; Ctrl+C stops following, the run goes on`
        : `run ${runId} started (no host runs: it ends with this command)`,
    );
  else if (first.state === 'running' || first.state === 'waiting') say(`following run ${runId}`);
  let interrupted = false;
  const onSigint = () => {
    // A second Ctrl+C does not wait for the read in flight.
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  let shown = '';
  let last: MemoryExtractRun;
  try {
    last = await followRun(connection.app, first, {
      stopped: () => interrupted,
      onRead: (run) => {
        const line =
          run.state === 'waiting'
            ? 'waiting for the run before it to end'
            : run.progress
              ? `${run.progress.phase} ${run.progress.done}/${run.progress.total}`
              : '';
        if (line && line !== shown) say(`${runId} ${line}`);
        shown = line;
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (interrupted && (last.state === 'running' || last.state === 'waiting')) {
    const where = inHost
      ? `stopped following; run ${runId} goes on in the host. Follow it again: ${again} (memory status shows it too)`
      : `stopped; no host runs, so run ${runId} stops with this command (what it finished is kept): run memory extract again to go on, or start a host (common-memory host) so a run outlives its command`;
    if (out.json) out.result({ ...last, followWith: inHost ? again : null }, () => '');
    out.streams.stderr.write(progress(where));
    return EXIT.interrupted;
  }
  if (last.state === 'stopped') {
    out.streams.stderr.write(`common-memory: extraction run ${runId} did not finish: ${last.stoppedBecause}.\n`);
    return EXIT.incomplete;
  }
  const report = reportOf(last);
  out.result(report, () => extractText(report));
  if (report.pendingPlan) return EXIT.authorisationNeeded;
  return report.failures.length > 0 || report.tasks.pending > 0 || report.tasks.waitingForRetry > 0
    ? EXIT.incomplete
    : EXIT.ok;
}

export function extractText(r: MemoryExtractReport): string {
  if (r.pendingPlan) return planText(r.pendingPlan);
  const c = r.candidates;
  const t = r.tasks;
  const lines = [
    ...counts(`window ${r.window.since} .. ${r.window.until}:`, [`${r.turns} turn(s)`, `${r.chunks} chunk(s)`]),
    ...counts('tasks:', [
      `${t.planned} planned (${t.created} new)`,
      `${t.submitted} submitted`,
      `${t.failed} failed`,
      `${t.pending} left for the next run`,
      ...(t.waitingForRetry ? [`${t.waitingForRetry} waiting for a retry`] : []),
      ...(t.stale ? [`${t.stale} stale adjudication(s) redone`] : []),
    ]),
    ...counts('candidates:', [
      `${c.created} drafted`,
      `${c.stored} stored`,
      `${c.skipped} skipped as duplicates`,
      `${c.updated} updated`,
      `${c.merged} merged`,
      `${c.quarantined} quarantined (a secret or an instruction to the model found)`,
    ]),
  ];
  for (const failure of r.failures) lines.push(...fitLine(`  failed: ${failure}`));
  // The text review: a person reading this output reads text (--json prints the report as JSON).
  if (c.created > 0) lines.push('review them: common-memory memory review');
  return lines.join('\n');
}

/** "label: a, b, c" at 80 columns, broken only between the counts (a count stays with its words). */
const counts = (label: string, items: string[]): string[] =>
  fitLine(`${label} ${items.join(', ')}`, '  ', [label, ...items]);

/** A plan as a person reads it before approving, and the flag that approves it. */
export const planText = (p: PendingAuthorization): string => approvalText(p, 'common-memory memory extract');

/**
 * A runner's plan (memory extract, memory consolidate) at 80 columns: each label stays with what it
 * labels (sha256 and its hash, a count and its unit), and the command that approves the plan stands
 * whole on a line of its own, to be copied (longer than a line, it is longer than 80 columns).
 */
export function approvalText(p: PendingAuthorization, command: string): string {
  const keep = planPhrases(p);
  return [
    ...planLines(p).flatMap((line) => fitLine(line, '    ', keep)),
    'Approve exactly these bytes:',
    `  ${command} <same options> ${p.approveWith}`,
  ].join('\n');
}
