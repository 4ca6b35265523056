// What a person reads after `memory promote` was killed part-way through a consolidation plan's
// files (killed with COMMON_MEMORY_FAULTS, as test/store/consolidation-promote-crash.test.ts does):
// `memory search` in text says why coverage is partial and what finishes it, in one line of 80
// columns; `memory promote --dry-run` says what promote would do now, from the files.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import { textColumns } from '../../source/text-columns.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

/** The files the kill leaves done: the plan writes three and removes two (see the crash drill). */
const DONE = 4;

describe('after a promote killed part-way', { timeout: 120_000 }, () => {
  const home = tempHome('promote-killed');
  const repo = gitRepo(home, 'repo');
  const cli = (args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });
  let plan: MemoryPlanView;
  before(async () => {
    writeConsolidationEntries(projectRoot(repo), { duplicates: true });
    const consolidated = await cli(['memory', 'consolidate', '--json']);
    assert.equal(consolidated.code, 0, consolidated.stderr);
    const prepared = await cli(['memory', 'prepare', JSON.parse(consolidated.stdout).taskId, '--json']);
    assert.equal(prepared.code, 0, prepared.stderr);
    plan = JSON.parse(prepared.stdout) as MemoryPlanView;
    assert.equal(plan.files.length, DONE + 1, 'the plan this test kills');
    const approved = await cli(['memory', 'approve', plan.planId, '--digest', plan.planDigest]);
    assert.equal(approved.code, 0, approved.stderr);
    const killed = await runCli(['memory', 'promote', plan.planId, '--home', home], {
      cwd: repo,
      env: { COMMON_MEMORY_FAULTS: `promote.afterFile.${DONE}=kill` },
    });
    assert.equal(killed.code, null, 'the process was killed, not finished');
  });

  it('memory search in text says why coverage is partial and what finishes it, within 80 columns', async () => {
    const json = await cli(['memory', 'search', 'unit', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout) as { coverage: string; reason?: string; unfinishedPlan?: string };
    assert.equal(result.coverage, 'partial');
    assert.match(result.reason ?? '', new RegExp(`memory promote ${plan.planId}`));
    assert.equal(result.unfinishedPlan, plan.planId);
    const text = await cli(['memory', 'search', 'unit']);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trimEnd().split('\n');
    const why = lines.find((line) => line.startsWith('partial: '));
    assert.ok(why, `a line says why: ${text.stdout}`);
    assert.match(why, new RegExp(`stopped part-way.*memory promote ${plan.planId}`));
    assert.doesNotMatch(text.stdout, /run common-memory memory sync/, 'sync does not finish a plan');
    for (const line of lines.filter((l) => l.startsWith('(') || l.startsWith('partial')))
      assert.ok(textColumns(line) <= 80, `${textColumns(line)} columns: ${line}`);
  });

  // The journal marks a file done only when the plan closes: after the kill it still lists all five
  // as pending, while four already hold the approved bytes. The dry run reads the files.
  it('memory promote --dry-run says which files already hold the approved bytes and which remain', async () => {
    const text = await cli(['memory', 'promote', plan.planId, '--dry-run']);
    assert.equal(text.code, 0, text.stderr);
    // The header is wrapped to 80 columns: read as one text.
    const said = text.stdout.replace(/\s+/g, ' ');
    assert.doesNotMatch(said, new RegExp(`would \\w+ ${DONE + 1} file`), text.stdout);
    assert.match(said, new RegExp(`${DONE} of its ${DONE + 1} files are already done as approved`), text.stdout);
    assert.match(said, /promote would remove 1 file and finish the plan/, text.stdout);
    const listed = text.stdout.split('\n').filter((line) => line.startsWith('  '));
    assert.equal(listed.filter((line) => line.endsWith(' (already done)')).length, DONE, text.stdout);
    assert.deepEqual(
      listed.filter((line) => !line.endsWith(' (already done)')).map((line) => line.trim().split(' ')[0]),
      ['remove'],
      text.stdout,
    );
    const json = await cli(['memory', 'promote', plan.planId, '--dry-run', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const preview = JSON.parse(json.stdout) as Omit<MemoryPlanView, 'files'> & {
      dryRun: boolean;
      files: Array<MemoryPlanView['files'][number] & { now: string }>;
    };
    assert.equal(preview.dryRun, true);
    assert.equal(preview.files.filter((f) => f.now === 'as-approved').length, DONE);
    assert.deepEqual(
      preview.files.filter((f) => f.now === 'to-do').map((f) => f.action),
      ['remove'],
    );
    // Nothing was written or finished by the dry run: the plan is still applying.
    const again = JSON.parse((await cli(['memory', 'plan', plan.planId, '--json'])).stdout) as MemoryPlanView;
    assert.equal(again.status, 'applying');
  });

  it('memory promote --dry-run says promote would void the plan when a file it wrote changed since', async () => {
    const done = join(projectRoot(repo), 'scenes', 'migration.md');
    const bytes = readFileSync(done);
    writeFileSync(done, 'edited by hand\n');
    try {
      const json = await cli(['memory', 'promote', plan.planId, '--dry-run', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const preview = JSON.parse(json.stdout) as {
        voidReason: string | null;
        files: Array<{ path: string; now: string }>;
      };
      assert.equal(preview.files.find((f) => f.path === 'scenes/migration.md')?.now, 'changed');
      assert.match(preview.voidReason ?? '', /scenes\/migration\.md changed since the plan was made/);
      const text = await cli(['memory', 'promote', plan.planId, '--dry-run']);
      assert.match(
        text.stdout.replace(/\s+/g, ' '),
        /would be voided, nothing more written: scenes\/migration\.md changed/,
      );
    } finally {
      writeFileSync(done, bytes);
    }
  });
});
