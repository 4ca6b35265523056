// Revising an approved entry (issue 29, item 3: "edit through a new candidate"): `memory revise`
// opens the person's $EDITOR on the entry's text, and the edit becomes a draft candidate marked as
// revising the entry, whose plan rewrites the entry's own file. Through the real shipped bin, in a
// real git repository, with a real editor process (a node script that rewrites the file): the edit
// goes through prepare → approve → promote and the file holds the edited line; --file reads the
// text from a file; unchanged text, a failing editor, no editor and bad text make nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { shellQuote } from '../../source/shell-quote.js';
import * as c from '../support/capture.js';
import { git, gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

const FAKE_EDITOR = join(import.meta.dirname, '..', 'support', 'fake-editor.mjs');
const EDITOR = `${shellQuote(process.execPath)} ${shellQuote(FAKE_EDITOR)}`;
const OLD_LINE = 'Configuration is loaded by `src/legacy/config.ts`; run `pnpm run lint:legacy` after editing it.';
const NEW_LINE = 'Configuration is loaded by `src/config/load.ts`; run `pnpm run lint` after editing it.';
const LEGACY = join('work_method', 'legacy-config.md');

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeEntry(projectRoot(repo), 'legacy-config', 'Where configuration is loaded', OLD_LINE);
  writeEntry(projectRoot(repo), 'kept-rule', 'Keep reviews small', 'Keep each review under 400 lines.');
  git(repo, 'add', '--all');
  git(repo, 'commit', '-q', '-m', 'start');
  return repo;
}

/** The editor's environment: the fake editor as $EDITOR, no $VISUAL, and what it should do. */
const editing = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ VISUAL: '', EDITOR, ...extra });

async function cli(home: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli([...args, '--home', home], { cwd, env: { VISUAL: '', EDITOR: '', ...env } });
}

/**
 * The same call in this process (support/cli-in-process.ts), through the same main and a local host
 * of its own, where the shipped process is not what is tested (each spawn is 0.5–1.5 s of CPU):
 * reads, revisions from --file, refusals before anything is written, prepares and promotions. The
 * editor, a FIFO, one call of each command and one refusal of each exit code stay with the bin.
 */
async function inProcess(home: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCliInProcess([...args, '--home', home], { cwd, env: { VISUAL: '', EDITOR: '', ...env } });
}

async function queued(home: string, cwd: string): Promise<number> {
  const run = await inProcess(home, cwd, ['memory', 'review', '--scope', 'all', '--json']);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { total: number }).total;
}

interface Revised {
  entryId: string;
  scope: string;
  changed: boolean;
  candidateId: string | null;
  created?: boolean;
  status?: string;
  prepare?: string;
}

/** An edited revision as a person saves it for `memory revise --file`: `text` in a file of its own temp dir. */
function revisionFile(prefix: string, name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), name);
  writeFileSync(path, text);
  return path;
}

