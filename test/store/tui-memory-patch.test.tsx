// The Memory screen prepares a consolidation patch by keyboard (issue 28, item 3), over a real host
// and a real git repository: the Review queue names the waiting patch; c opens it with every
// operation numbered, taken ([x]) and resting on its entries; m leaves one out; p prepares the plan
// of those taken on Prepare & promote, which says which were left out; a approves and writes it —
// the scene written, the merged and retired entries' files removed. Every frame within 80×24.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';
import { assertFits80x24, mount, narrowTo80, press, unmount, waitForText } from '../support/tui-harness.js';

after(() => c.closeStores());

describe('Memory screen: a consolidation patch prepared by keyboard', { timeout: 120_000 }, () => {
  test('c opens the patch, m leaves an operation out, p prepares the rest, a approves and writes it', async () => {
    const home = tempHome('tui-memory-patch');
    const repo = gitRepo(home, 'repo');
    const root = projectRoot(repo);
    writeConsolidationEntries(root, { duplicates: true });
    const host = await Host.start({ home, serve: false });
    const consolidated = await host.application.memoryConsolidate({ cwd: repo });
    const operations = consolidated.patch!.operations;
    const scene = operations.findIndex((o) => o.target === 'scene' && o.name.startsWith('migration')) + 1;
    assert.ok(scene > 0, JSON.stringify(operations.map((o) => [o.op, o.name])));
    const view = await mount(host.application, home, { cwd: repo });
    try {
      await narrowTo80(view);
      await press(view, '7');
      const queue = await waitForText(
        view,
        /Consolidation patch con-[0-9a-f]{24}: \d+ operation\(s\) over this\s+repository; c opens it to prepare\./,
      );
      assertFits80x24(queue);

      await press(view, 'c');
      const opened = await waitForText(view, /Review › patch con-[0-9a-f]{8} · \d+ of \d+ taken/);
      assert.match(opened, new RegExp(`${operations.length} of ${operations.length} taken`));
      assert.match(
        opened.replace(/\n\s+/g, ' '),
        /\[x\] \d+\. retire entry jest, superseded by vitest \(.*rests on jest@1, vitest@1\)/,
      );
      assertFits80x24(opened);
      for (let i = 1; i < scene; i++) await press(view, 'j');
      await press(view, 'm');
      const left = await waitForText(view, new RegExp(`› \\[ \\] ${scene}\\. create scene migration`));
      assert.match(left, new RegExp(`${operations.length - 1} of ${operations.length} taken`));
      assertFits80x24(left);

      await press(view, 'p');
      const plan = await waitForText(view, /Plan plan-[0-9a-f]{8} · not approved/);
      const taken = operations.map((_, i) => i + 1).filter((n) => n !== scene);
      assert.match(plan.replace(/\n/g, ' '), new RegExp(`operations ${taken.join(', ')}; left out: ${scene}`));
      assert.match(plan, /work_method\/jest\.md \(REMOVED, blob [0-9a-f]{10}/);
      assertFits80x24(plan);
      assert.ok(existsSync(join(root, 'work_method', 'jest.md')), 'nothing removed before the approval');

      await press(view, 'a');
      const done = await waitForText(view, /Plan plan-[0-9a-f]{8} · applied/);
      assert.match(done, /removed: work_method\/jest\.md/);
      assertFits80x24(done);
      assert.equal(existsSync(join(root, 'work_method', 'jest.md')), false, 'the retired entry is removed');
      assert.equal(
        existsSync(join(root, 'scenes', `${operations[scene - 1]!.name}.md`)),
        false,
        'the scene left out is not written',
      );

      await press(view, '[');
      const after = await waitForText(view, /Review · all scopes/);
      assert.doesNotMatch(after, /Consolidation patch/, 'the prepared patch left the queue');
    } finally {
      await unmount(view);
      await host.stop();
    }
  });
});
