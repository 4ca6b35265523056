// Verification of anchors against real git worktrees (effects/anchor-verify.ts), the stamp cache,
// and the verdicts stored beside the entries in memory-state (store/memory/anchor-store.ts): a
// damaged store reads `unavailable`, never "everything is stale".
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { verifyAnchors } from '../../source/effects/anchor-verify.js';
import { extractAnchors } from '../../source/memory/anchors.js';
import { planAnchorRun } from '../../source/pipeline/anchor-refresh.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { recordAnchors } from '../../source/store/memory/anchor-store.js';
import {
  countStaleEntries,
  readAnchorSummary,
  readVerdicts,
  verdictFor,
} from '../../source/store/memory/verdict-read.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';
import type { Tx } from '../../source/store/transaction.js';
import { git } from '../support/anchor-cases.js';

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cm-anchor-verify-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  return root;
}

const verdictOf = (root: string, body: string) => {
  const anchors = extractAnchors({ title: 'Note', body }, { worktreeRoot: root });
  return verifyAnchors(root, [{ entryId: 'e', anchors }]).verdicts.get('e')!;
};

const BASE = {
  'src/legacy/config.ts': 'export function loadConfig() {}\n',
  'package.json': JSON.stringify({ scripts: { 'lint:legacy': 'true', test: 'true' } }),
  Makefile: 'proto:\n\t@true\n',
  justfile: 'seed-db:\n    true\n',
  'pyproject.toml': '[project]\nname = "x"\ndependencies = ["pytest>=8"]\n\n[project.scripts]\ncm-report = "x:main"\n',
};
const CLAIMS =
  'Config is loaded by `src/legacy/config.ts` (`loadConfig`); run `pnpm run lint:legacy`, `make proto`, `just seed-db`, `uv run cm-report`.';

