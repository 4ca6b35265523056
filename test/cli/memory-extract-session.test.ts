// `memory extract --session KEY` takes a session as `session <key>` does — its key or a unique start
// of it — and a key no captured session has is refused (exit 6), never a run over nothing.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

describe('memory extract --session', () => {
  it('a unique start of a key selects its session; an unknown key is exit 6 and runs nothing', async () => {
    const home = tempHome('extract-session');
    const repo = gitRepo(home, 'repo');
    const { sessionKey } = queueSession(home, repo, ['Always use named exports in TypeScript modules.']);
    await c.flush(home);
    const extract = (...flags: string[]) =>
      runCli(['memory', 'extract', '--home', home, '--since', '2026-01-01', '--json', ...flags], { cwd: repo });

    const unknown = await extract('--session', 'corpus-no-such-session');
    assert.equal(unknown.code, 6, unknown.stderr);
    assert.match(JSON.parse(unknown.stderr).error.message, /No captured session corpus-no-such-session/);

    const start = await extract('--session', sessionKey.slice(0, sessionKey.length - 2));
    assert.equal(start.code, 0, start.stderr);
    assert.equal(JSON.parse(start.stdout).turns, 1);
  });
});
