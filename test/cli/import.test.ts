// `import claude|codex|pi`: the transcripts the real clients wrote (the recorded fixtures), laid out as
// the clients lay them out, imported through the drain's parsers — a dry run writes nothing, an
// import stores each turn once, again adds nothing, a session captured live is not stored twice,
// a bad file is skipped or quarantined while the rest imports, and a killed import goes on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CaptureStatus, ImportReport, SessionList, SessionView } from '../../source/api/capture.js';
import { capturePiEnvelope } from '../../source/hook/pi-capture.js';
import { parsePayload } from '../../source/hook/payload.js';
import { ensureHome, storeFiles } from '../../source/home.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { AUTO_EXTRACT_ENV, IMPORT_FILE_MAX_BYTES, IMPORT_REST_MS } from '../../source/limits.js';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, tempHome } from '../support/cli.js';
import { textColumns } from '../../source/text-columns.js';

after(() => c.closeStores());

const OFF = { [AUTO_EXTRACT_ENV]: 'off' };
/** The text as one line: import's report is wrapped to 80 columns. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const CLAUDE_SCENARIOS = readdirSync(join(c.FIXTURES, 'claude', 'transcripts'));
const CODEX_ROLLOUTS = readdirSync(join(c.FIXTURES, 'codex', 'rollouts')).filter((name) => name.endsWith('.jsonl'));

/** A Claude Code config dir holding every recorded transcript in one project folder, as the client lays it out. */
function claudeDir(home: string): { dir: string; project: string } {
  const dir = join(dirname(home), 'claude');
  const project = join(dir, 'projects', '-home-user-project');
  mkdirSync(project, { recursive: true });
  for (const scenario of CLAUDE_SCENARIOS) c.copyTranscript(c.claudeTranscriptFixture(scenario), project);
  return { dir, project };
}

/** A Codex home holding the recorded rollouts under sessions/YYYY/MM/DD, named as Codex names them. */
function codexHome(home: string, names = CODEX_ROLLOUTS): { dir: string; day: string } {
  const dir = join(dirname(home), 'codex');
  const day = join(dir, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  for (const name of names) copyFileSync(c.rolloutFixture(name), join(day, rolloutName(c.rolloutFixture(name))));
  return { dir, day };
}

const PI_SESSIONS = readdirSync(join(c.FIXTURES, 'pi', 'sessions')).filter((name) => name.endsWith('.jsonl'));

/** A pi agent dir holding the recorded session files under sessions/--<cwd>--/, named as pi names them. */
function piDir(home: string, names = PI_SESSIONS): { dir: string; folder: string; files: string[] } {
  const dir = join(dirname(home), 'pi-agent');
  const folder = join(dir, 'sessions', '--home-user-project--');
  mkdirSync(folder, { recursive: true });
  const files = names.map((name) => {
    const from = join(c.FIXTURES, 'pi', 'sessions', name);
    const header = JSON.parse(readFileSync(from, 'utf8').split('\n')[0]!) as { id: string; timestamp: string };
    const to = join(folder, `${header.timestamp.replace(/[:.]/g, '-')}_${header.id}.jsonl`);
    copyFileSync(from, to);
    return to;
  });
  return { dir, folder, files };
}

const threadOf = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { payload: { id: string } }).payload.id;
const rolloutName = (file: string) => `rollout-2026-11-30T20-56-56-${threadOf(file)}.jsonl`;

async function importJson(
  args: string[],
  env: Record<string, string> = OFF,
): Promise<{ code: number | null; report: ImportReport; stderr: string }> {
  const result = await runCliInProcess(['import', ...args, '--json'], { env });
  assert.ok(result.stdout.trim().startsWith('{'), `import printed no report: ${result.stderr}`);
  return { code: result.code, report: JSON.parse(result.stdout) as ImportReport, stderr: result.stderr };
}

