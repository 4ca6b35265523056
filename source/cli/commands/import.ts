// `import claude|codex|pi [--claude-dir D | --codex-home D | --pi-dir D] [--since] [--until] [--repository] [--dry-run] [--yes]`:
// the conversations a client stored before common-memory was installed. Without --yes it reads the
// files here, in this process, and says what an import would store — sessions, turns, bytes, the
// dates and the repositories — writing nothing anywhere. With --yes the host (or this command,
// holding the lease) imports them through the drain's parsers and drafts candidates, and this
// command follows it, with progress on stderr.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect } from '../../client/connect.js';
import { CmError, EXIT } from '../../errors.js';
import type { ImportReport, ImportRun } from '../../api/capture.js';
import { importRoot, type ImportClient } from '../../hosts/import-files.js';
import { runImport, type ImportSink } from '../../hosts/import-run.js';
import { parseUtc } from '../../memory/window.js';
import type { Output } from '../output.js';
import { extractionLines } from './capture.js';

export interface ImportFlags {
  claudeDir?: string | undefined;
  codexHome?: string | undefined;
  piDir?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  repository?: string | undefined;
  dryRun?: boolean | undefined;
  yes?: boolean | undefined;
}

/** How often a following command reads the import's progress. */
const FOLLOW_POLL_MS = 200;

export async function runImportCommand(home: string, args: string[], flags: ImportFlags, out: Output): Promise<number> {
  const client = clientOf(args);
  const dirs = { claude: flags.claudeDir, codex: flags.codexHome, pi: flags.piDir };
  const other = (Object.keys(dirs) as ImportClient[]).find((c) => c !== client && dirs[c] !== undefined);
  if (other !== undefined)
    throw new CmError(
      'usage',
      `import ${client} reads ${CLIENTS[client].flag} only; ${CLIENTS[other].flag} belongs to import ${other}.`,
    );
  const root = importRoot(client, dirs[client]);
  if (!existsSync(root))
    throw new CmError(
      'not_found',
      `No ${CLIENTS[client].name} transcripts at ${root}. Give the client's directory with ${CLIENTS[client].flag} DIR (${CLIENTS[client].holding}).`,
    );
  const since = flags.since === undefined ? undefined : (parseUtc(flags.since, '--since'), flags.since);
  const until = flags.until === undefined ? undefined : (parseUtc(flags.until, '--until'), flags.until);
  if (since !== undefined && until !== undefined && parseUtc(since, '--since') >= parseUtc(until, '--until'))
    throw new CmError('usage', `--since ${since} is not before --until ${until}; nothing to import in that range.`);
  const repository = flags.repository === undefined ? undefined : resolve(flags.repository);
  if (flags.dryRun || !flags.yes) {
    const report = await runImport(
      {
        client,
        root,
        sinceMs: since === undefined ? Number.NEGATIVE_INFINITY : parseUtc(since, '--since'),
        untilMs: until === undefined ? Number.POSITIVE_INFINITY : parseUtc(until, '--until'),
        repository: repository ?? null,
        dryRun: true,
      },
      dryRunSink(),
    );
    out.result(report, () => reportText(report));
    return EXIT.ok;
  }
  const connection = await connect(home, 'write');
  try {
    let run = await connection.app.captureImportStart({ client, root, since, until, repository });
    const say =
      !out.json || out.streams.stderr.isTTY === true
        ? (line: string) => out.streams.stderr.write(`${line}\n`)
        : () => {};
    let lastSaid = 0;
    let lastState = run.state;
    while (run.state === 'running' || run.state === 'extracting') {
      await new Promise((done) => setTimeout(done, FOLLOW_POLL_MS));
      run = await connection.app.captureImportRun({ importId: run.importId });
      // Once a second, and at each change of phase (the last figures before drafting, and at the end).
      if (Date.now() - lastSaid >= 1000 || run.state !== lastState) {
        say(progressText(run));
        lastSaid = Date.now();
        lastState = run.state;
      }
    }
    if (run.state === 'failed' || run.report === null)
      throw new CmError(
        (run.error?.code as ConstructorParameters<typeof CmError>[0] | undefined) ?? 'internal',
        `${run.error?.message ?? 'The import failed.'} What was committed stays; run the same import again to go on where it stopped.`,
      );
    const report = run.report;
    out.result(report, () => reportText(report));
    return report.quarantined > 0 ? EXIT.incomplete : EXIT.ok;
  } finally {
    await connection.close();
  }
}

