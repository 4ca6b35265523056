// A user-scope entry's anchors (memory/user-anchors.ts): only what names a place under the home
// directory — an absolute path under it, or the same written from `~/` — and a symbol tied to such
// a file. Repository claims (relative paths, scripts, binaries, commits, branches) name no one
// repository for an entry read in every one, so they are not anchors here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractUserAnchors } from '../../source/memory/user-anchors.js';

const HOME = '/home/ada';
const anchors = (body: string, home = HOME) => extractUserAnchors({ title: 'A note', body }, home);

describe('user-scope anchors', () => {
  it('keeps absolute paths under the home and `~/` paths, relative to the home', () => {
    assert.deepEqual(anchors('My git excludes are in `/home/ada/.config/git/ignore` and `~/.ssh/config`.'), [
      { kind: 'path', path: '.config/git/ignore', directory: false },
      { kind: 'path', path: '.ssh/config', directory: false },
    ]);
    assert.deepEqual(anchors('Notes live in ~/notes/ (one file a day).'), [
      { kind: 'path', path: 'notes', directory: true },
    ]);
  });

  it('drops repository claims: relative paths, scripts, binaries, commits, branches', () => {
    assert.deepEqual(
      anchors(
        'In every repository run `npm run lint` and `npx vitest`, read `src/config.ts`, rebase on the `main` branch, see commit 3f9a2c1.',
      ),
      [],
    );
  });

  it('drops absolute paths outside the home, and a path that only starts like the home', () => {
    assert.deepEqual(anchors('System hosts are in `/etc/hosts`; the other user has `/home/adam/.bashrc`.'), []);
  });

  it('keeps a symbol tied to a file under the home', () => {
    assert.deepEqual(anchors('In `~/.config/tool/init.lua` the function `setupKeys` maps the keys.'), [
      { kind: 'path', path: '.config/tool/init.lua', directory: false },
      { kind: 'symbol', symbol: 'setupKeys', path: '.config/tool/init.lua' },
    ]);
  });

  it('gives nothing for an empty or relative home', () => {
    assert.deepEqual(anchors('`~/.gitconfig`', ''), []);
    assert.deepEqual(anchors('`~/.gitconfig`', 'home/ada'), []);
  });
});
