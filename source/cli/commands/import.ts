// `import claude|codex|pi [--claude-dir D | --codex-home D | --pi-dir D] [--since] [--until] [--repository] [--dry-run] [--yes]`:
// the conversations a client stored before common-memory was installed. Without --yes it reads the
// files here, in this process, and says what an import would store — sessions, turns, bytes, the
// dates and the repositories — writing nothing anywhere; it looks at the data home's store
// (read-only) for what is already imported or captured live. With --yes the host (or this command,
// holding the lease) imports them through the drain's parsers and drafts candidates, and this
// command follows it, with progress on stderr.
import { resolve } from 'node:path';
import { connect } from '../../client/connect.js';
import { echoed } from '../../echo-text.js';
import { CmError, EXIT } from '../../errors.js';
import type { ImportReport } from '../../api/capture.js';
import { importRoot, importRootProblem, type ImportClient } from '../../hosts/import-files.js';
import { dryRunImport } from '../../client/import-dry-run.js';
import { importProgressText, importReportLines, IMPORT_CLIENT_NAMES } from '../../import-text.js';
import { parseUtc } from '../../memory/window.js';
import { fitLine, fitLines, type Output } from '../output.js';
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
  // The flags first: a mistyped date is named even where the client's folder is missing too.
  const since = checkedUtc(flags.since, '--since');
  const until = checkedUtc(flags.until, '--until');
  if (since !== undefined && until !== undefined && parseUtc(since, '--since') >= parseUtc(until, '--until'))
    throw new CmError('usage', `--since ${since} is not before --until ${until}; nothing to import in that range.`);
  const root = importRoot(client, dirs[client]);
  const problem = importRootProblem(root);
  if (problem !== null)
    throw new CmError(
      'not_found',
      `No ${CLIENTS[client].name} transcripts at ${root}${problem}. Give the client's directory with ${CLIENTS[client].flag} DIR (${CLIENTS[client].holding}).`,
    );
  const repository = flags.repository === undefined ? undefined : resolve(flags.repository);
  if (flags.dryRun || !flags.yes) {
    const report = await dryRunImport(home, {
      client,
      root,
      sinceMs: since === undefined ? Number.NEGATIVE_INFINITY : parseUtc(since, '--since'),
      untilMs: until === undefined ? Number.POSITIVE_INFINITY : parseUtc(until, '--until'),
      repository: repository ?? null,
    });
    out.result(report, () => reportText(report, flags, repository, flags.yes === true));
    return EXIT.ok;
  }
  // The files are parsed on this thread while the writer commits the steps before (docs/import.md).
  const connection = await connect(home, 'write', { writerThread: true });
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
        say(fitLine(importProgressText(run), '  ', countPhrases(importProgressText(run))).join('\n'));
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
    out.result(report, () => reportText(report, flags, repository));
    return report.quarantined > 0 ? EXIT.incomplete : EXIT.ok;
  } finally {
    await connection.close();
  }
}

/** Each client's name in text, its directory flag, and what that directory holds. */
const CLIENTS = {
  claude: { name: IMPORT_CLIENT_NAMES.claude, flag: '--claude-dir', holding: 'its config dir, holding projects/' },
  codex: { name: IMPORT_CLIENT_NAMES.codex, flag: '--codex-home', holding: 'holding sessions/' },
  pi: { name: IMPORT_CLIENT_NAMES.pi, flag: '--pi-dir', holding: 'its agent dir, holding sessions/' },
} as const;

/** The flag's value as given, once it parses as a UTC instant (parseUtc says what is wrong). */
function checkedUtc(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined) parseUtc(value, flag);
  return value;
}

function clientOf(args: string[]): ImportClient {
  const [client, ...extra] = args;
  if (extra.length > 0) throw new CmError('usage', 'import takes one client: common-memory import claude|codex|pi.');
  if (client === 'claude' || client === 'codex' || client === 'pi') return client;
  throw new CmError(
    'usage',
    client === undefined
      ? 'Name the client to import from: common-memory import claude|codex|pi.'
      : `Unknown client ${echoed(client)}; name the client to import from: common-memory import claude|codex|pi.`,
  );
}

function reportText(r: ImportReport, flags: ImportFlags, repository: string | undefined, yesGiven = false): string {
  const none = noneMatched(r, flags, repository);
  const next = r.dryRun
    ? [
        none ??
          (r.turns === 0
            ? 'Nothing new would be imported.'
            : // With --yes given, --dry-run is what held it back: telling to add --yes would loop.
              yesGiven
              ? 'To import: run the same command without --dry-run.'
              : `To import: common-memory import ${r.client} --yes (same flags)`),
      ]
    : r.extraction
      ? extractionLines(r.extraction)
      : none === null
        ? []
        : [none];
  // At 80 columns (the TUI wraps the same lines to its own width): a count stays with its unit and
  // label, a command to copy whole.
  const text = importReportLines(r, next).join('\n');
  return fitLines(text, '  ', [
    `common-memory import ${r.client} --yes (same flags)`,
    'common-memory memory extract',
    'common-memory memory review',
    'common-memory flush',
    ...countPhrases(text),
  ]);
}

/** "skipped: 2 file(s)", "7 session(s)", "0.5 MB", "open turns: 3": a count with its unit or label. */
const countPhrases = (text: string): string[] =>
  text.match(
    /(?:\b[a-z]+(?: [a-z]+)?: )?\b\d+(?:[./]\d+)? (?:[a-z]+\(s\)|[a-z]+\b|MB(?: at \d+(?:\.\d+)? MB\/s)?)|\bopen turns: \d+/g,
  ) ?? [];

/**
 * When no file matched at all (none read, passed over, or imported before), what the filters
 * left out: "Nothing new" would say the conversations there were imported already, and a mistyped
 * --repository or a range with nothing in it would pass for a finished import.
 */
function noneMatched(r: ImportReport, flags: ImportFlags, repository: string | undefined): string | null {
  const seen = r.files + r.skipped + r.quarantined + r.alreadyImported + r.capturedLive + r.turnsAlreadyStored;
  if (seen > 0) return null;
  const name = CLIENTS[r.client].name;
  if (repository !== undefined) return `No ${name} conversation in these files ran in ${repository} or under it.`;
  if (flags.since !== undefined || flags.until !== undefined)
    return `No ${name} transcript was last written in that range (--since, --until).`;
  return `No ${name} transcript in this folder: ${r.root}`;
}
