// A failed prompt says why where the user looks: `operation <id>` reads pi's refusal (the real pi
// 0.73.1 without a provider key) in one line, and rejected is not said twice.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';

describe('operation <id> says what happened', { timeout: 120_000 }, () => {
  it('a prompt pi refuses for want of an API key', async () => {
    const home = tempHome('op-detail');
    const piConfig = mkdtempSync(join(tmpdir(), 'pi-config-'));
    writeFileSync(join(piConfig, 'auth.json'), '{}');
    const { child } = await startHost(home, { ANTHROPIC_API_KEY: '' });
    try {
      assert.equal(
        (
          await runCli([
            'agent',
            'create',
            'a',
            '--model',
            'anthropic/claude-sonnet-4-5',
            '--pi-config',
            piConfig,
            '--home',
            home,
          ])
        ).code,
        0,
      );
      const started = await runCli(['agent', 'start', 'a', '--home', home]);
      assert.equal(started.code, 0, started.stderr);
      const admitted = await runCli(['prompt', 'a', 'hello', '--operation-id', 'p-key', '--home', home]);
      assert.equal(admitted.code, 0, admitted.stderr);
      // A refused prompt never reaches the timeline: the receipt names where its fate is shown too.
      assert.match(admitted.stdout, /timeline --follow.*common-memory operation p-key/s);
      const line = await waitFor(
        'the prompt to end',
        async () => {
          const shown = await runCli(['operation', 'p-key', '--home', home]);
          return /rejected|settled|interrupted/.test(shown.stdout) ? shown.stdout : undefined;
        },
        60_000,
      );
      assert.match(
        line,
        /^operation p-key: prompt, rejected — pi refused the prompt: No API key found for anthropic\. Intent at journal #\d+/,
      );
      assert.doesNotMatch(line, /rejected \(rejected\)/);
      // What to do about it, which pi's own advice (/login, a TUI command) does not say here.
      assert.match(
        line,
        /\nTo give it a key: .*auth\.json.*--pi-config.*~\/\.pi\/agent.*agent stop \S+.*agent start \S+.*Giving pi a provider/s,
      );
    } finally {
      await stopHost(child);
    }
  });
});
