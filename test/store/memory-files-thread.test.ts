// `memory sync` reads the memory roots on the host's memory files thread, not on its main thread:
// while a sync of thousands of entry files is in progress, the host's main thread answers other
// requests (a capture status read) and its timers run.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Host } from '../../source/host/host.js';
import { entryText, projectRoot, writeEntry } from '../support/memory-files.js';
import * as c from '../support/capture.js';
import { gitRepo, tempHome } from '../support/cli.js';

after(() => c.closeStores());

const FILES = 6000;

describe('the memory files thread', { timeout: 120_000 }, () => {
  it('a large sync leaves the main thread free: status answers and timers run before the sync ends', async () => {
    const home = tempHome('files-thread');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'entry-0', 'Entry 0', 'Body 0.');
    const dir = join(projectRoot(repo), 'work_method');
    for (let i = 1; i < FILES; i++)
      writeFileSync(join(dir, `entry-${i}.md`), entryText(`entry-${i}`, `Entry ${i}`, `Body ${i}.`));
    const host = await Host.start({ home, serve: false });
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      let syncDone = false;
      const startedAt = performance.now();
      const sync = host.application.memorySync({ cwd: repo }).finally(() => (syncDone = true));
      // The call returns at once: nothing was read on this thread before its first await.
      const callMs = performance.now() - startedAt;
      const status = await host.application.captureStatus({});
      const statusBeforeSync = !syncDone;
      // A few timer turns of this thread, still within the sync.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      const ticksDuringSync = syncDone ? 0 : ticks;
      const result = await sync;
      clearInterval(timer);
      assert.equal(result.coverage, 'complete');
      assert.equal(result.entries, FILES, 'the sync read every file');
      assert.ok(Array.isArray(status.sessions), 'status answered');
      assert.ok(statusBeforeSync, `status was answered only after the sync ended (the call took ${callMs} ms)`);
      assert.ok(ticksDuringSync > 0, 'the main thread ran its timers while the sync was in progress');
    } finally {
      await host.stop();
    }
  });
});
