// kill -9 in the middle of promoting a consolidation plan (scenes written, a merge survivor
// rewritten, merged and retired entry files removed), through the real shipped bin, then promote
// again: right after the kill every target is untouched, exactly the approved bytes, or (a removal)
// gone; the second run finishes the plan without writing any file twice.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text);

function repository(home: string): string {
  const repo = gitRepo(home, 'repo');
  writeConsolidationEntries(projectRoot(repo), { duplicates: true });
  return repo;
}

/** Each file of the plan: what promote must leave (null: removed) and what was there before. */
function planFiles(home: string, planId: string) {
  const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
  try {
    return db
      .prepare('SELECT target_path, action, sanitized_content FROM promotion_files WHERE plan_id = ?')
      .all(planId) as Array<{ target_path: string; action: string; sanitized_content: Buffer }>;
  } finally {
    db.close();
  }
}

describe('a consolidation plan promoted and killed with kill -9', () => {
  for (const fault of ['promote.afterFile.1', 'promote.afterFile.3', 'memoryFinishPromotion.beforeCommit']) {
    it(`at ${fault}: every target untouched, approved or removed; promote again finishes, nothing written twice`, async () => {
      const home = tempHome('cm-consolidation-crash');
      const repo = repository(home);
      const root = projectRoot(repo);
      const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
        runCli([...args, '--home', home, '--json'], { cwd: repo, env });
      // The patch, its plan and its approval only make the state the kill starts from: in this process
      // (the same main, with a local host of its own as the bin opens), not a spawn of about half a
      // second of CPU each. The killed promote and the promote that finishes stay with the bin.
      const inProcess = (args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
      const consolidated = await inProcess(['memory', 'consolidate']);
      assert.equal(consolidated.code, 0, consolidated.stderr);
      const prepared = await inProcess(['memory', 'prepare', json(consolidated.stdout).taskId]);
      assert.equal(prepared.code, 0, prepared.stderr);
      const plan = json(prepared.stdout) as MemoryPlanView;
      const files = planFiles(home, plan.planId);
      assert.ok(files.some((f) => f.action === 'remove') && files.some((f) => f.action !== 'remove'));
      assert.ok(files.length >= 4, `a plan of several files (${files.length})`);
      const before = new Map(
        files.map((f) => [
          f.target_path,
          existsSync(join(root, f.target_path)) ? readFileSync(join(root, f.target_path)) : null,
        ]),
      );
      assert.equal((await inProcess(['memory', 'approve', plan.planId, '--digest', plan.planDigest])).code, 0);

      const killed = await cli(['memory', 'promote', plan.planId], { COMMON_MEMORY_FAULTS: `${fault}=kill` });
      assert.equal(killed.code, null, 'the process was killed, not finished');
      const inodes = new Map<string, number>();
      let done = 0;
      for (const file of files) {
        const path = join(root, file.target_path);
        const now = existsSync(path) ? readFileSync(path) : null;
        const approved = file.action === 'remove' ? null : file.sanitized_content;
        const untouched = before.get(file.target_path) ?? null;
        const isApproved = approved === null ? now === null : now?.equals(approved) === true;
        const isUntouched = untouched === null ? now === null : now?.equals(untouched) === true;
        assert.ok(isApproved || isUntouched, `${file.target_path}: untouched or as approved after the kill`);
        if (isApproved && !isUntouched) done += 1;
        if (approved !== null && isApproved) inodes.set(file.target_path, statSync(path).ino);
      }
      if (fault === 'promote.afterFile.3') assert.equal(done, 3, 'three files done before the kill');

      const finished = await cli(['memory', 'promote', plan.planId]);
      assert.equal(finished.code, 0, finished.stderr);
      assert.equal((json(finished.stdout) as MemoryPlanView).status, 'applied');
      for (const file of files) {
        const path = join(root, file.target_path);
        if (file.action === 'remove') {
          assert.equal(existsSync(path), false, `${file.target_path} is removed`);
          continue;
        }
        assert.deepEqual(readFileSync(path), file.sanitized_content, `${file.target_path} is the approved bytes`);
        if (inodes.has(file.target_path))
          assert.equal(statSync(path).ino, inodes.get(file.target_path), `${file.target_path} was not written twice`);
      }
    });
  }
});