describe('memory revise', { timeout: 180_000 }, () => {
  it("opens $EDITOR on the entry's text; the edit is a candidate whose plan rewrites the entry's file", async () => {
    const home = tempHome('cm-revise');
    const repo = repository(home);
    assert.equal((await cli(home, repo, ['memory', 'sync', '--json'])).code, 0);
    const shown = join(mkdtempSync(join(tmpdir(), 'cm-revise-log-')), 'shown.md');
    const run = await cli(
      home,
      repo,
      ['memory', 'revise', 'legacy-config', '--json'],
      editing({ FAKE_EDITOR_LOG: shown, FAKE_EDITOR_REPLACE: OLD_LINE, FAKE_EDITOR_WITH: NEW_LINE }),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      readFileSync(shown, 'utf8'),
      `---\ntitle: "Where configuration is loaded"\nappliesWhen: "working in this repository"\ntype: "work_method"\n---\n${OLD_LINE}\n`,
      'the editor was given the title, appliesWhen, type and body',
    );
    const revised = JSON.parse(run.stdout) as Revised;
    assert.equal(revised.changed, true);
    assert.equal(revised.created, true);
    assert.equal(revised.status, 'draft');
    assert.match(revised.candidateId ?? '', /^cand-[0-9a-f]+$/);
    assert.equal(revised.prepare, `common-memory memory prepare ${revised.candidateId}`);
    assert.equal(await queued(home, repo), 1);

    const prepared = await cli(home, repo, ['memory', 'prepare', revised.candidateId!, '--json']);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = JSON.parse(prepared.stdout) as {
      planId: string;
      planDigest: string;
      diff: string;
      files: Array<{ action: string; entryId: string; path: string }>;
    };
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.entryId, f.path]),
      [['update', 'legacy-config', 'work_method/legacy-config.md']],
      "the entry's own file, updated",
    );
    const diffLines = plan.diff.split('\n');
    assert.ok(diffLines.includes(`-${OLD_LINE}`), `the old line goes:\n${plan.diff}`);
    assert.ok(diffLines.includes(`+${NEW_LINE}`), `the edited line comes:\n${plan.diff}`);
    assert.ok(!diffLines.some((line) => /^[-+]id:/.test(line)), 'the id is kept');

    const approved = await cli(home, repo, ['memory', 'approve', plan.planId, '--digest', plan.planDigest]);
    assert.equal(approved.code, 0, approved.stderr);
    const promoted = await cli(home, repo, ['memory', 'promote', plan.planId, '--json']);
    assert.equal(promoted.code, 0, promoted.stderr);
    const file = readFileSync(join(projectRoot(repo), LEGACY), 'utf8');
    assert.ok(file.includes(NEW_LINE) && !file.includes(OLD_LINE), file);
    const got = await cli(home, repo, ['get', 'legacy-config', '--json']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal((JSON.parse(got.stdout) as { body: string }).body.trim(), NEW_LINE);

    // The text output says what was made and the next command.
    const again = await cli(
      home,
      repo,
      ['memory', 'revise', 'kept-rule'],
      editing({ FAKE_EDITOR_REPLACE: '400 lines', FAKE_EDITOR_WITH: '300 lines' }),
    );
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      /^Candidate cand-\w+ made: a revision of kept-rule \(project work_method\/kept-rule\.md\)\.$/m,
    );
    assert.match(again.stdout, /common-memory memory prepare cand-\w+$/m);
  });

  it('--file gives the edited text; unchanged text makes nothing', async () => {
    const home = tempHome('cm-revise-file');
    const repo = repository(home);
    const dir = mkdtempSync(join(tmpdir(), 'cm-revise-file-'));
    const path = join(dir, 'kept.md');
    writeFileSync(
      path,
      '---\ntitle: Keep reviews short\nappliesWhen: "opening a pull request"\ntype: work_method\n---\n\nKeep each review under 300 lines.\n',
    );
    const run = await inProcess(home, repo, ['memory', 'revise', 'kept-rule', '--file', path, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const revised = JSON.parse(run.stdout) as Revised;
    assert.equal(revised.changed, true);
    // Review shows the lines the snapshot will give once promoted: under the entry's own id, which
    // the revision keeps, never an id of the candidate's own.
    const review = await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo });
    const [queuedRevision] = (JSON.parse(review.stdout) as { candidates: Array<{ snapshot: string }> }).candidates;
    assert.match(queuedRevision!.snapshot, /^- \[kept-rule\] \(project, priority \d+\) title: "Keep reviews short"/);
    const prepared = await inProcess(home, repo, ['memory', 'prepare', revised.candidateId!, '--json']);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = JSON.parse(prepared.stdout) as { diff: string; files: Array<{ action: string; entryId: string }> };
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.entryId]),
      [['update', 'kept-rule']],
    );
    const diffLines = plan.diff.split('\n');
    for (const line of [
      '-title: "Keep reviews small"',
      '+title: "Keep reviews short"',
      '-appliesWhen: "working in this repository"',
      '+appliesWhen: "opening a pull request"',
      '-Keep each review under 400 lines.',
      '+Keep each review under 300 lines.',
    ])
      assert.ok(diffLines.includes(line), `${line}\n${plan.diff}`);

    // Unchanged, from the editor (it saves without a change) and from a file: nothing is made.
    const before = await queued(home, repo);
    const same = await cli(home, repo, ['memory', 'revise', 'legacy-config'], editing());
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /Nothing changed in legacy-config: no candidate was made\./);
    const copy = join(dir, 'copy.md');
    writeFileSync(
      copy,
      `---\ntitle: Where configuration is loaded\nappliesWhen: working in this repository\ntype: work_method\n---\n${OLD_LINE}\n\n`,
    );
    const sameFile = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', copy, '--json']);
    assert.equal(sameFile.code, 0, sameFile.stderr);
    assert.deepEqual(JSON.parse(sameFile.stdout), {
      entryId: 'legacy-config',
      scope: 'project',
      changed: false,
      candidateId: null,
    });
    assert.equal(await queued(home, repo), before, 'no candidate was made');
  });

  it("keeps the entry's priority, confidence and evidence: a revision edits only title, appliesWhen, type and body", async () => {
    const home = tempHome('cm-revise-priority');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'urgent-rule', 'Run the linter', 'Run `npm run lint` before pushing.', {
      priority: 90,
    });
    const path = revisionFile(
      'cm-revise-priority-',
      'urgent.md',
      '---\ntitle: Run the linter\nappliesWhen: working in this repository\ntype: work_method\n---\nRun `npm run lint` before every push.\n',
    );
    const run = await inProcess(home, repo, ['memory', 'revise', 'urgent-rule', '--file', path, '--json']);
    assert.equal(run.code, 0, run.stderr);
    // Review shows the priority the promoted entry will have: the entry's, not a proposal's 50.
    const review = await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo });
    const [shown] = (JSON.parse(review.stdout) as { candidates: Array<{ priority: number; snapshot: string }> })
      .candidates;
    assert.equal(shown!.priority, 90);
    assert.match(shown!.snapshot, /^- \[urgent-rule\] \(project, priority 90\)/);
    const candidateId = (JSON.parse(run.stdout) as Revised).candidateId!;
    const prepared = await inProcess(home, repo, ['memory', 'prepare', candidateId, '--json']);
    assert.equal(prepared.code, 0, prepared.stderr);
    const diffLines = (JSON.parse(prepared.stdout) as { diff: string }).diff.split('\n');
    assert.ok(diffLines.includes('+Run `npm run lint` before every push.'), diffLines.join('\n'));
    assert.deepEqual(
      diffLines.filter((line) => /^[-+](priority|confidence):/.test(line)),
      [],
      `the priority (90) and confidence the person set stay:\n${diffLines.join('\n')}`,
    );
    // Who said it and who confirmed it stays the entry's: the revision's own candidate cites no turn.
    assert.deepEqual(
      diffLines.filter((line) => /^[-+]evidence:/.test(line)),
      [],
      `the entry's evidence stays:\n${diffLines.join('\n')}`,
    );
  });

  it("a changed type moves the entry's file to its type's folder, never dropped in silence", async () => {
    const home = tempHome('cm-revise-type');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'lint-rule', 'Run the linter', 'Run `npm run lint` before pushing.');
    const path = revisionFile(
      'cm-revise-type-',
      'lint.md',
      '---\ntitle: Run the linter\nappliesWhen: working in this repository\ntype: work_fact\n---\nRun `npm run lint` before pushing.\n',
    );
    const run = await inProcess(home, repo, ['memory', 'revise', 'lint-rule', '--file', path, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const candidateId = (JSON.parse(run.stdout) as Revised).candidateId!;
    const prepared = await inProcess(home, repo, ['memory', 'prepare', candidateId, '--json']);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = JSON.parse(prepared.stdout) as {
      planId: string;
      planDigest: string;
      diff: string;
      files: Array<{ action: string; path: string }>;
    };
    assert.deepEqual(
      plan.files.map((f) => [f.action, f.path]),
      [
        ['create', 'work_fact/lint-rule.md'],
        ['remove', 'work_method/lint-rule.md'],
      ],
      plan.diff,
    );
    assert.ok(plan.diff.split('\n').includes('+type: "work_fact"'), plan.diff);
    assert.equal(
      (await inProcess(home, repo, ['memory', 'approve', plan.planId, '--digest', plan.planDigest])).code,
      0,
    );
    const promoted = await inProcess(home, repo, ['memory', 'promote', plan.planId]);
    assert.equal(promoted.code, 0, promoted.stderr);
    assert.equal(existsSync(join(projectRoot(repo), 'work_method', 'lint-rule.md')), false);
    const got = await inProcess(home, repo, ['get', 'lint-rule', '--json']);
    assert.equal(got.code, 0, got.stderr);
    const entry = JSON.parse(got.stdout) as { type: string; sources: Array<{ path: string }> };
    assert.equal(entry.type, 'work_fact');
    assert.deepEqual(
      entry.sources.map((s) => s.path),
      ['work_fact/lint-rule.md'],
    );
  });

  it('an editor that fails, no editor, an unknown entry and bad text make nothing, and say what to do', async () => {
    const home = tempHome('cm-revise-bad');
    const repo = repository(home);
    const entryFile = join(projectRoot(repo), LEGACY);
    const bytes = readFileSync(entryFile);
    const dir = mkdtempSync(join(tmpdir(), 'cm-revise-bad-'));

    const failed = await cli(
      home,
      repo,
      ['memory', 'revise', 'legacy-config'],
      editing({ FAKE_EDITOR_REPLACE: OLD_LINE, FAKE_EDITOR_WITH: NEW_LINE, FAKE_EDITOR_EXIT: '3' }),
    );
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /The editor ".*fake-editor\.mjs" exited with status 3; nothing was made\./);

    const none = await cli(home, repo, ['memory', 'revise', 'legacy-config']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No editor to open: set VISUAL or EDITOR .* or give the new text with --file PATH/);

    const unknown = await cli(home, repo, ['memory', 'revise', 'no-such-entry'], editing());
    assert.equal(unknown.code, 6, unknown.stderr);
    assert.match(unknown.stderr, /no-such-entry/);
    const noArg = await inProcess(home, repo, ['memory', 'revise']);
    assert.equal(noArg.code, 2);
    assert.match(noArg.stderr, /Name the approved entry to revise/);
    const wrongScope = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--scope', 'user'], editing());
    assert.equal(wrongScope.code, 6, wrongScope.stderr);
    assert.match(wrongScope.stderr, /No user memory file holds entry legacy-config \(it is in the project scope\)/);
    const badScope = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--scope', 'team']);
    assert.equal(badScope.code, 2);

    const emptyTitle = join(dir, 'empty-title.md');
    writeFileSync(emptyTitle, '---\ntitle: ""\ntype: work_method\n---\nSome text.\n');
    const noTitle = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', emptyTitle]);
    assert.equal(noTitle.code, 2);
    assert.match(noTitle.stderr, /Line 2 of the edited text: `title` is required/);
    const emptyBody = join(dir, 'empty-body.md');
    writeFileSync(emptyBody, '---\ntitle: A title\ntype: work_method\n---\n\n   \n');
    const noBody = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', emptyBody]);
    assert.equal(noBody.code, 2);
    assert.match(noBody.stderr, /the body is empty/);
    const extra = join(dir, 'extra.md');
    writeFileSync(extra, '---\ntitle: A title\ntype: work_method\npriority: 90\n---\nText.\n');
    const noPriority = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', extra]);
    assert.equal(noPriority.code, 2);
    assert.match(noPriority.stderr, /`priority` is not changed by a revision/);
    const missing = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', join(dir, 'nope.md')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read .*nope\.md: no such file; give a readable file with --file/);
    // The file is the caller's input: a missing one is said before the entry is looked up.
    const both = await inProcess(home, repo, ['memory', 'revise', 'no-such-entry', '--file', join(dir, 'nope.md')]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /Cannot read .*nope\.md: no such file/);
    // `-` is not stdin here (the text is read from a file): said so, not "cannot read -".
    const dash = await inProcess(home, repo, ['memory', 'revise', 'legacy-config', '--file', '-']);
    assert.equal(dash.code, 2);
    assert.match(dash.stderr, /--file takes the path of a file; - \(standard input\) is not read/);
    // A path with a terminal escape is quoted back, never written raw to the terminal.
    const escaped = await inProcess(home, repo, [
      'memory',
      'revise',
      'legacy-config',
      '--file',
      join(dir, '\u001b[2Jx.md'),
    ]);
    assert.equal(escaped.code, 2);
    assert.doesNotMatch(escaped.stderr, /\u001b/);
    assert.match(escaped.stderr, /\\u001b\[2Jx\.md/);
    // A FIFO named as the file is refused at once (a blocking read would wait for a writer forever).
    const fifo = join(dir, 'edit.fifo');
    execFileSync('mkfifo', [fifo]);
    const piped = await cli(home, repo, ['memory', 'revise', 'legacy-config', '--file', fifo]);
    assert.equal(piped.code, 2);
    assert.match(piped.stderr, /edit\.fifo is not a regular file; give memory revise a file/);

    // Bad text from the editor is kept for the person to fix, and the message says where.
    const badEdit = await cli(
      home,
      repo,
      ['memory', 'revise', 'legacy-config'],
      editing({ FAKE_EDITOR_REPLACE: 'type: "work_method"', FAKE_EDITOR_WITH: 'type: "recipe"' }),
    );
    assert.equal(badEdit.code, 2);
    const kept = /fix (\S+) and run common-memory memory revise legacy-config --file \1/.exec(badEdit.stderr);
    assert.ok(kept, badEdit.stderr);
    assert.match(badEdit.stderr, /`type` must be one of work_fact, work_task, work_method, work_artifact/);
    assert.match(readFileSync(kept[1]!, 'utf8'), /type: "recipe"/);

    assert.equal(await queued(home, repo), 0, 'nothing refused made a candidate');
    assert.deepEqual(readFileSync(entryFile), bytes, "the entry's file is untouched");

    const help = await inProcess(home, repo, ['memory', 'revise', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /memory revise <entry-id>/);
    assert.match(help.stdout, /--file PATH/);
    for (const line of help.stdout.split('\n')) assert.ok(line.length <= 80, `over 80 columns: ${line}`);
  });

  it('revises a user-scope entry from inside a repository: prepare is told --scope user', async () => {
    const home = tempHome('cm-revise-user');
    const repo = repository(home);
    writeEntry(userRoot(home), 'my-indent', 'My indentation', 'I use two-space indents.');
    const run = await cli(
      home,
      repo,
      ['memory', 'revise', 'my-indent', '--json'],
      editing({ FAKE_EDITOR_REPLACE: 'two-space', FAKE_EDITOR_WITH: 'four-space' }),
    );
    assert.equal(run.code, 0, run.stderr);
    const revised = JSON.parse(run.stdout) as Revised;
    assert.equal(revised.scope, 'user');
    assert.equal(revised.prepare, `common-memory memory prepare ${revised.candidateId} --scope user`);
    // Prepared into the project's memory, which does not hold the entry, the revision would become a
    // new project entry instead of the user's entry's edit: refused, naming the scope that holds it.
    const misplaced = await inProcess(home, repo, ['memory', 'prepare', revised.candidateId!, '--json']);
    assert.equal(misplaced.code, 2, misplaced.stderr);
    const refusal = (JSON.parse(misplaced.stderr) as { error: { code: string; message: string } }).error;
    assert.equal(refusal.code, 'usage');
    assert.match(refusal.message, /revises my-indent, which is not in the project memory/);
    assert.match(refusal.message, /--scope user/);
    assert.match(refusal.message, /Nothing was prepared/);
    const prepared = await inProcess(home, repo, [
      'memory',
      'prepare',
      revised.candidateId!,
      '--scope',
      'user',
      '--json',
    ]);
    assert.equal(prepared.code, 0, prepared.stderr);
    const plan = JSON.parse(prepared.stdout) as { scope: string; diff: string; files: Array<{ action: string }> };
    assert.equal(plan.scope, 'user');
    assert.deepEqual(
      plan.files.map((f) => f.action),
      ['update'],
    );
    assert.ok(plan.diff.split('\n').includes('+I use four-space indents.'), plan.diff);
    assert.ok(existsSync(join(userRoot(home), 'work_method', 'my-indent.md')));
  });
});
