// memory assemble --skills' writes are compare-and-swap steps (pipeline/skills-assemble.ts over
// effects/promotion-apply.ts): a skill folder changed between the plan and the first write voids
// that client's plan with nothing written there; a replay after the change plans again and keeps
// the user's bytes. Real files in a real git repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CmError } from '../../source/errors.js';
import { assembleSkills } from '../../source/pipeline/skills-assemble.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

function world(): { home: string; repo: string; state: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'skills-apply-')));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const home = join(root, 'home');
  return { home, repo, state: join(home, 'memory-state.sqlite') };
}

const env = (home: string) => ({ HOME: join(home, '..') });

describe('skills are written through the compare-and-swap steps', () => {
  it('a SKILL.md written by someone else between plan and write voids the plan; nothing is written', () => {
    const { home, repo, state } = world();
    writeEntry(projectRoot(repo), 'm-a', 'Build with make', 'Run make.');
    writeEntry(projectRoot(repo), 'm-b', 'Run the tests', 'Run npm test.');
    const skills = join(repo, '.claude', 'skills');
    assert.throws(
      () =>
        assembleSkills(
          state,
          home,
          repo,
          {
            provider: 'claude',
            dryRun: false,
            beforeApply: () => {
              mkdirSync(join(skills, 'run-the-tests'), { recursive: true });
              writeFileSync(join(skills, 'run-the-tests', 'SKILL.md'), 'mine, written meanwhile\n');
            },
          },
          env(home),
        ),
      (error: unknown) =>
        error instanceof CmError &&
        error.code === 'operation_conflict' &&
        /run-the-tests\/SKILL\.md changed/.test(error.message),
    );
    assert.equal(existsSync(join(skills, 'build-with-make')), false, 'the other skill was not written either');
    assert.equal(readFileSync(join(skills, 'run-the-tests', 'SKILL.md'), 'utf8'), 'mine, written meanwhile\n');

    // Run again: the folder is the user's now, so the method takes another name.
    const again = assembleSkills(state, home, repo, { provider: 'claude', dryRun: false }, env(home));
    assert.deepEqual(
      again.targets[0]!.skills.map((one) => one.name),
      ['build-with-make', 'run-the-tests-m-b'],
    );
    assert.equal(readFileSync(join(skills, 'run-the-tests', 'SKILL.md'), 'utf8'), 'mine, written meanwhile\n');
  });

  it('a skill to remove that was edited meanwhile is kept, and the run says so', () => {
    const { home, repo, state } = world();
    writeEntry(projectRoot(repo), 'm-a', 'Deploy', 'Run the deploy script.');
    assembleSkills(state, home, repo, { provider: 'codex', dryRun: false }, env(home));
    const file = join(repo, '.agents', 'skills', 'deploy', 'SKILL.md');
    assert.ok(existsSync(file));
    rmSync(join(projectRoot(repo), 'work_method', 'm-a.md'));
    assert.throws(
      () =>
        assembleSkills(
          state,
          home,
          repo,
          {
            provider: 'codex',
            dryRun: false,
            beforeApply: () => writeFileSync(file, `${readFileSync(file, 'utf8')}mine\n`),
          },
          env(home),
        ),
      (error: unknown) => error instanceof CmError && error.code === 'operation_conflict',
    );
    assert.match(readFileSync(file, 'utf8'), /mine\n$/);
    const again = assembleSkills(state, home, repo, { provider: 'codex', dryRun: false }, env(home));
    assert.deepEqual(again.targets[0]!.skills, []);
    assert.deepEqual(again.targets[0]!.kept, [{ name: 'deploy', sources: ['m-a'], reason: 'edited' }]);
  });
});
