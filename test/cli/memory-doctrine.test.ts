// Doctrine given back (issue 28), through the shipped bin with real files in a real git repository:
// a doctrine file (`doctrine/<name>.md`) is read and linted by the sync and kept in memory-state;
// `get doctrine:<name>` (and MCP `memory_get`) gives the principle and the notes it cites, search
// finds it, and the SessionStart snapshot names it in one bounded line — while its basis holds.
// When a note it cites is edited, the snapshot leaves it out, `get` says it is not given as true,
// and search marks it stale; a doctrine written again (its file changed and synced) stands anew.
// With no doctrine file the snapshot's bytes are the ones it gave before.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { git, gitRepo, runCli, tempHome } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';
import { entryText, projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

const sessionStart = c.sessionStartContext;

const DOCTRINE =
  '---\ndoctrine: append-only-migrations\ntitle: "Migrations are append-only"\ncites: ["mig-2", "mig-3"]\n---\nA migration that ran anywhere is history: fix forward with a new one.\n';

describe('doctrine given back', () => {
  it('get, search and the snapshot give a doctrine while its basis holds, and never as true after', async () => {
    const home = tempHome('cm-principles');
    const repo = gitRepo(home, 'repo');
    const root = projectRoot(repo);
    writeConsolidationEntries(root);
    // The notes name migrations/: it exists, so they are not stale.
    mkdirSync(join(repo, 'migrations'));
    writeFileSync(join(repo, 'migrations', '0001-init.sql'), 'CREATE TABLE t (id INTEGER);\n');
    git(repo, 'add', 'migrations');
    git(repo, 'commit', '-qm', 'init');
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: repo });
    assert.equal((await cli('memory', 'sync')).code, 0);
    const before = await sessionStart(home, repo, 's0');
    assert.doesNotMatch(before, /\(doctrine —/);

    mkdirSync(join(root, 'doctrine'));
    writeFileSync(join(root, 'doctrine', 'append-only-migrations.md'), DOCTRINE);
    assert.equal((await cli('memory', 'sync')).code, 0);

    const got = await cli('get', 'doctrine:append-only-migrations', '--json');
    assert.equal(got.code, 0, got.stderr);
    const view = JSON.parse(got.stdout);
    assert.equal(view.type, 'doctrine');
    assert.equal(view.title, 'Migrations are append-only');
    assert.equal(view.stale, undefined, 'its basis holds');
    assert.deepEqual(view.doctrine, {
      name: 'append-only-migrations',
      cites: [
        { entryId: 'mig-2', title: 'Never edit a merged migration' },
        { entryId: 'mig-3', title: 'Fix a migration with a new migration' },
      ],
      basisChanged: [],
    });
    assert.deepEqual(view.sources, [{ scope: 'project', path: 'doctrine/append-only-migrations.md' }]);
    assert.match(
      view.body,
      /^A migration that ran anywhere is history: fix forward with a new one\.\n\nNotes it cites \(2\):\n- mig-2: Never edit a merged migration\n/,
    );
    const text = await cli('get', 'doctrine:append-only-migrations');
    assert.match(text.stdout, /^doctrine:append-only-migrations: Migrations are append-only\ndoctrine citing 2 notes/);

    const search = JSON.parse((await cli('memory', 'search', 'append-only migrations', '--json')).stdout);
    assert.deepEqual(search.results[0], {
      entryId: 'doctrine:append-only-migrations',
      title: 'Migrations are append-only',
      scope: 'project',
      path: 'doctrine/append-only-migrations.md',
      kind: 'doctrine',
      entries: 2,
    });

    const given = await sessionStart(home, repo, 's1');
    assert.match(
      given,
      /\n\(doctrine — approved principles citing these notes; `memory_get` reads one by its id, or `[^`]+ get <id>`: \[doctrine:append-only-migrations\] "Migrations are append-only"\)\n/,
    );
    assert.ok(Buffer.byteLength(given) <= 8 * 1024);
    // The managed block `memory assemble` writes for teammates is the same selection: it names it too.
    assert.equal((await cli('memory', 'assemble', '--provider', 'claude')).code, 0);
    assert.match(
      readFileSync(join(repo, 'CLAUDE.md'), 'utf8'),
      /\[doctrine:append-only-migrations\] "Migrations are append-only"/,
    );

    const client = await McpTestClient.start(home, repo);
    try {
      const viaMcp = await client.call('memory_get', { id: 'doctrine:append-only-migrations' });
      assert.equal(viaMcp.isError, undefined);
      assert.deepEqual(viaMcp.structuredContent, view);
    } finally {
      await client.close();
    }

    // A note it cites is edited (by hand, no sync): its basis changed. The hook follows the files.
    writeFileSync(
      join(root, 'work_method', 'mig-2.md'),
      entryText('mig-2', 'Never edit a merged migration', 'Merged migrations may be edited when nobody ran them.\n'),
    );
    const changed = await sessionStart(home, repo, 's2');
    assert.doesNotMatch(changed, /\(doctrine —/, 'a doctrine whose basis changed is not given');
    const stale = JSON.parse((await cli('get', 'doctrine:append-only-migrations', '--json')).stdout);
    assert.equal(stale.stale, true);
    assert.deepEqual(stale.doctrine.basisChanged, ['mig-2 changed since this doctrine was written']);
    assert.match(
      stale.body,
      /^\(Not given as true: the notes it rests on changed since it was written — mig-2 changed/,
    );
    const staleText = await cli('get', 'doctrine:append-only-migrations');
    assert.match(
      staleText.stdout,
      /^NOT GIVEN AS TRUE: the notes it rests on changed since it was written:\n {2}- mig-2 changed/m,
    );
    const marked = JSON.parse((await cli('memory', 'search', 'append-only migrations', '--json')).stdout).results;
    const hit = marked.find((r: { entryId: string }) => r.entryId === 'doctrine:append-only-migrations');
    assert.equal(hit.stale, true);
    assert.equal(hit.staleNote, 'mig-2 changed since this doctrine was written');
    assert.equal(marked.at(-1), hit, 'a doctrine whose basis changed comes last');

    // Written again (a person re-read the notes and touched the principle): it stands anew.
    writeFileSync(
      join(root, 'doctrine', 'append-only-migrations.md'),
      DOCTRINE.replace('fix forward', 'always fix forward'),
    );
    assert.equal((await cli('memory', 'sync')).code, 0);
    assert.match(await sessionStart(home, repo, 's3'), /\[doctrine:append-only-migrations\]/);

    // A cited note found stale (the directory it names is gone): not given as true either.
    rmSync(join(repo, 'migrations'), { recursive: true });
    assert.equal((await cli('memory', 'status')).code, 0, 'status verifies this worktree');
    assert.doesNotMatch(await sessionStart(home, repo, 's3b'), /\(doctrine —/);
    const unverified = JSON.parse((await cli('get', 'doctrine:append-only-migrations', '--json')).stdout);
    // (mig-2's text, edited above, no longer names the directory.)
    assert.deepEqual(unverified.doctrine.basisChanged, ['mig-3 may be stale: `migrations/` no longer exists']);
    git(repo, 'checkout', '--', 'migrations');
    assert.equal((await cli('memory', 'status')).code, 0);
    assert.match(await sessionStart(home, repo, 's3c'), /\[doctrine:append-only-migrations\]/);

    // A cited note removed: not given as true either.
    rmSync(join(root, 'work_method', 'mig-3.md'));
    assert.doesNotMatch(await sessionStart(home, repo, 's4'), /\(doctrine —/);
    const gone = JSON.parse((await cli('get', 'doctrine:append-only-migrations', '--json')).stdout);
    assert.deepEqual(gone.doctrine.basisChanged, ['mig-3 is no longer an approved note']);
    assert.deepEqual(gone.doctrine.cites[1], { entryId: 'mig-3', title: null });

    // No doctrine file, and the snapshot is the one it gave before, byte for byte.
    writeFileSync(
      join(root, 'work_method', 'mig-2.md'),
      entryText(
        'mig-2',
        'Never edit a merged migration',
        'A database migration in migrations/ is never edited once merged.',
      ),
    );
    writeFileSync(
      join(root, 'work_method', 'mig-3.md'),
      entryText(
        'mig-3',
        'Fix a migration with a new migration',
        'A broken database migration in migrations/ gets a follow-up migration.',
      ),
    );
    rmSync(join(root, 'doctrine'), { recursive: true });
    assert.equal(await sessionStart(home, repo, 's5'), before);
    const unknown = await cli('get', 'doctrine:nowhere', '--json');
    assert.equal(unknown.code, 6);
    assert.match(unknown.stderr, /No doctrine has the id/);
  });
});
