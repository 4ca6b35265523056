// kill -9 at each step of promoting a revision that changes an entry's type: the plan writes the
// entry's file in the new type's folder and removes the old one. Through the real shipped bin, in
// a real git repository, both ways round (the new folder sorting before and after the old): right
// after the kill the entry's text is on disk — the old file as it was or the new one as approved,
// never neither — `get` still answers for the entry, and `memory promote` again finishes with the
// entry in its new folder only, no file written twice.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text);
const BODY = 'Run `npm run lint` before pushing.';

describe('a type-changing revision promoted and killed with kill -9', { timeout: 300_000 }, () => {
  for (const [from, to] of [
    ['work_fact', 'work_method'],
    ['work_method', 'work_fact'],
  ] as const) {
    // Between the two files both ways round; the closing steps (the same for any plan) once.
    const closing = from === 'work_fact' ? ['promote.beforeFinish', 'memoryFinishPromotion.beforeCommit'] : [];
    for (const fault of ['promote.afterFile.1', 'promote.afterFile.2', ...closing]) {
      it(`${from} → ${to}, at ${fault}: the entry stays on disk and get answers; promote again finishes the move`, async () => {
        const home = tempHome('cm-revise-move-crash');
        const repo = gitRepo(home, 'repo');
        const root = projectRoot(repo);
        writeEntry(root, 'lint-rule', 'Run the linter', BODY, { type: from });
        const oldPath = join(root, from, 'lint-rule.md');
        const newPath = join(root, to, 'lint-rule.md');
        const oldBytes = readFileSync(oldPath);
        const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
          runCli([...args, '--home', home, '--json'], { cwd: repo, env });
        // The revision, its plan and its approval only make the state the kill starts from, and the
        // last read only reads the result back: in this process (the same main, with a local host of
        // its own as the bin opens), not a spawn of about half a second of CPU each. The killed
        // promote, the read right after the kill, the promote that finishes and the sync stay with the bin.
        const inProcess = (args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
        const text = join(mkdtempSync(join(tmpdir(), 'cm-revise-move-')), 'lint.md');
        writeFileSync(
          text,
          `---\ntitle: Run the linter\nappliesWhen: working in this repository\ntype: ${to}\n---\n${BODY}\n`,
        );
        const revised = await inProcess(['memory', 'revise', 'lint-rule', '--file', text]);
        assert.equal(revised.code, 0, revised.stderr);
        const prepared = await inProcess(['memory', 'prepare', json(revised.stdout).candidateId]);
        assert.equal(prepared.code, 0, prepared.stderr);
        const plan = json(prepared.stdout) as MemoryPlanView;
        assert.equal((await inProcess(['memory', 'approve', plan.planId, '--digest', plan.planDigest])).code, 0);

        const killed = await cli(['memory', 'promote', plan.planId], { COMMON_MEMORY_FAULTS: `${fault}=kill` });
        assert.equal(killed.code, null, 'the process was killed, not finished');
        const oldNow = existsSync(oldPath) ? readFileSync(oldPath) : null;
        const newNow = existsSync(newPath) ? readFileSync(newPath) : null;
        assert.ok(oldNow !== null || newNow !== null, 'the entry is on disk: the old file or the new one');
        if (oldNow !== null) assert.deepEqual(oldNow, oldBytes, 'the old file is as it was');
        if (newNow !== null) assert.match(newNow.toString('utf8'), new RegExp(`type: "${to}"`));
        const inode = newNow !== null ? statSync(newPath).ino : null;

        // A read before anything finishes the plan: the entry is still there to be read.
        const got = await cli(['get', 'lint-rule']);
        assert.equal(got.code, 0, `get after the kill: ${got.stdout}${got.stderr}`);

        const finished = await cli(['memory', 'promote', plan.planId]);
        assert.equal(finished.code, 0, finished.stderr);
        assert.equal((json(finished.stdout) as MemoryPlanView).status, 'applied');
        assert.equal(existsSync(oldPath), false, 'the old file is removed');
        assert.match(readFileSync(newPath, 'utf8'), new RegExp(`type: "${to}"`));
        if (inode !== null) assert.equal(statSync(newPath).ino, inode, 'the new file was not written twice');
        const after = await inProcess(['get', 'lint-rule']);
        assert.equal(after.code, 0, after.stderr);
        assert.equal(json(after.stdout).type, to);
        const synced = await cli(['memory', 'sync']);
        assert.equal(synced.code, 0, synced.stderr);
        assert.equal(json(synced.stdout).coverage, 'complete');
      });
    }
  }
});
