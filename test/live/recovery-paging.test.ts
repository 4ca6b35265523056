// Live: 45 real Codex conversations whose transcripts get a corrupted line (the wrapper hook of
// corrupting-hook.mjs) give 45 recovery items; `status --after-recovery` pages through them 20 at a
// time, each exactly once, with the total never truncated.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { CaptureStatus } from '../../source/api/capture.js';
import { RECOVERY_PAGE_SIZE } from '../../source/limits.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCodexScenario, shellQuote } from './harness.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SESSIONS = 45;

describe('live recovery paging with the real Codex', { timeout: 900_000 }, () => {
  it(`${SESSIONS} corrupted sessions: every recovery item exactly once across pages`, async () => {
    const home = tempHome('live-paging');
    const wrapper = `${shellQuote(process.execPath)} ${shellQuote(fileURLToPath(new URL('./corrupting-hook.mjs', import.meta.url)))} ${shellQuote(REPO)} codex ${shellQuote(home)}`;
    const sessions = new Set<string>();
    for (let i = 0; i < SESSIONS; i++) {
      const run = await runCodexScenario('plain', { hookCommand: wrapper });
      assert.ok(run.sessionId, 'codex reported its thread id');
      sessions.add(run.sessionId);
      // The hooks kept the transcript bytes; the sandbox can go before the drain.
      await run.cleanup();
    }
    assert.equal(sessions.size, SESSIONS);
    const flush = await runCli(['flush', '--json', '--home', home]);
    assert.equal(flush.code, 3, 'isolated sessions remain');

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const args = ['status', '--json', '--home', home, ...(after ? ['--after-recovery', after] : [])];
      const result = await runCli(args);
      assert.equal(result.code, 0, result.stderr);
      const status = JSON.parse(result.stdout) as CaptureStatus;
      pages += 1;
      assert.equal(status.recovery.total, SESSIONS, 'the total is never truncated');
      assert.ok(status.recovery.items.length <= RECOVERY_PAGE_SIZE);
      for (const item of status.recovery.items) {
        assert.deepEqual([item.code, item.client], ['transcript_invalid_json', 'codex']);
        seen.push(item.id);
      }
      if (status.recovery.nextRecoveryId === null) break;
      after = status.recovery.nextRecoveryId;
    }
    assert.equal(pages, Math.ceil(SESSIONS / RECOVERY_PAGE_SIZE));
    assert.equal(seen.length, SESSIONS);
    assert.equal(new Set(seen).size, SESSIONS, 'no item repeated');
  });
});