function rows<T>(home: string, sql: string): T[] {
  const db = c.readOnly(home);
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const evidence = (home: string) =>
  rows<{ body: string }>(
    home,
    "SELECT body FROM capture_messages WHERE classification = 'evidence' ORDER BY message_id",
  ).map((r) => r.body);
const turnCount = (home: string) => rows<{ n: number }>(home, 'SELECT count(*) AS n FROM capture_turns')[0]!.n;

describe('import: what it would do, then once', () => {
  it('without --yes (and with --dry-run) it says what it would import and writes nothing, not even a data home', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    const text = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home], { env: OFF });
    assert.equal(text.code, 0, text.stderr);
    assert.match(flat(text.stdout), /would import from Claude Code: 7 session\(s\), 11 turn\(s\)/);
    assert.match(flat(text.stdout), /dates: 2026-11-30T20:57:55\.991Z to /);
    assert.match(
      flat(text.stdout),
      /\/home\/user\/project: 7 session\(s\) — no longer exists: its memory binds to your user scope/,
    );
    // Said of what an import would do, not as done.
    assert.match(
      flat(text.stdout),
      /Nothing was written\. An import stores what you said in these sessions as evidence, the rest as context\./,
    );
    const dry = await importJson(['claude', '--claude-dir', dir, '--home', home, '--dry-run', '--yes']);
    assert.equal(dry.report.dryRun, true);
    assert.equal(dry.report.turns, 11);
    assert.match(flat(text.stdout), /To import: common-memory import claude --yes \(same flags\)/);
    // --yes was typed already: the way on is to drop --dry-run, not to add --yes again.
    const both = await runCliInProcess(
      ['import', 'claude', '--claude-dir', dir, '--home', home, '--dry-run', '--yes'],
      {
        env: OFF,
      },
    );
    assert.match(flat(both.stdout), /To import: run the same command without --dry-run\./);
    assert.equal(existsSync(home), false, 'a dry run creates no data home');
  });

  it('its text fits 80 columns from a long directory: a count with its unit, the root path and commands whole', async () => {
    const home = tempHome('imp-eighty');
    const { dir } = claudeDir(
      join(dirname(home), 'a-config-folder-with-a-rather-long-name-for-eighty-columns', 'home'),
    );
    const wide = (text: string) =>
      text
        .split('\n')
        .filter((line) => textColumns(line) > 80 && !/^ *\S+$/.test(line) && !/^ *common-memory /.test(line));
    const dry = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home], { env: OFF });
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(wide(dry.stdout), [], dry.stdout);
    // The root path ends its line with nothing glued to it: copied, it is the path alone.
    const root = join(dir, 'projects');
    assert.ok(
      dry.stdout.split('\n').some((line) => line.trimEnd() === root || line.trimEnd().endsWith(` ${root}`)),
      dry.stdout,
    );
    assert.ok(!dry.stdout.includes(`${root})`) && !dry.stdout.includes(`${root}.`), dry.stdout);
    assert.match(dry.stdout, /(^|\s)7 session\(s\), 11 turn\(s\),/m);
    assert.match(dry.stdout, /common-memory import claude --yes \(same flags\)$/m);
    const done = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home, '--yes'], {
      env: OFF,
    });
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(wide(done.stdout + done.stderr), [], done.stdout + done.stderr);
  });

  it('--yes imports every turn once, apart from live capture, searchable; a second import adds nothing', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    // Text mode: progress goes to stderr (with --json only when stderr is a terminal).
    const first = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home, '--yes'], {
      env: OFF,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      flat(first.stdout),
      /imported from Claude Code: 7 session\(s\), 11 turn\(s\), [\d.]+ MB in 8 file\(s\)/,
    );
    assert.match(flat(first.stdout), /skipped: 0 file\(s\) · quarantined: 0 file\(s\)/);
    assert.match(
      first.stderr,
      /import: 8\/8 files · 7 sessions · 11 turns · [\d.]+ MB at [\d.]+ MB\/s/,
      'progress on stderr',
    );
    const stored = rows<{ origin: string; sourceLine: number | null; n: number }>(
      home,
      `SELECT a.origin, min(t.source_line) AS sourceLine, count(*) AS n FROM capture_turns t JOIN capture_activations a USING (activation_id) GROUP BY a.origin`,
    );
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.origin, 'imported');
    assert.equal(stored[0]!.n, 11);
    assert.ok(stored[0]!.sourceLine! >= 1, 'each imported turn keeps its source line');
    const watches = rows<{ origin: string; path: string }>(
      home,
      'SELECT origin, transcript_path AS path FROM capture_watches',
    );
    assert.ok(
      watches.every((w) => w.origin === 'imported' && w.path.startsWith(dir)),
      'provenance: the source file',
    );
    assert.ok(evidence(home).includes('hello'), 'what the user typed is evidence');
    const search = await runCliInProcess(['search', 'hello', '--home', home, '--json']);
    assert.ok(
      (JSON.parse(search.stdout) as { results: unknown[] }).results.length > 0,
      'imported evidence is searchable',
    );
    const status = JSON.parse((await runCliInProcess(['status', '--home', home, '--json'])).stdout) as CaptureStatus;
    assert.deepEqual(status.imports, { liveSessions: 0, sessions: 7, turns: 11, quarantined: 0 });
    const listed = await runCliInProcess(['sessions', '--home', home]);
    assert.match(listed.stdout, /claude \(imported\) {2}complete/, 'sessions marks what was imported');

    const again = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.deepEqual(
      { files: again.report.files, sessions: again.report.sessions, turns: again.report.turns },
      { files: 0, sessions: 0, turns: 0 },
    );
    assert.equal(turnCount(home), 11, 'a second import creates nothing');
  });

  it('sessions lists imported sessions newest first by when each started, not in the order they were imported', async () => {
    const home = tempHome('imp-order');
    const { dir } = claudeDir(home);
    assert.equal((await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes'])).code, 0);
    const imported = rows<{ key: string }>(
      home,
      'SELECT session_key AS key FROM capture_activations ORDER BY activation_id DESC',
    ).map((row) => row.key);
    const listed = JSON.parse((await runCliInProcess(['sessions', '--home', home, '--json'])).stdout) as SessionList;
    const started = listed.sessions.map((session) => session.startedAt);
    assert.deepEqual(started, [...started].sort().reverse(), 'newest start first');
    assert.notDeepEqual(
      listed.sessions.map((session) => session.sessionKey),
      imported,
      'the fixtures start in another order than they import in',
    );
    // Each start is when its first turn began, as the transcript records it (the line that opened the
    // turn, at most moments before the words typed), not the import's clock.
    const firstTyped = await Promise.all(
      listed.sessions.map(async (session) => {
        const read = await runCliInProcess(['session', session.sessionKey, '--home', home, '--json']);
        return (JSON.parse(read.stdout) as SessionView).turns[0]!.typedAt;
      }),
    );
    started.forEach((start, i) => {
      const ahead = Date.parse(firstTyped[i]!) - Date.parse(start);
      assert.ok(ahead >= 0 && ahead < 60_000, `${start} starts the session whose first words are at ${firstTyped[i]}`);
    });
    // Pages of 2 (sessions --after) and of status (--after-session) give the same order, each once.
    const paged: string[] = [];
    for (let after: string | null | undefined; after !== null; ) {
      const page = JSON.parse(
        (
          await runCliInProcess([
            'sessions',
            '--home',
            home,
            '--json',
            '--limit',
            '2',
            ...(after ? ['--after', after] : []),
          ])
        ).stdout,
      ) as SessionList;
      paged.push(...page.sessions.map((session) => session.sessionKey));
      after = page.nextAfter;
    }
    assert.deepEqual(
      paged,
      listed.sessions.map((session) => session.sessionKey),
    );
    const status = JSON.parse((await runCliInProcess(['status', '--home', home, '--json'])).stdout) as CaptureStatus;
    assert.deepEqual(
      status.sessions.map((session) => session.sessionKey),
      listed.sessions.map((session) => session.sessionKey),
    );
  });

  it('search finds an imported turn by when it was typed, not when it was imported, and says that time', async () => {
    const home = tempHome('imp-when');
    const { dir } = claudeDir(home);
    assert.equal(
      (await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home, '--yes'], { env: OFF })).code,
      0,
    );
    // 01-plain: the user typed "hello" at 2026-11-30T20:57:55.991Z (the transcript's own time).
    const search = async (...flags: string[]) =>
      JSON.parse((await runCliInProcess(['search', 'hello', '--home', home, '--json', ...flags])).stdout) as {
        results: Array<{ typedAt: string; snippet: string }>;
      };
    const before = await search('--until', '2026-12-01');
    assert.ok(
      before.results.some((hit) => hit.typedAt === '2026-11-30T20:57:55.991Z' && hit.snippet === '[hello]'),
      JSON.stringify(before),
    );
    const today = await search('--since', new Date(Date.now() - 3_600_000).toISOString());
    assert.deepEqual(today.results, [], 'nothing imported was typed in the last hour');
    const text = await runCliInProcess(['search', 'hello', '--until', '2026-12-01', '--home', home]);
    assert.match(text.stdout, /^2026-11-30T20:57:55\.991Z {2}claude/m, 'the text output leads with when it was typed');
  });

  it('the dry run looks at the store (read-only): after an import it says nothing new would be imported', async () => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    const files = storeFiles(home);
    const before = readFileSync(files.core);
    const text = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home], { env: OFF });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      flat(text.stdout),
      /would import from Claude Code: 0 session\(s\), 0 turn\(s\), 0\.0 MB in 0 file\(s\)/,
    );
    assert.match(flat(text.stdout), /already imported: 7 session\(s\) · captured live: 0 session\(s\)/);
    assert.match(flat(text.stdout), /Nothing new would be imported\./);
    assert.doesNotMatch(text.stdout, /To import:/);
    const dry = await importJson(['claude', '--claude-dir', dir, '--home', home, '--dry-run']);
    assert.deepEqual(
      { files: dry.report.files, sessions: dry.report.sessions, turns: dry.report.turns },
      { files: 0, sessions: 0, turns: 0 },
    );
    assert.equal(dry.report.alreadyImported, 7, 'each session imported (a file that held no turn is none)');
    assert.deepEqual(readFileSync(files.core), before, 'the dry run wrote nothing to the store');
    assert.equal(turnCount(home), 11);

    // A file that grew since (a session resumed) would bring only its new turns.
    const grown = join(project, 'resumed.jsonl');
    const file = c.claudeTranscriptFixture('02-03-04-08-tool-resume-continue-compact');
    const whole = readFileSync(file);
    const cut = c.offsetAfter(file, '"type":"assistant"');
    rmSync(join(project, basename(file)));
    writeFileSync(grown, whole.subarray(0, cut));
    const fresh = tempHome('imp');
    const partHome = await importJson(['claude', '--claude-dir', dir, '--home', fresh, '--yes']);
    assert.equal(partHome.code, 0);
    const partTurns = turnCount(fresh);
    writeFileSync(grown, whole);
    const grownDry = await importJson(['claude', '--claude-dir', dir, '--home', fresh]);
    assert.equal(grownDry.report.files, 1, 'only the grown file would be read');
    assert.equal(grownDry.report.alreadyImported, 6);
    assert.equal(grownDry.report.sessions, 1);
    const grownReal = await importJson(['claude', '--claude-dir', dir, '--home', fresh, '--yes']);
    assert.equal(grownDry.report.turns, grownReal.report.turns, 'the dry run counts what the import then stores');
    assert.equal(turnCount(fresh), partTurns + grownReal.report.turns);
  });

  it('the dry run counts a session in two files once, as the import stores it', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    const other = join(dir, 'projects', '-home-user-other');
    mkdirSync(other, { recursive: true });
    copyFileSync(c.claudeTranscriptFixture('01-plain'), join(other, basename(c.claudeTranscriptFixture('01-plain'))));
    const dry = await importJson(['claude', '--claude-dir', dir, '--home', home]);
    assert.equal(existsSync(home), false, 'a dry run creates no data home');
    const real = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.equal(dry.report.turns, 11);
    assert.deepEqual(
      [dry.report.sessions, dry.report.turns, dry.report.turnsAlreadyStored, dry.report.alreadyImported],
      [real.report.sessions, real.report.turns, real.report.turnsAlreadyStored, real.report.alreadyImported],
    );
    assert.equal(real.report.alreadyImported, 1, 'the copy: every turn stored from the other file');
  });

  it('Codex rollouts: the evidence is exactly what live capture of the same rollout stores', async () => {
    const liveHome = tempHome('imp');
    const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(liveHome));
    c.replay(liveHome, 'codex', c.hookFiles('codex', 'b'), t, 'proc-b');
    await c.flush(liveHome);
    const home = tempHome('imp');
    const { dir } = codexHome(home, ['b-tool-call-exec-command.jsonl']);
    const result = await importJson(['codex', '--codex-home', dir, '--home', home, '--yes']);
    assert.equal(result.report.turns, 1);
    assert.deepEqual(evidence(home), evidence(liveHome));
    const kinds = (h: string) =>
      rows<{ kind: string }>(h, 'SELECT kind FROM capture_messages ORDER BY message_id').map((r) => r.kind);
    assert.deepEqual(kinds(home), kinds(liveHome), 'every message classified as live capture classifies it');
  });

  it('a session captured live is not imported again: its own file is skipped, a copy of it adds no turn', async () => {
    const home = tempHome('imp');
    const { dir, day } = codexHome(home, []);
    const live = join(day, rolloutName(c.rolloutFixture('b-tool-call-exec-command.jsonl')));
    copyFileSync(c.rolloutFixture('b-tool-call-exec-command.jsonl'), live);
    c.replay(home, 'codex', c.hookFiles('codex', 'b'), live, 'proc-b');
    await c.flush(home);
    assert.equal(turnCount(home), 1);
    // The same session in another file (a copied config dir): identity is the session and turn ids.
    const copy = join(dir, 'sessions', '2026', '12', '01');
    mkdirSync(copy, { recursive: true });
    copyFileSync(live, join(copy, basename(live)));
    const dry = await importJson(['codex', '--codex-home', dir, '--home', home]);
    assert.deepEqual(
      { sessions: dry.report.sessions, turns: dry.report.turns, capturedLive: dry.report.capturedLive },
      { sessions: 0, turns: 0, capturedLive: 2 },
      'the dry run sees the live file and the copy of its session as captured live',
    );
    assert.equal(dry.report.turnsAlreadyStored, 1);
    const text = await runCliInProcess(['import', 'codex', '--codex-home', dir, '--home', home], { env: OFF });
    assert.match(flat(text.stdout), /already imported: 0 session\(s\) · captured live: 2 session\(s\)/);
    assert.match(flat(text.stdout), /Nothing new would be imported\./);
    const result = await importJson(['codex', '--codex-home', dir, '--home', home, '--yes']);
    assert.equal(result.report.capturedLive, 2);
    assert.equal(result.report.skipped, 0, 'a file captured live is counted as such, not as skipped');
    const after = await importJson(['codex', '--codex-home', dir, '--home', home]);
    assert.deepEqual(
      [after.report.turns, after.report.capturedLive, after.report.alreadyImported],
      [0, 2, 0],
      'after the import the copy still counts as captured live, not as imported',
    );
    assert.equal(result.report.turns, 0);
    assert.equal(result.report.turnsAlreadyStored, 1);
    assert.ok(result.report.notes.some((n) => n.path === live && /captured live/.test(n.reason)));
    assert.equal(turnCount(home), 1);
    assert.deepEqual(evidence(home), ['TOOL: run echo hi']);
    const status = JSON.parse((await runCliInProcess(['status', '--home', home, '--json'])).stdout) as CaptureStatus;
    assert.equal(status.imports.liveSessions, 1);
    assert.equal(status.imports.sessions, 0);
  });
});

