// Sessions of the real Claude Code and the real Codex (fake model servers on loopback, the hooks
// installed as a user installs them) become candidates whose statements cite the user turn they
// came from — the user's own words, never the assistant's answer; extracting again creates
// nothing; a secret the user pasted is quarantined and never printed by any command.
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { byPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import { runCli } from '../support/cli.js';
import { DURABLE, extractAndCheck } from '../support/memory-evidence.js';
import { plantedToken } from '../support/memory-corpus.js';
import {
  FAKE_TEXT_ANSWER,
  createClaudeSandbox,
  createCodexSandbox,
  listCodexHooks,
  locateClients,
  runClaude,
  runCodex,
  trustedHashToml,
} from './harness.js';

test('Claude Code: two sessions become candidates citing the user turns; the pasted secret is quarantined', {
  timeout: 240_000,
}, async () => {
  const token = plantedToken();
  const server = await startFakeAnthropicServer({ script: byPrompt([], { type: 'text', text: FAKE_TEXT_ANSWER }) });
  const sandbox = await createClaudeSandbox({ baseUrl: server.baseUrl });
  const home = join(sandbox.root, 'cm-home');
  try {
    const installed = await runCli(['install', 'claude', '--claude-dir', sandbox.configDir, '--home', home]);
    assert.equal(installed.code, 0, installed.stderr);
    for (const prompt of [DURABLE, `Remember that the CI token is ${token} for uploads.`]) {
      const run = await runClaude(sandbox, { prompt });
      assert.equal(run.exitCode, 0, run.stderr);
    }
    await extractAndCheck(home, sandbox.cwd, 'claude', token, FAKE_TEXT_ANSWER);
  } finally {
    await server.close();
    await sandbox.cleanup();
  }
});

test('Codex: two sessions become candidates citing the user turns; the pasted secret is quarantined', {
  timeout: 300_000,
}, async () => {
  const token = plantedToken();
  const server = await startFakeResponsesServer({
    script: responsesByPrompt([], { type: 'text', text: FAKE_TEXT_ANSWER }),
  });
  const sandbox = await createCodexSandbox({ baseUrl: server.baseUrl });
  const home = join(sandbox.root, 'cm-home');
  try {
    const installed = await runCli(['install', 'codex', '--codex-home', sandbox.codexHome, '--home', home, '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    const { command, path } = JSON.parse(installed.stdout) as { command: string; path: string };
    const listed = await listCodexHooks(locateClients().codexLauncher, sandbox.cwd, sandbox.env);
    await appendFile(sandbox.configPath, trustedHashToml(listed.filter((hook) => hook.command === command)));
    for (const prompt of [DURABLE, `Remember that the CI token is ${token} for uploads.`]) {
      const run = await runCodex({ ...sandbox, hooksPath: path, trust: 'trusted-hash' }, { prompt });
      assert.equal(run.exitCode, 0, run.stderr);
    }
    await extractAndCheck(home, sandbox.cwd, 'codex', token, FAKE_TEXT_ANSWER);
  } finally {
    await server.close();
    await sandbox.cleanup();
  }
});
