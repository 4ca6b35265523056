// The build's stamp (scripts/build-stamp.mjs): `npm test` and `npm run bench` skip the build only
// when dist/ holds the digest of the inputs as they are now. Over a tree of its own in a temp dir.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { inputsDigest, staleBuild, writeStamp } from '../../scripts/build-stamp.mjs';

function tree() {
  const root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  mkdirSync(join(root, 'source', 'cli'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'source', 'cli', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  return root;
}

test('a build of these sources is fresh; an edit of one byte, a new file or no stamp is not', () => {
  const root = tree();
  try {
    assert.equal(staleBuild(root), 'dist/ holds no build stamp');
    writeStamp(root);
    assert.equal(staleBuild(root), null);
    writeFileSync(join(root, 'source', 'cli', 'main.ts'), 'export const a = 2;\n');
    assert.equal(staleBuild(root), 'the sources changed since dist/ was built');
    writeStamp(root);
    writeFileSync(join(root, 'source', 'cli', 'new.ts'), '');
    assert.equal(staleBuild(root), 'the sources changed since dist/ was built');
    writeStamp(root);
    writeFileSync(join(root, 'package-lock.json'), '{}\n');
    assert.equal(staleBuild(root), 'the sources changed since dist/ was built', 'the locked dependencies count');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('content counts, not times: a file touched without a change keeps the build fresh', () => {
  const root = tree();
  try {
    writeStamp(root);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'source', 'cli', 'main.ts'), later, later);
    assert.equal(staleBuild(root), null);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a file moved to another name changes the digest though no byte changed', () => {
  const root = tree();
  try {
    const before = inputsDigest(root);
    rmSync(join(root, 'source', 'cli', 'main.ts'));
    writeFileSync(join(root, 'source', 'cli', 'other.ts'), 'export const a = 1;\n');
    assert.notEqual(inputsDigest(root), before);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
