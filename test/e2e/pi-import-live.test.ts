// Live: the real pi 0.73.1 in print mode against the fake model server, writing its own session
// files. Run without common-memory's extension (before install), `import pi` brings the session
// in: listed by `sessions`, and the durable rule said in it becomes a candidate, the question does
// not. Run with the extension (captured live), importing its session file stores nothing again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ImportReport } from '../../source/api/capture.js';
import { AUTO_EXTRACT_ENV } from '../../source/limits.js';
import { runCli, tempHome } from '../support/cli.js';
import { scripted, startFakeOpenAiServer, textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { makePiAgentDir, PI_BIN, type PiAgentDir } from '../support/pi-agent-dir.js';

const TIMEOUT_MS = 90_000;
const RULE = 'In this repository we always use pnpm, never npm, to install packages.';
const QUESTION = 'What does the build script in this folder do?';
/** Print mode, writing pi's session files (no --no-session); extensions as the agent dir says. */
const PRINT_ARGS = [
  '--offline',
  '--provider',
  'fake',
  '--model',
  'fake-model',
  '--no-tools',
  '--no-skills',
  '--no-prompt-templates',
  '--no-themes',
  '--no-context-files',
  '-p',
];

function runPi(dir: PiAgentDir, env: NodeJS.ProcessEnv, prompts: string[]): Promise<number | null> {
  const child = spawn(PI_BIN, [...PRINT_ARGS, ...prompts], { cwd: dir.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const sessionFiles = (dir: PiAgentDir) =>
  readdirSync(join(dir.dir, 'sessions'), { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.jsonl'));

test('live pi without the extension: import pi brings the session in, and its rule becomes a candidate', {
  timeout: TIMEOUT_MS,
}, async () => {
  const server = await startFakeOpenAiServer({
    responder: scripted([textReply('Noted.', 2), textReply('It builds the site.', 2)]),
    lifetimeMs: TIMEOUT_MS,
  });
  const dir = makePiAgentDir({ baseUrl: server.baseUrl });
  const home = tempHome('pi-import');
  try {
    assert.equal(await runPi(dir, dir.env, [RULE, QUESTION]), 0);
    assert.equal(sessionFiles(dir).length, 1, 'pi wrote its session file');
    const dry = await runCli(['--home', home, 'import', 'pi', '--pi-dir', dir.dir]);
    assert.equal(dry.code, 0, dry.stderr);
    // Wrapped to 80 columns: read as one text.
    assert.match(dry.stdout.replace(/\s+/g, ' '), /would import from pi: 1 session\(s\), 2 turn\(s\)/);
    const imported = await runCli(['--json', '--home', home, 'import', 'pi', '--pi-dir', dir.dir, '--yes'], {
      env: { [AUTO_EXTRACT_ENV]: 'on' },
    });
    assert.equal(imported.code, 0, imported.stderr);
    const report = JSON.parse(imported.stdout) as ImportReport;
    assert.deepEqual([report.sessions, report.turns, report.quarantined], [1, 2, 0]);
    assert.equal(report.extraction?.state, 'done', imported.stderr);
    const listed = await runCli(['--home', home, 'sessions']);
    assert.match(listed.stdout, /pi \(imported\)/);
    const review = await runCli(['--json', '--home', home, 'memory', 'review']);
    assert.match(review.stdout, /pnpm/, 'the rule became a candidate');
    assert.doesNotMatch(review.stdout, /build script/, 'the question did not');
    const again = await runCli(['--json', '--home', home, 'import', 'pi', '--pi-dir', dir.dir, '--yes'], {
      env: { [AUTO_EXTRACT_ENV]: 'off' },
    });
    assert.equal((JSON.parse(again.stdout) as ImportReport).turns, 0, 'a second import adds nothing');
  } finally {
    await server.close();
    dir.cleanup();
  }
});

test('live pi with the extension: the session captured live is not stored again by importing its file', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withInstalledPi([textReply('first answer', 2), textReply('second answer', 2)], TIMEOUT_MS, async (pi) => {
    assert.equal(await runPi(pi.dir, pi.env, ['first question', 'second question']), 0);
    const drained = await runCli(['--json', '--home', pi.home, 'session-drain']);
    assert.equal(drained.code, 0, drained.stderr);
    const imported = await runCli(['--json', '--home', pi.home, 'import', 'pi', '--pi-dir', pi.dir.dir, '--yes'], {
      env: { [AUTO_EXTRACT_ENV]: 'off' },
    });
    assert.equal(imported.code, 0, imported.stderr);
    const report = JSON.parse(imported.stdout) as ImportReport;
    assert.equal(report.files, 1, 'pi wrote its session file beside the live capture');
    assert.equal(report.turns, 0, 'nothing is stored twice');
    assert.equal(report.turnsAlreadyStored, 2, 'both turns are recognised by session and turn ids');
    assert.equal(report.capturedLive, 1, 'the session is counted as captured live');
    const dry = await runCli(['--json', '--home', pi.home, 'import', 'pi', '--pi-dir', pi.dir.dir]);
    const planned = JSON.parse(dry.stdout) as ImportReport;
    assert.deepEqual(
      [planned.sessions, planned.turns, planned.capturedLive],
      [0, 0, 1],
      'the dry run says it is captured live and would import nothing',
    );
  });
});
