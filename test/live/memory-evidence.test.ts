// Sessions of the real Claude Code and the real Codex (fake model servers on loopback, the hooks
// installed as a user installs them) become candidates whose statements cite the user turn they
// came from — the user's own words, never the assistant's answer; extracting again creates
// nothing; a secret the user pasted is quarantined and never printed by any command.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../support/cli.js';
import { DURABLE, extractAndCheck } from '../support/memory-evidence.js';
import { plantedToken } from '../support/memory-corpus.js';
import { FAKE_TEXT_ANSWER, runClaude, runCodex, trustInstalledCodexHooks, withClaude, withCodex } from './harness.js';

test('Claude Code: two sessions become candidates citing the user turns; the pasted secret is quarantined', {
  timeout: 240_000,
}, async () => {
  const token = plantedToken();
  await withClaude(async ({ sandbox, home }) => {
    const installed = await runCli(['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home]);
    assert.equal(installed.code, 0, installed.stderr);
    for (const prompt of [DURABLE, `Remember that the CI token is ${token} for uploads.`]) {
      const run = await runClaude(sandbox, { prompt });
      assert.equal(run.exitCode, 0, run.stderr);
    }
    await extractAndCheck(home, sandbox.cwd, 'claude', token, FAKE_TEXT_ANSWER);
  });
});

test('Codex: two sessions become candidates citing the user turns; the pasted secret is quarantined', {
  timeout: 300_000,
}, async () => {
  const token = plantedToken();
  await withCodex(async ({ sandbox, home }) => {
    const installed = await runCli(['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home, '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    const { command, path } = JSON.parse(installed.stdout) as { command: string; path: string };
    await trustInstalledCodexHooks(sandbox, command);
    for (const prompt of [DURABLE, `Remember that the CI token is ${token} for uploads.`]) {
      const run = await runCodex({ ...sandbox, hooksPath: path, trust: 'trusted-hash' }, { prompt });
      assert.equal(run.exitCode, 0, run.stderr);
    }
    await extractAndCheck(home, sandbox.cwd, 'codex', token, FAKE_TEXT_ANSWER);
  });
});