describe('import: a turn still open', () => {
  it('is reported again by the next import and dry run while it stays open, not dropped from the report', async () => {
    const home = tempHome('imp');
    const { dir, files } = piDir(home, ['d-provider-error.jsonl']);
    const first = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.equal(first.report.openTurns, 1, JSON.stringify(first.report));
    // The file has not changed: its turn is still open, and the next reports say so.
    for (const args of [[], ['--yes']]) {
      const again = await importJson(['pi', '--pi-dir', dir, '--home', home, ...args]);
      assert.equal(again.report.openTurns, 1, JSON.stringify(again.report));
      assert.ok(
        again.report.notes.some((n) => n.path === files[0] && n.what === 'open'),
        JSON.stringify(again.report.notes),
      );
      assert.equal(again.report.turns, 0, 'nothing is stored again');
    }
  });
});

describe('import: a filter that matches nothing', () => {
  it('--repository or dates that match no file say that no conversation matched, not "nothing new"', async () => {
    const home = tempHome('imp');
    const { dir } = piDir(home);
    const elsewhere = join(dirname(home), 'no-such-repository');
    const repo = await runCliInProcess(['import', 'pi', '--pi-dir', dir, '--repository', elsewhere, '--home', home], {
      env: OFF,
    });
    assert.equal(repo.code, 0, repo.stderr);
    // Nothing was imported before: "Nothing new" would say the sessions there are old, not absent.
    assert.doesNotMatch(repo.stdout, /Nothing new/);
    assert.ok(
      flat(repo.stdout).includes(`No pi conversation in these files ran in ${elsewhere} or under it.`),
      repo.stdout,
    );
    const range = await runCliInProcess(['import', 'pi', '--pi-dir', dir, '--since', '2099-01-01', '--home', home], {
      env: OFF,
    });
    assert.match(flat(range.stdout), /No pi transcript was last written in that range \(--since, --until\)\./);
    const yes = await runCliInProcess(
      ['import', 'pi', '--pi-dir', dir, '--repository', elsewhere, '--home', home, '--yes'],
      { env: OFF },
    );
    assert.equal(yes.code, 0, yes.stderr);
    assert.ok(flat(yes.stdout).includes(`ran in ${elsewhere} or under it`), yes.stdout);
  });
});

