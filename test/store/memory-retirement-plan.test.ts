// A retirement plan (memory/retirement-plan.ts) and its one file step (effects/promotion-apply.ts)
// on a real memory root: the plan binds the file's exact bytes and blob; the step removes the file
// only while it holds them, is done when the file is gone already (a replay), keeps a changed file
// (drift), and never removes through a link.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gitBlobOid } from '../../source/memory/blob-oid.js';
import { checkPlanIntegrity, type CurrentFile } from '../../source/memory/promotion-plan.js';
import { buildRetirementPlan, isRetirement } from '../../source/memory/retirement-plan.js';
import { applyPlanFile, driftedTargets, syncPlanDirectories } from '../../source/effects/promotion-apply.js';
import { MemoryFileError, memoryRoot } from '../../source/effects/safe-files.js';
import { entryText } from '../support/memory-files.js';

const OWNER = `${'a'.repeat(64)}:${'b'.repeat(64)}`;
const PATH = 'work_method/legacy-config.md';

function rootWith(files: Record<string, string>) {
  const anchor = mkdtempSync(join(tmpdir(), 'cm-retire-root-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(anchor, 'memory', path, '..'), { recursive: true });
    writeFileSync(join(anchor, 'memory', path), text);
  }
  return { anchor, root: memoryRoot(anchor, 'memory') };
}

const current = (anchor: string, paths: string[]): CurrentFile[] =>
  paths.map((path) => ({ path, bytes: new Uint8Array(readFileSync(join(anchor, 'memory', path))) }));

const LEGACY = entryText('legacy-config', 'Where configuration is loaded', 'Read `src/legacy/config.ts`.');

function plan(anchor: string, paths: string[], entryId = 'legacy-config') {
  return buildRetirementPlan({
    planId: 'plan-1',
    scope: 'project',
    ownerKey: OWNER,
    anchor,
    entryId,
    currentFiles: current(anchor, paths),
  });
}

describe('a retirement plan', () => {
  it("binds the entry's file: its exact bytes, blob, a removal diff and a digest over them", () => {
    const { anchor } = rootWith({ [PATH]: LEGACY, 'work_method/other.md': entryText('other', 'Other', 'x') });
    const built = plan(anchor, [PATH, 'work_method/other.md']);
    assert.ok(built.ok);
    const { files, candidates, diff } = built.plan;
    assert.deepEqual(candidates, []);
    assert.equal(files.length, 1);
    assert.equal(files[0]!.action, 'remove');
    assert.equal(files[0]!.path, PATH);
    assert.deepEqual(Buffer.from(files[0]!.content), Buffer.from(LEGACY));
    assert.equal(files[0]!.targetBlobHash, gitBlobOid(Buffer.from(LEGACY)));
    assert.ok(isRetirement(built.plan));
    assert.match(diff, /^--- a\/work_method\/legacy-config\.md$/m);
    assert.match(diff, /^\+\+\+ \/dev\/null$/m);
    assert.ok(
      diff.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++')).length === 0,
      'nothing is added',
    );
    assert.equal(checkPlanIntegrity(built.plan), null);
    // Other bytes, another digest: approval binds exactly these.
    const { anchor: edited } = rootWith({ [PATH]: `${LEGACY}One more line.\n` });
    const other = plan(edited, [PATH]);
    assert.ok(other.ok);
    assert.notEqual(other.plan.planDigest, built.plan.planDigest);
  });

  it('refuses an entry no file holds, and one two files hold', () => {
    const { anchor } = rootWith({ [PATH]: LEGACY, 'work_fact/copy.md': LEGACY.replace('work_method', 'work_fact') });
    const missing = plan(anchor, [PATH], 'no-such-entry');
    assert.ok(!missing.ok);
    assert.match(missing.refusal.message, /entry no-such-entry is not in the project memory root/);
    const twice = plan(anchor, [PATH, 'work_fact/copy.md']);
    assert.ok(!twice.ok);
    assert.match(twice.refusal.message, /held by 2 files/);
  });
});

describe("a retirement plan's file step", () => {
  it('removes the file holding the recorded blob; a replay finds it gone and is done', () => {
    const { anchor, root } = rootWith({ [PATH]: LEGACY });
    const built = plan(anchor, [PATH]);
    assert.ok(built.ok);
    const [file] = built.plan.files;
    assert.deepEqual(driftedTargets(root, built.plan), []);
    assert.equal(applyPlanFile(root, 'project', file!).outcome, 'removed');
    assert.ok(!existsSync(join(anchor, 'memory', PATH)));
    syncPlanDirectories(root, built.plan);
    assert.equal(applyPlanFile(root, 'project', file!).outcome, 'skipped');
    assert.deepEqual(driftedTargets(root, built.plan), [], 'gone already is not drift');
  });

  it('keeps a file whose bytes changed since the plan (drift), and never removes through a link', () => {
    const { anchor, root } = rootWith({ [PATH]: LEGACY });
    const built = plan(anchor, [PATH]);
    assert.ok(built.ok);
    const [file] = built.plan.files;
    const target = join(anchor, 'memory', PATH);
    writeFileSync(target, `${LEGACY}A teammate's line.\n`);
    assert.deepEqual(driftedTargets(root, built.plan), [PATH]);
    assert.equal(applyPlanFile(root, 'project', file!).outcome, 'drift');
    assert.ok(existsSync(target), 'kept');

    // The same bytes behind a link: refused, and the link's target untouched.
    const elsewhere = join(anchor, 'elsewhere.md');
    writeFileSync(elsewhere, LEGACY);
    unlinkSync(target);
    symlinkSync(elsewhere, target);
    assert.throws(() => applyPlanFile(root, 'project', file!), MemoryFileError);
    assert.equal(readFileSync(elsewhere, 'utf8'), LEGACY);
  });
});