describe('anchor verification against a worktree', () => {
  it('is fresh while every claim holds, and names each claim that stops holding', () => {
    const root = repo(BASE);
    const entries = [
      { entryId: 'e', anchors: extractAnchors({ title: 'Note', body: CLAIMS }, { worktreeRoot: root }) },
    ];
    const before = verifyAnchors(root, entries);
    assert.deepEqual(before.verdicts.get('e'), { verdict: 'fresh' });
    rmSync(join(root, 'src/legacy/config.ts'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'true' } }));
    writeFileSync(join(root, 'Makefile'), 'other:\n\t@true\n');
    const reasons = (verdict: ReturnType<typeof verdictOf>) =>
      verdict.verdict === 'stale' ? verdict.failed.map((f) => f.reason) : [];
    // The last run saw each claim hold: each one stopped.
    assert.deepEqual(reasons(verifyAnchors(root, entries, before.cache).verdicts.get('e')!), [
      '`src/legacy/config.ts` no longer exists',
      '`loadConfig` in `src/legacy/config.ts`: `src/legacy/config.ts` no longer exists',
      '`npm run lint:legacy`: package.json no longer defines the script "lint:legacy"',
      '`make proto`: Makefile no longer defines "proto"',
    ]);
    // No last run: a script not defined is not said to have been (HEAD still tells of the file).
    assert.deepEqual(reasons(verdictOf(root, CLAIMS)), [
      '`src/legacy/config.ts` no longer exists',
      '`loadConfig` in `src/legacy/config.ts`: `src/legacy/config.ts` no longer exists',
      '`npm run lint:legacy`: package.json does not define the script "lint:legacy"',
      '`make proto`: Makefile does not define "proto"',
    ]);
  });

  it('says a path never there "does not exist", and "no longer exists" only for one that was', () => {
    const root = repo(BASE);
    const reasons = (report: ReturnType<typeof verifyAnchors>) => {
      const verdict = report.verdicts.get('e')!;
      return verdict.verdict === 'stale' ? verdict.failed.map((f) => f.reason) : [];
    };
    const entries = (body: string) => [
      { entryId: 'e', anchors: extractAnchors({ title: 'Note', body }, { worktreeRoot: root }) },
    ];
    // A typo: a file never in the repository, and a symbol in it.
    const typo = verifyAnchors(root, entries('Config is in `src/legacy/confg.ts` (`loadConfig`).'));
    assert.deepEqual(reasons(typo), [
      '`src/legacy/confg.ts` does not exist',
      '`loadConfig` in `src/legacy/confg.ts`: `src/legacy/confg.ts` does not exist',
    ]);
    // A file seen by the last run and deleted since: it no longer exists, with or without git.
    writeFileSync(join(root, 'notes.md'), 'x');
    const seen = verifyAnchors(root, entries('See `notes.md`.'));
    assert.equal(seen.verdicts.get('e')!.verdict, 'fresh');
    rmSync(join(root, 'notes.md'));
    const gone = verifyAnchors(root, entries('See `notes.md`.'), seen.cache);
    assert.deepEqual(reasons(gone), ['`notes.md` no longer exists']);
    assert.equal(gone.counts.gitProcesses, 0, 'the last run saw it: git is not asked');
    // Unchanged since: the cached reason, no git.
    const warm = verifyAnchors(root, entries('Config is in `src/legacy/confg.ts`.'), typo.cache);
    assert.deepEqual(reasons(warm), ['`src/legacy/confg.ts` does not exist']);
    assert.equal(warm.counts.gitProcesses, 0);
    // A commit id never in the repository is not one; it did not stop being one.
    assert.deepEqual(reasons(verifyAnchors(root, entries('Fixed in commit 3f9a2c1.'))), [
      'commit 3f9a2c1 is not an object of the repository',
    ]);
    // Outside git, never seen: it does not exist, and nothing is asked.
    const plain = mkdtempSync(join(tmpdir(), 'cm-anchor-plain-'));
    const outside = verifyAnchors(plain, [
      { entryId: 'e', anchors: extractAnchors({ title: 'Note', body: 'See `src/app.ts`.' }, { worktreeRoot: plain }) },
    ]);
    assert.deepEqual(reasons(outside), ['`src/app.ts` does not exist']);
  });

  it('an entry without anchors is fresh; a pyproject dependency run through uv holds', () => {
    const root = repo(BASE);
    assert.deepEqual(verdictOf(root, 'Keep reviews small.'), { verdict: 'fresh' });
    assert.deepEqual(verdictOf(root, '`uv run pytest -x` runs the suite.'), { verdict: 'fresh' });
  });

  it('asks git once for every commit and branch, and a commit gone after a rewrite fails', () => {
    const root = repo(BASE);
    const first = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'extra.txt'), 'x');
    git(root, 'add', 'extra.txt');
    git(root, 'commit', '-q', '-m', 'second');
    const second = git(root, 'rev-parse', 'HEAD');
    git(root, 'branch', 'release/2.x', first);
    const entries = [
      {
        entryId: 'a',
        anchors: extractAnchors({ title: 't', body: `Since ${first.slice(0, 9)} and the \`release/2.x\` branch.` }),
      },
      { entryId: 'b', anchors: extractAnchors({ title: 't', body: `Fixed in commit ${second}.` }) },
    ];
    const before = verifyAnchors(root, entries);
    assert.equal(before.counts.gitProcesses, 1);
    assert.deepEqual(
      [...before.verdicts.values()].map((v) => v.verdict),
      ['fresh', 'fresh'],
    );
    // Rewrite history: the second commit is dropped and pruned.
    git(root, 'reset', '-q', '--hard', first);
    git(root, 'update-ref', '-d', 'ORIG_HEAD');
    // "all", not "now": a reflog entry or object of this very second is not older than now.
    git(root, 'reflog', 'expire', '--expire=all', '--all');
    git(root, 'gc', '-q', '--prune=all');
    const after = verifyAnchors(root, entries, before.cache);
    assert.equal(after.counts.gitProcesses, 1, "git's stamp changed: asked again");
    assert.equal(after.verdicts.get('a')!.verdict, 'fresh');
    assert.equal(after.verdicts.get('b')!.verdict, 'stale');
  });

  it('outside git, commits are unknown, never stale', () => {
    const root = mkdtempSync(join(tmpdir(), 'cm-anchor-nogit-'));
    assert.equal(verdictOf(root, 'Fixed in commit 3f9a2c1.').verdict, 'unknown');
  });

  it('judges a symlink without following it out of the worktree', () => {
    const outside = mkdtempSync(join(tmpdir(), 'cm-anchor-outside-'));
    writeFileSync(join(outside, 'secret.ts'), 'export const loadSecret = 1;\n');
    const root = repo({ 'src/a.ts': 'x' });
    symlinkSync(outside, join(root, 'linked'));
    symlinkSync(join(root, 'src'), join(root, 'inside'));
    symlinkSync('/nonexistent/target', join(root, 'dangling.ts'));
    assert.equal(verdictOf(root, 'See `linked/secret.ts` and `loadSecret` there.').verdict, 'unknown');
    assert.deepEqual(
      verdictOf(root, 'See `inside/a.ts`.'),
      { verdict: 'fresh' },
      'a link inside the worktree is followed',
    );
    assert.deepEqual(verdictOf(root, 'See `dangling.ts`.'), { verdict: 'fresh' }, 'the link itself is the claim');
    assert.equal(verdictOf(root, 'See `linked/gone.ts`.').verdict, 'unknown');
  });

  it('with the cache and an unchanged tree, reads no file and starts no git; a change is judged again', () => {
    const root = repo(BASE);
    const head = git(root, 'rev-parse', 'HEAD');
    // "commit" before the id: an abbreviation of digits only (2 % of heads) is a commit only in context.
    const entries = [
      { entryId: 'e', anchors: extractAnchors({ title: 't', body: `${CLAIMS} Since commit ${head.slice(0, 8)}.` }) },
    ];
    assert.ok(entries[0]!.anchors.some((anchor) => anchor.kind === 'commit'));
    const cold = verifyAnchors(root, entries);
    assert.ok(cold.counts.reads > 0 && cold.counts.gitProcesses === 1);
    const warm = verifyAnchors(root, entries, JSON.parse(JSON.stringify(cold.cache)));
    const changedInputs = Object.entries(cold.cache.results).filter(
      ([key, result]) => JSON.stringify(warm.cache.results[key]?.inputs) !== JSON.stringify(result.inputs),
    );
    assert.deepEqual(changedInputs, [], 'no input changed between the runs');
    assert.equal(warm.counts.judged, 0);
    assert.equal(warm.counts.gitProcesses, 0);
    assert.ok(warm.counts.reads <= 1, 'at most the git directory’s commondir probe');
    writeFileSync(join(root, 'justfile'), 'other:\n    true\n');
    const changed = verifyAnchors(root, entries, warm.cache);
    assert.equal(changed.counts.judged, 1);
    assert.equal(changed.verdicts.get('e')!.verdict, 'stale');
  });
});