describe('import: bad input is skipped or quarantined, the rest imports', () => {
  it('an unknown record quarantines that file only (the file untouched, recorded, exit 3); the others import', async () => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    const bad = join(project, readdirSync(project).sort()[0]!);
    const sessionId = basename(bad, '.jsonl');
    appendFileSync(bad, `${JSON.stringify({ type: 'brand-new-record', sessionId, uuid: randomUUID() })}\n`);
    const before = readFileSync(bad);
    const result = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.equal(result.code, 3);
    assert.equal(result.report.quarantined, 1);
    assert.ok(
      result.report.notes.some(
        (n) => n.path === bad && n.what === 'quarantined' && /transcript_unknown_record/.test(n.reason),
      ),
    );
    assert.ok(result.report.sessions >= 6, 'the other files import');
    assert.deepEqual(readFileSync(bad), before, 'every byte of the file is kept where the client wrote it');
    const q = rows<{ code: string; state: string }>(home, 'SELECT code, state FROM import_quarantine');
    assert.deepEqual(q, [{ code: 'transcript_unknown_record', state: 'open' }]);
    const status = JSON.parse((await runCliInProcess(['status', '--home', home, '--json'])).stdout) as CaptureStatus;
    assert.equal(status.imports.quarantined, 1);
  });

  it('a rollout of an older Codex version is quarantined as unsupported; the others import', async () => {
    const home = tempHome('imp');
    const { dir, day } = codexHome(home, ['a-simple-one-turn.jsonl', 'b-tool-call-exec-command.jsonl']);
    const old = join(day, rolloutName(c.rolloutFixture('a-simple-one-turn.jsonl')));
    writeFileSync(old, readFileSync(old, 'utf8').replace('"cli_version":"0.171.0"', '"cli_version":"0.100.0"'));
    const result = await importJson(['codex', '--codex-home', dir, '--home', home, '--yes']);
    assert.equal(result.report.quarantined, 1);
    assert.ok(result.report.notes.some((n) => n.path === old && /transcript_unsupported_version/.test(n.reason)));
    assert.deepEqual(evidence(home), ['TOOL: run echo hi']);
  });

  it('a partial last line (a client still writing) imports what is complete; the next import reads the rest once', async () => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    const file = c.claudeTranscriptFixture('02-03-04-08-tool-resume-continue-compact');
    const target = join(project, basename(file));
    const whole = readFileSync(file);
    const cut = c.offsetAfter(file, '"type":"assistant"') + 40; // inside the next line
    writeFileSync(target, whole.subarray(0, cut));
    const first = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.ok(first.report.notes.some((n) => n.path === target && n.what === 'partial'));
    const afterFirst = turnCount(home);
    writeFileSync(target, whole);
    const second = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.equal(second.report.files, 1, 'only the grown file is read again');
    assert.ok(turnCount(home) > afterFirst);
    assert.equal(turnCount(home), 11, 'the same turns as one import of the whole file');
    const keys = rows<{ n: number; d: number }>(
      home,
      'SELECT count(*) AS n, count(DISTINCT turn_key) AS d FROM capture_turns',
    )[0]!;
    assert.equal(keys.n, keys.d, 'no turn twice');
  });

  it('a Claude session without Stop hooks: its last turn, ended on the answer, imports once the file is at rest', async () => {
    const home = tempHome('imp');
    const dir = join(dirname(home), 'claude');
    const project = join(dir, 'projects', '-home-user-project');
    mkdirSync(project, { recursive: true });
    const file = c.claudeTranscriptFixture('01-plain');
    const target = join(project, basename(file));
    // As Claude Code writes a session no Stop hook ran in: no stop_hook_summary closes the turn.
    const whole = readFileSync(file);
    const stopLine = whole.lastIndexOf(0x0a, whole.indexOf('"stop_hook_summary"')) + 1;
    writeFileSync(target, whole.subarray(0, stopLine));
    const fresh = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.deepEqual([fresh.report.turns, fresh.report.openTurns], [0, 1], 'a file just written: its turn may go on');
    const old = new Date(Date.now() - IMPORT_REST_MS - 60_000);
    utimesSync(target, old, old);
    const dry = await importJson(['claude', '--claude-dir', dir, '--home', home]);
    assert.deepEqual([dry.report.turns, dry.report.openTurns], [1, 0], 'the dry run counts it too');
    const atRest = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.deepEqual([atRest.report.sessions, atRest.report.turns, atRest.report.openTurns], [1, 1, 0]);
    assert.deepEqual(rows<{ state: string }>(home, 'SELECT state FROM capture_turns'), [{ state: 'settled' }]);
    assert.ok(evidence(home).includes('hello'));
    const again = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.deepEqual([again.report.files, again.report.turns, again.report.alreadyImported], [0, 0, 1]);
    // The session resumed later: the stop summary (its turn's end) arrives; nothing is stored twice.
    writeFileSync(target, whole);
    const resumed = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.equal(resumed.report.quarantined, 0, JSON.stringify(resumed.report.notes));
    assert.equal(turnCount(home), 1);
  });

  it('a link, a FIFO and a file over the byte bound are each passed over with a line; the rest imports', async () => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    const outside = join(dirname(home), 'elsewhere.jsonl');
    copyFileSync(c.claudeTranscriptFixture('01-plain'), outside);
    symlinkSync(outside, join(project, 'linked.jsonl'));
    execFileSync('mkfifo', [join(project, 'fifo.jsonl')]);
    const huge = join(project, 'huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, IMPORT_FILE_MAX_BYTES + 1); // sparse: no disk, and never read
    const result = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    const note = (name: string) => result.report.notes.find((n) => n.path === join(project, name));
    assert.match(note('linked.jsonl')!.reason, /symbolic link/);
    assert.match(note('fifo.jsonl')!.reason, /not a regular file/);
    assert.equal(note('huge.jsonl')!.what, 'quarantined');
    assert.match(note('huge.jsonl')!.reason, /import_over_limit: \d+ bytes, over the \d+-byte bound/);
    assert.equal(result.report.skipped, 2);
    assert.equal(result.report.quarantined, 1);
    assert.equal(result.report.turns, 11, 'every regular file imports');
  });

  it('a project folder that is a link is passed over with a line, as a linked file is', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    const outside = join(dirname(home), 'elsewhere-project');
    mkdirSync(outside);
    copyFileSync(c.claudeTranscriptFixture('01-plain'), join(outside, 'x.jsonl'));
    const linked = join(dir, 'projects', '-home-user-linked');
    symlinkSync(outside, linked);
    const result = await importJson(['claude', '--claude-dir', dir, '--home', home]);
    // Not followed, and not dropped without a word: its sessions would be missing from the count.
    const note = result.report.notes.find((n) => n.path === linked);
    assert.ok(note, JSON.stringify(result.report.notes));
    assert.equal(note.what, 'skipped');
    assert.match(note.reason, /symbolic link/);
    assert.equal(result.report.skipped, 1);
  });

  it('a client folder that is a file or a FIFO is refused like a missing one, nothing read', async () => {
    const home = tempHome('imp');
    const dir = join(dirname(home), 'pi-not-dir');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, 'sessions')]);
    const fifo = await runCliInProcess(['import', 'pi', '--pi-dir', dir, '--home', home], { env: OFF });
    assert.equal(fifo.code, 6, fifo.stderr);
    assert.match(fifo.stderr, /sessions: it is not a directory/);
    assert.match(fifo.stderr, /--pi-dir DIR/);
    const file = join(dirname(home), 'codex-not-dir');
    mkdirSync(file);
    writeFileSync(join(file, 'sessions'), 'not a folder');
    const plain = await runCliInProcess(['import', 'codex', '--codex-home', file, '--home', home, '--yes'], {
      env: OFF,
    });
    assert.equal(plain.code, 6, plain.stderr);
    assert.match(plain.stderr, /sessions: it is not a directory/);
    assert.equal(existsSync(home), false, 'nothing was written, not even a data home');
  });

  it('a session id in two files: the turns of the second copy are already stored, the session is not doubled', async () => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    const other = join(dir, 'projects', '-home-user-other');
    mkdirSync(other, { recursive: true });
    copyFileSync(c.claudeTranscriptFixture('01-plain'), join(other, basename(c.claudeTranscriptFixture('01-plain'))));
    const result = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes']);
    assert.equal(result.report.turns, 11);
    assert.ok(result.report.turnsAlreadyStored >= 1);
    assert.equal(turnCount(home), 11);
    assert.ok(existsSync(project));
  });

  it('a directory the user cannot read is skipped with a line; its siblings import', async (t) => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    const locked = join(dir, 'projects', '-home-user-locked');
    mkdirSync(locked);
    copyFileSync(c.claudeTranscriptFixture('01-plain'), join(locked, 'x.jsonl'));
    chmodSync(locked, 0o000);
    t.after(() => chmodSync(locked, 0o755));
    // root reads any directory: the command runs as an unprivileged user then, with its own data home.
    const asRoot = process.getuid?.() === 0;
    const env = { ...process.env, ...OFF };
    let report: ImportReport;
    if (asRoot) {
      for (let d = dir; d !== dirname(dirname(home)); d = dirname(d)) chmodSync(d, 0o755);
      execFileSync('chmod', ['-R', 'a+rX', join(dir, 'projects', '-home-user-project')]);
      const nobodyHome = join(dirname(home), 'nobody-home');
      mkdirSync(nobodyHome, { mode: 0o700 });
      execFileSync('chown', ['65534:65534', nobodyHome]);
      const result = execFileSync(
        process.execPath,
        [
          c.FIXTURES.replace(/fixtures\/$/, 'bin/common-memory.cjs'),
          'import',
          'claude',
          '--claude-dir',
          dir,
          '--home',
          nobodyHome,
          '--yes',
          '--json',
        ],
        { uid: 65534, gid: 65534, env: { ...env, HOME: nobodyHome }, encoding: 'utf8' },
      );
      report = JSON.parse(result) as ImportReport;
    } else report = (await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes'])).report;
    assert.ok(
      report.notes.some(
        (n) => n.path === locked && n.what === 'skipped' && /directory not readable \(EACCES\)/.test(n.reason),
      ),
    );
    assert.equal(report.turns, 11);
  });
});

