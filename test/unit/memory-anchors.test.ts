// Anchor extraction (source/memory/anchors.ts): what is recognised as a claim about the
// repository, what never is (`..`, absolute paths outside the worktree, URLs, globs, hex words),
// and its bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Anchor,
  anchorKey,
  extractAnchors,
  MAX_ANCHORS_PER_ENTRY,
  readPathToken,
} from '../../source/memory/anchors.js';
import { rankStaleLast, staleNote } from '../../source/memory/staleness.js';
import { seededRandom } from '../support/seeded-random.js';

const keys = (body: string, root?: string): string[] =>
  extractAnchors({ title: 'Note', body }, root ? { worktreeRoot: root } : {}).map(anchorKey);

describe('anchor extraction', () => {
  it('reads paths in backticks and in prose, with positions and ./ stripped', () => {
    assert.deepEqual(keys('Config is loaded by `src/legacy/config.ts:42`; see ./docs/setup.md and lib/.'), [
      'path:src/legacy/config.ts',
      'path:docs/setup.md',
      'path:lib/',
    ]);
  });

  it('reads package scripts, make targets, just recipes and python scripts, commands in code only where prose is ambiguous', () => {
    assert.deepEqual(keys('Run `pnpm run lint:legacy` after editing; npm test must pass.'), [
      'script:npm:lint:legacy',
      'script:npm:test',
    ]);
    assert.deepEqual(keys('```sh\nmake -j4 proto && just deploy-staging prod\nuv run cm-report --dry-run\n```'), [
      'script:make:proto',
      'script:just:deploy-staging',
      'script:python:cm-report',
    ]);
    assert.deepEqual(keys('Make sure the build passes; just ask if unsure.'), []);
    assert.deepEqual(keys('`make -C vendor all` builds the vendored copy.'), [], 'another directory’s targets');
  });

  it('ties a backticked symbol to the nearest file of its paragraph, and only then', () => {
    assert.deepEqual(keys('In src/config.ts, `loadConfig()` is the only entry point.'), [
      'path:src/config.ts',
      'symbol:src/config.ts#loadConfig',
    ]);
    assert.deepEqual(keys('Name booleans `isReady`.\n\nUnrelated: src/config.ts.'), ['path:src/config.ts']);
    assert.deepEqual(keys('Helpers sit in the `scripts` folder, e.g. `scripts/deploy.sh`.'), [
      'path:scripts/',
      'path:scripts/deploy.sh',
    ]);
  });

  it('reads commit ids with guards against hex words, numbers, digests and UUIDs', () => {
    assert.deepEqual(
      keys('The regression came in with 3f9a2c1; the fix is 0123456789abcdef0123456789abcdef01234567.'),
      ['commit:3f9a2c1', 'commit:0123456789abcdef0123456789abcdef01234567'],
    );
    assert.deepEqual(
      keys(
        'deadbeef marks freed memory; build 20240611; md5 d41d8cd98f00b204e9800998ecf8427e; id 550e8400-e29b-41d4-a716-446655440000; colour #3f9a2c1; 0x1234abcd; ABCDEF12.',
      ),
      [],
    );
    assert.deepEqual(keys('Reverted in commit 1234567.'), ['commit:1234567'], 'a number the text calls a commit');
  });

  it('reads explicit branches and repository-local binaries', () => {
    assert.deepEqual(keys('Releases are cut from the `release/2.x` branch; `git checkout main` first.'), [
      'branch:release/2.x',
      'branch:main',
    ]);
    assert.deepEqual(keys('`git checkout -b topic` then `npx vitest run`; `npx -y cowsay hi` is not ours.'), [
      'binary:vitest',
    ]);
  });

  it('never takes URLs, hosts, globs, placeholders, versions or home paths', () => {
    assert.deepEqual(
      keys(
        'See https://example.com/docs/a.html, www.example.org/x/y.md, `api.example.com`, `src/**/*.ts`, `<pkg>/index.ts`, `$HOME/.cache/x`, `~/.npmrc`, `v2.3.1`, and/or client/server.',
      ),
      [],
    );
  });

  it('keeps an absolute path only inside the worktree, relative to it', () => {
    assert.deepEqual(keys('Edit `/srv/repo/src/a.ts`, not `/etc/hosts`.', '/srv/repo'), ['path:src/a.ts']);
    assert.deepEqual(keys('Edit `/srv/repo/src/a.ts`.'), [], 'no worktree given: no absolute path is an anchor');
    assert.deepEqual(keys('Edit `/srv/repository-other/a.ts`.', '/srv/repo'), [], 'a sibling sharing a prefix');
  });

  it(`keeps at most ${MAX_ANCHORS_PER_ENTRY} anchors, in order of mention, each once`, () => {
    const body = Array.from({ length: 40 }, (_, i) => `\`src/f${i}.ts\` and \`src/f${i}.ts\``).join('\n');
    const anchors = extractAnchors({ title: 't', body });
    assert.equal(anchors.length, MAX_ANCHORS_PER_ENTRY);
    assert.deepEqual(anchors[0], { kind: 'path', path: 'src/f0.ts', directory: false });
    assert.deepEqual(anchors[15], { kind: 'path', path: 'src/f15.ts', directory: false });
  });

  it('property: no anchor path escapes the worktree, is absolute, or holds "." or ".." segments', () => {
    const random = seededRandom(2901);
    const parts = [
      '..',
      '.',
      'src',
      'a.ts',
      'lib',
      '',
      '~',
      'b.json',
      '...',
      '..a',
      'x..y',
      '/',
      'etc',
      'passwd',
      'C:',
    ];
    const root = '/home/u/repo';
    for (let n = 0; n < 3000; n++) {
      const length = 1 + Math.floor(random() * 6);
      let path = Array.from({ length }, () => parts[Math.floor(random() * parts.length)]).join('/');
      if (random() < 0.3) path = `/${path}`;
      if (random() < 0.2) path = `${root}/${path}`;
      const wrap = random() < 0.5 ? `\`${path}\`` : path;
      for (const anchor of extractAnchors({ title: 'x', body: `See ${wrap} now.` }, { worktreeRoot: root })) {
        const named = anchor.kind === 'path' || anchor.kind === 'symbol' ? anchor.path : null;
        if (named === null) continue;
        assert.ok(!named.startsWith('/'), `${path} → ${named}: absolute`);
        assert.ok(!/^[A-Za-z]:/.test(named), `${path} → ${named}: a drive`);
        for (const segment of named.split('/')) {
          assert.ok(segment !== '..' && segment !== '.' && segment !== '', `${path} → ${named}: segment "${segment}"`);
        }
      }
    }
  });

  it('property: a path under the worktree root is read back relative, whatever its words', () => {
    const random = seededRandom(2902);
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 8) }, () => 'abcxyz019_-'[Math.floor(random() * 11)]).join('');
    for (let n = 0; n < 500; n++) {
      const relative = `${Array.from({ length: 1 + Math.floor(random() * 4) }, word).join('/')}.ts`;
      assert.deepEqual(readPathToken(`/r/${relative}`, true, '/r'), { path: relative, directory: false });
      assert.equal(readPathToken(`/r/../${relative}`, true, '/r'), null);
      assert.equal(readPathToken(`/elsewhere/${relative}`, true, '/r'), null);
    }
  });

  it('is total: random text never throws and stays within the bound', () => {
    const random = seededRandom(2903);
    const alphabet = 'ab/.`-_ \n#:0f9()$*[]{}<>~@';
    for (let n = 0; n < 500; n++) {
      const body = Array.from(
        { length: Math.floor(random() * 400) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const anchors: Anchor[] = extractAnchors({ title: '', body });
      assert.ok(anchors.length <= MAX_ANCHORS_PER_ENTRY);
    }
  });
});

describe('how a stale entry is shown', () => {
  it('names the first failed claim and how many more', () => {
    assert.equal(
      staleNote([
        { anchor: '`src/a.ts`', reason: '`src/a.ts` no longer exists' },
        { anchor: '`make proto`', reason: '`make proto`: Makefile no longer defines "proto"' },
      ]),
      'may be stale: `src/a.ts` no longer exists (and 1 more)',
    );
    assert.equal(staleNote([{ anchor: 'x', reason: 'x is gone' }]), 'may be stale: x is gone');
  });

  it('search keeps its order, stale entries last', () => {
    const hits = ['a', 'b', 'c', 'd'].map((entryId) => ({ entryId }));
    assert.deepEqual(
      rankStaleLast(hits, new Set(['a', 'c'])).map((h) => h.entryId),
      ['b', 'd', 'a', 'c'],
    );
  });
});