describe('verdicts in memory-state', () => {
  const owner = { repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };
  const digest = 'c'.repeat(64);

  function store() {
    const path = join(mkdtempSync(join(tmpdir(), 'cm-anchor-store-')), 'memory-state.sqlite');
    const db = openDatabase(path);
    migrate(db, memoryStateSchema);
    return { db, path };
  }
  const tx = (db: ReturnType<typeof openDatabase>) => ({ db, nowMs: 1_000 }) as unknown as Tx<'memory'>;

  it('a run stores anchors and verdicts beside the entries; status counts stale entries', () => {
    const { db } = store();
    assert.equal(readAnchorSummary(db).state, 'unverified', 'before any run');
    const root = repo(BASE);
    db.prepare(
      `INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status)
       VALUES ('cfg', ?, ?, 1, ?, ?, ?, 'approved'), ('tone', ?, ?, 1, ?, ?, 'Be brief.', 'approved')`,
    ).run(
      owner.repositoryKey,
      owner.worktreeKey,
      digest,
      JSON.stringify({ title: 'Config' }),
      CLAIMS,
      owner.repositoryKey,
      owner.worktreeKey,
      digest,
      JSON.stringify({ title: 'Tone' }),
    );
    rmSync(join(root, 'src/legacy/config.ts'));
    const plan = planAnchorRun(db, owner, root);
    assert.equal(plan.counts.extracted, 2);
    assert.deepEqual(recordAnchors(tx(db), plan.input as never), { entries: 2, stale: 1 });
    const read = readVerdicts(db, [owner], { entryIds: ['cfg', 'tone', 'absent'] });
    assert.ok(read.available);
    assert.equal(read.verdicts.get('cfg')!.verdict, 'stale');
    assert.equal(read.verdicts.get('cfg')!.failed[0]!.reason, '`src/legacy/config.ts` no longer exists');
    assert.equal(read.verdicts.get('tone')!.verdict, 'fresh');
    assert.equal(read.verdicts.has('absent'), false);
    assert.equal(verdictFor(read, 'cfg', digest)?.verdict, 'stale');
    assert.equal(verdictFor(read, 'cfg', 'd'.repeat(64)), null, 'a verdict of an older text says nothing');
    const stale = readVerdicts(db, [owner], { stale: true });
    assert.deepEqual(stale.available ? [...stale.verdicts.keys()] : null, ['cfg']);
    assert.deepEqual(countStaleEntries(db, [owner]), { available: true, stale: [1] });
    assert.deepEqual(readAnchorSummary(db), {
      state: 'verified',
      reason: null,
      staleEntries: { project: 1, user: 0 },
      verifiedAt: new Date(1_000).toISOString(),
    });
    // The next run re-extracts nothing (same content) and, with the tree unchanged, reads nothing.
    const again = planAnchorRun(db, owner, root);
    assert.equal(again.counts.extracted, 0);
    assert.equal(again.counts.judged, 0);
  });

  it('a store that cannot answer (an older version without the table) says unavailable, not stale', () => {
    const older = openDatabase(join(mkdtempSync(join(tmpdir(), 'cm-anchor-old-')), 'memory-state.sqlite'));
    migrate(older, memoryStateSchema, 8);
    const read = readVerdicts(older, [owner], { stale: true });
    assert.equal(read.available, false);
    assert.match(read.available ? '' : read.reason, /no such table/);
    assert.equal(countStaleEntries(older, [owner]).available, false);
    assert.equal(readAnchorSummary(older).state, 'unavailable');
  });
});