/** Each client's name in text, its directory flag, and what that directory holds. */
const CLIENTS = {
  claude: { name: 'Claude Code', flag: '--claude-dir', holding: 'its config dir, holding projects/' },
  codex: { name: 'Codex', flag: '--codex-home', holding: 'holding sessions/' },
  pi: { name: 'pi', flag: '--pi-dir', holding: 'its agent dir, holding sessions/' },
} as const;

function clientOf(args: string[]): ImportClient {
  const [client, ...extra] = args;
  if (extra.length > 0) throw new CmError('usage', 'import takes one client: common-memory import claude|codex|pi.');
  if (client === 'claude' || client === 'codex' || client === 'pi') return client;
  throw new CmError('usage', 'Name the client to import from: common-memory import claude|codex|pi.');
}

/** A dry run stores nothing: every step counts as the turns it would seal. */
function dryRunSink(): ImportSink {
  return {
    cursor: () => undefined,
    commit: async (step) => ({
      outcome: 'applied',
      sealed: step.turns.length,
      skipped: 0,
      sessionKey: step.hostSessionId,
    }),
    quarantine: async () => {},
  };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function progressText(run: ImportRun): string {
  const p = run.progress;
  const rate = p.elapsedMs > 0 ? p.bytes / 1024 / 1024 / (p.elapsedMs / 1000) : 0;
  const phase = run.state === 'extracting' ? ' · drafting candidates' : '';
  return `import: ${p.filesDone}/${p.filesTotal} files · ${p.sessions} sessions · ${p.turns} turns · ${mb(p.bytes)} MB at ${rate.toFixed(1)} MB/s${phase}`;
}

function reportText(r: ImportReport): string {
  const name = CLIENTS[r.client].name;
  const lines = [
    r.dryRun
      ? `would import from ${name} (${r.root}): ${r.sessions} session(s), ${r.turns} turn(s), ${mb(r.bytes)} MB in ${r.files} file(s)`
      : `imported from ${name} (${r.root}): ${r.sessions} session(s), ${r.turns} turn(s), ${mb(r.bytes)} MB in ${r.files} file(s)`,
  ];
  if (r.firstAt !== null) lines.push(`dates: ${r.firstAt} to ${r.lastAt}`);
  if (r.turnsAlreadyStored > 0)
    lines.push(
      `already stored (captured live or imported from another file): ${r.turnsAlreadyStored} turn(s), not stored again`,
    );
  lines.push(`skipped: ${r.skipped} file(s) · quarantined: ${r.quarantined} file(s) · open turns: ${r.openTurns}`);
  if (r.repositories.length > 0) lines.push('repositories:');
  for (const repo of r.repositories)
    lines.push(
      `  ${repo.cwd ?? '(no directory recorded)'}: ${repo.sessions} session(s)${repo.exists ? '' : ' — no longer exists: its memory binds to your user scope'}`,
    );
  for (const note of r.notes) lines.push(`${note.what}: ${note.path}: ${note.reason}`);
  if (r.dryRun) {
    lines.push('Nothing was written. What you said in these sessions is stored as evidence, the rest as context;');
    lines.push(
      `turns already captured live are left out. To import: common-memory import ${r.client} --yes (same flags)`,
    );
  } else {
    if (r.extraction) lines.push(...extractionLines(r.extraction));
    if (r.quarantined > 0)
      lines.push(
        'Quarantined files are untouched and recorded (status counts them); import again once repaired (exit 3).',
      );
  }
  return lines.join('\n');
}