describe('import: a file the user cannot read', () => {
  it('is skipped with a line and not counted among the files read', async (t) => {
    const home = tempHome('imp');
    const { dir, project } = claudeDir(home);
    const locked = join(project, 'locked.jsonl');
    copyFileSync(c.claudeTranscriptFixture('01-plain'), locked);
    const asRoot = process.getuid?.() === 0;
    // root reads any file: the command runs as an unprivileged user then, with its own data home.
    if (asRoot) {
      for (let d = dir; d !== dirname(dirname(home)); d = dirname(d)) chmodSync(d, 0o755);
      execFileSync('chmod', ['-R', 'a+rX', project]);
    }
    chmodSync(locked, 0o000);
    t.after(() => chmodSync(locked, 0o644));
    const run = (dryRun: boolean): ImportReport => {
      const args = ['import', 'claude', '--claude-dir', dir, ...(dryRun ? [] : ['--yes']), '--json'];
      const nobodyHome = join(dirname(home), `nobody-home-${dryRun}`);
      mkdirSync(nobodyHome, { mode: 0o700 });
      execFileSync('chown', ['65534:65534', nobodyHome]);
      const out = execFileSync(
        process.execPath,
        [c.FIXTURES.replace(/fixtures\/$/, 'bin/common-memory.cjs'), ...args, '--home', nobodyHome],
        { uid: 65534, gid: 65534, env: { ...process.env, ...OFF, HOME: nobodyHome }, encoding: 'utf8' },
      );
      return JSON.parse(out) as ImportReport;
    };
    const reports = asRoot
      ? [run(true), run(false)]
      : [
          (await importJson(['claude', '--claude-dir', dir, '--home', home])).report,
          (await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes'])).report,
        ];
    for (const report of reports) {
      assert.ok(
        report.notes.some((n) => n.path === locked && n.what === 'skipped' && /not readable \(EACCES\)/.test(n.reason)),
        JSON.stringify(report.notes),
      );
      assert.equal(report.skipped, 1);
      // "in N file(s)" counts the files read: the one passed over is counted as skipped only.
      assert.equal(report.files, CLAUDE_SCENARIOS.length, JSON.stringify(report));
    }
  });
});

describe('import: killed, it goes on', () => {
  it('kill -9 after its first commit; the next import stores the rest and nothing twice', async () => {
    const home = tempHome('imp');
    const { dir, day } = codexHome(home, []);
    // Twenty sessions of the recorded tool turn, each with its own thread id.
    const source = readFileSync(c.rolloutFixture('b-tool-call-exec-command.jsonl'), 'utf8');
    const thread = threadOf(c.rolloutFixture('b-tool-call-exec-command.jsonl'));
    for (let i = 0; i < 20; i++) {
      const id = `01a22e40-36ff-79a2-a0b6-${String(i).padStart(12, '0')}`;
      writeFileSync(
        join(day, `rollout-2026-11-30T20-56-${String(i).padStart(2, '0')}-${id}.jsonl`),
        source.split(thread).join(id),
      );
    }
    const args = ['import', 'codex', '--codex-home', dir, '--home', home, '--yes', '--json'];
    const killed = await runCli(args, { env: { ...OFF, COMMON_MEMORY_FAULTS: 'captureImportStep.afterCommit=kill' } });
    assert.equal(killed.signal, 'SIGKILL', `the import was to die at its first commit: ${killed.stderr}`);
    assert.equal(turnCount(home), 1, 'one step committed before the kill');
    const resumed = await runCli(args, { env: { ...OFF } });
    assert.equal(resumed.code, 0, resumed.stderr);
    const report = JSON.parse(resumed.stdout) as ImportReport;
    assert.equal(report.turns, 19);
    assert.equal(report.files, 19, 'the committed file is not read again');
    const keys = rows<{ n: number; d: number }>(
      home,
      "SELECT count(*) AS n, count(DISTINCT w.host_session_id || ':' || t.turn_key) AS d FROM capture_turns t JOIN capture_watches w USING (watch_id)",
    )[0]!;
    assert.deepEqual(keys, { n: 20, d: 20 });
    assert.equal(evidence(home).length, 20);
  });
});

describe('import: extraction follows', () => {
  it('drafts a candidate from a durable rule said in an imported session, none from a question; a gone directory binds to the user scope', async () => {
    const home = tempHome('imp');
    const dir = join(dirname(home), 'claude');
    const project = join(dir, 'projects', '-home-user-project');
    mkdirSync(project, { recursive: true });
    const said = (fixture: string, text: string) => {
      const file = c.claudeTranscriptFixture(fixture);
      const original = (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { content: string }).content;
      writeFileSync(
        join(project, basename(file)),
        readFileSync(file, 'utf8').split(JSON.stringify(original).slice(1, -1)).join(text),
      );
    };
    said('01-plain', 'In this repository we always use pnpm, never npm, to install packages.');
    said('07-tool-fail', 'What does the build script in this folder do?');
    const result = await runCliInProcess(['import', 'claude', '--claude-dir', dir, '--home', home, '--yes', '--json'], {
      env: { [AUTO_EXTRACT_ENV]: 'on' },
    });
    const report = JSON.parse(result.stdout) as ImportReport;
    assert.equal(report.extraction?.state, 'done', result.stderr);
    assert.equal(report.repositories[0]?.exists, false);
    const review = await runCliInProcess(['memory', 'review', '--home', home, '--json']);
    const text = review.stdout;
    assert.match(text, /pnpm/, 'the rule became a candidate');
    assert.doesNotMatch(text, /build script/, 'the question did not');
    assert.match(text, /"scope":"user"/, 'a directory that no longer exists binds to the user scope');
  });
});

/** pi's events for one recorded session file, as common-memory's extension records them live. */
function piLiveEvents(file: string): string[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const sessionId = lines[0]!['id'] as string;
  const event = (record: Record<string, unknown>) =>
    JSON.stringify({ hook_event_name: record['type'], session_id: sessionId, cwd: '/home/user/project', record });
  const out = [event({ type: 'session_start', reason: 'startup' })];
  for (const line of lines) {
    const message = line['message'] as { role: string; content: Array<{ text: string }> } | undefined;
    if (message?.role === 'user') {
      // Each prompt of a print-mode session is typed, then runs on its own.
      out.push(event({ type: 'input', text: message.content[0]!.text, source: 'interactive', images: 0 }));
      out.push(event({ type: 'agent_start' }));
    }
    if (message !== undefined) out.push(event({ type: 'message_end', message }));
    if (message?.role === 'assistant') out.push(event({ type: 'agent_end' }));
  }
  out.push(event({ type: 'SessionEnd', reason: 'quit' }));
  return out;
}

describe('import pi: the session files pi wrote', () => {
  it('dry run says what it would import; --yes imports each turn once, listed and searchable; again adds nothing', async () => {
    const home = tempHome('imp');
    const { dir } = piDir(home);
    const dry = await runCliInProcess(['import', 'pi', '--pi-dir', dir, '--home', home], { env: OFF });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(flat(dry.stdout), /would import from pi: 4 session\(s\), 6 turn\(s\)/);
    assert.match(flat(dry.stdout), /open turns: 1/, 'the provider error with no retry waits');
    assert.match(flat(dry.stdout), /\/home\/user\/project: 4 session\(s\) — no longer exists/);
    assert.equal(existsSync(home), false, 'a dry run creates no data home');

    const first = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      {
        files: first.report.files,
        sessions: first.report.sessions,
        turns: first.report.turns,
        quarantined: first.report.quarantined,
      },
      { files: 5, sessions: 4, turns: 6, quarantined: 0 },
    );
    assert.deepEqual(evidence(home).sort(), [
      'Always use pnpm in this repository, never npm.',
      'Please always write tests first.',
      'We deploy on Fridays only after review.',
      'and keep commits small',
      'run echo hi',
      'what is two plus two?',
    ]);
    const kinds = rows<{ kind: string; classification: string }>(
      home,
      "SELECT DISTINCT kind, classification FROM capture_messages WHERE classification = 'context' ORDER BY kind",
    ).map((r) => r.kind);
    assert.deepEqual(kinds, ['answer', 'tool_call', 'tool_result']);
    const listed = await runCliInProcess(['sessions', '--home', home]);
    assert.match(listed.stdout, /pi \(imported\)/);
    const search = await runCliInProcess(['search', 'pnpm', '--home', home, '--json']);
    assert.equal((JSON.parse(search.stdout) as { results: unknown[] }).results.length, 1);

    const again = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.deepEqual(
      { files: again.report.files, sessions: again.report.sessions, turns: again.report.turns },
      { files: 0, sessions: 0, turns: 0 },
    );
    assert.equal(turnCount(home), 6, 'a second import creates nothing');
  });

  it('a session captured live through the pi extension is not imported again from its file', async () => {
    const home = tempHome('imp');
    const { dir, files } = piDir(home, ['a-two-prompts.jsonl', 'b-tool-call-bash.jsonl']);
    ensureHome(home);
    const db = openDatabase(storeFiles(home).core);
    try {
      migrate(db, coreSchema);
      for (const payload of piLiveEvents(files[0]!)) capturePiEnvelope(db, 'pi:live', parsePayload(payload));
    } finally {
      db.close();
    }
    await c.drain(home);
    assert.equal(turnCount(home), 2, 'live capture sealed the two turns');
    const result = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.equal(result.report.turns, 1, 'only the session that was not captured live');
    assert.equal(result.report.turnsAlreadyStored, 2, 'the live turns are recognised by session and turn ids');
    assert.equal(turnCount(home), 3);
    assert.equal(
      evidence(home).filter((text) => text === 'Always use pnpm in this repository, never npm.').length,
      1,
      'the prompt is stored once',
    );
  });

  it('an unknown record quarantines that file only; a partial last line waits for the next import', async () => {
    const home = tempHome('imp');
    const { dir, files } = piDir(home, [
      'a-two-prompts.jsonl',
      'b-tool-call-bash.jsonl',
      'e-follow-up-while-busy.jsonl',
    ]);
    const [bad, partial] = files as [string, string, string];
    appendFileSync(
      bad,
      `${JSON.stringify({ type: 'brand_new_entry', id: 'ffff0000', parentId: null, timestamp: '2026-12-03T05:00:00.000Z' })}\n`,
    );
    const before = readFileSync(bad);
    const whole = readFileSync(partial);
    truncateSync(partial, whole.length - 30);
    const result = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.equal(result.code, 3);
    assert.equal(result.report.quarantined, 1);
    assert.ok(
      result.report.notes.some(
        (n) => n.path === bad && n.what === 'quarantined' && /transcript_unknown_record: line 8 /.test(n.reason),
      ),
      JSON.stringify(result.report.notes),
    );
    assert.ok(result.report.notes.some((n) => n.path === partial && n.what === 'partial'));
    assert.deepEqual(readFileSync(bad), before, 'the quarantined file is untouched');
    // The bad file is one read: nothing of it is stored. The tool session imports; of the partial
    // one, the turn whose answer is complete.
    assert.equal(result.report.turns, 0 + 1 + 1);
    writeFileSync(partial, whole);
    const again = await importJson(['pi', '--pi-dir', dir, '--home', home, '--yes']);
    assert.equal(again.report.turns, 1, 'the completed line is read');
    assert.equal(again.report.quarantined, 1, 'the bad file stays quarantined until repaired');
    assert.equal(turnCount(home), 3);
  });
});

describe('import: refusals say what happened and what to do', () => {
  it('another client’s dir, an unknown flag, a bad date and a missing folder are refused; nothing is written', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    const cases: Array<[string[], RegExp]> = [
      [['import', 'pi', '--codex-home', dir], /import pi reads --pi-dir only; --codex-home belongs to import codex/],
      [['import', 'pi', '--pi-dir', join(dir, 'nope')], /No pi transcripts at .*--pi-dir DIR/],
      [['import', 'claude', '--codex-home', dir], /import claude reads --claude-dir only/],
      [['import', 'claude', '--bogus'], /Unknown flag --bogus/],
      [['import', 'claude', '--claude-dir', dir, '--since', '2026-13-01'], /--since/],
      [
        ['import', 'claude', '--claude-dir', dir, '--since', '2026-12-01', '--until', '2026-11-01'],
        /is not before --until/,
      ],
      [['import', 'claude', '--claude-dir', join(dir, 'nope')], /No Claude Code transcripts at .*--claude-dir DIR/],
      // A mistyped flag is named first, even where the client's folder is missing too.
      [['import', 'codex', '--codex-home', join(dir, 'nope'), '--since', 'yesterday'], /--since must be a UTC date/],
      [
        ['import', 'codex', '--codex-home', join(dir, 'nope'), '--since', '2026-12-01', '--until', '2026-11-01'],
        /is not before --until/,
      ],
      [['import'], /Name the client to import from/],
      [
        ['import', 'vim'],
        /Unknown client "vim"; name the client to import from: common-memory import claude\|codex\|pi/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runCliInProcess([...args, '--home', home]);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.equal(existsSync(home), false);
  });
});

describe('import: capacity', () => {
  it('a session over the per-session capacity quarantines its file; the smaller sessions import', async () => {
    const home = tempHome('imp');
    const { dir } = claudeDir(home);
    // A session capacity of 6,000 bytes of bodies: the recorded sessions hold 4,420–5,160 bytes,
    // except the resumed and compacted one (about 12 KB), which does not fit.
    const result = await importJson(['claude', '--claude-dir', dir, '--home', home, '--yes'], {
      ...OFF,
      COMMON_MEMORY_CAPACITY_BYTES: '6000:100000000',
    });
    const over = result.report.notes.filter((n) =>
      /import_over_capacity: its session would hold \d+ bytes/.test(n.reason),
    );
    assert.equal(over.length, 1, JSON.stringify(result.report.notes));
    assert.equal(result.report.quarantined, 1);
    assert.equal(result.report.sessions, 6, 'the sessions that fit import');
    assert.equal(result.code, 3);
  });
});
