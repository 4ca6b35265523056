// Memory from day one, with the real clients: Claude Code and Codex run offline (fake model servers
// on loopback) WITHOUT common-memory's hooks — nothing captures them — in one conversation that says
// a durable rule and then asks a question. Then, the files at rest (written before the install),
// `import claude|codex --yes`, as a user who installs common-memory afterwards runs it: the session is listed (imported) and searchable, the rule became
// a candidate and the question did not, and a second import (and its dry run) adds nothing.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ImportReport, SessionList } from '../../source/api/capture.js';
import { AUTO_EXTRACT_ENV, IMPORT_REST_MS } from '../../source/limits.js';
import { runCli } from '../support/cli.js';
import { DURABLE } from '../support/memory-evidence.js';
import { runClaude, runCodex, withClaude, withCodex } from './harness.js';

const QUESTION = 'What does the build script in this folder do?';

/** The client's files as a user has them when installing common-memory: written a while ago, at rest. */
function writtenEarlier(dir: string): void {
  const old = new Date(Date.now() - IMPORT_REST_MS - 60_000);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && entry.name.endsWith('.jsonl')) utimesSync(join(entry.parentPath, entry.name), old, old);
}

/** The memory commands after the client ran without hooks: import, sessions, search, review, import again. */
async function importAndCheck(
  home: string,
  cwd: string,
  client: 'claude' | 'codex',
  dirFlag: string[],
  hostSessionId: string,
): Promise<void> {
  assert.equal(existsSync(home), false, 'no hooks: nothing was captured, there is no data home yet');
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, '--home', home, '--json'], {
      cwd,
      env: { [AUTO_EXTRACT_ENV]: 'on' },
      timeoutMs: 120_000,
    });
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  const dry = (await cli('import', client, ...dirFlag)) as ImportReport;
  assert.deepEqual([dry.dryRun, dry.sessions, dry.turns], [true, 1, 2], JSON.stringify(dry));
  assert.equal(existsSync(home), false, 'the dry run wrote nothing');

  const imported = (await cli('import', client, ...dirFlag, '--yes')) as ImportReport;
  assert.deepEqual([imported.sessions, imported.turns, imported.quarantined], [1, 2, 0], JSON.stringify(imported));
  assert.equal(imported.extraction?.state, 'done', JSON.stringify(imported.extraction));
  assert.equal(imported.extraction?.candidates.created, 1, 'one candidate: the rule');

  const listed = (await cli('sessions')) as SessionList;
  assert.equal(listed.sessions.length, 1);
  assert.deepEqual(
    [listed.sessions[0]!.client, listed.sessions[0]!.origin, listed.sessions[0]!.hostSessionId],
    [client, 'imported', hostSessionId],
  );
  const found = (await cli('search', 'named exports')) as { results: Array<{ sessionKey: string }> };
  assert.ok(
    found.results.some((r) => r.sessionKey === listed.sessions[0]!.sessionKey),
    'what the user said is searchable',
  );

  const review = (await cli('memory', 'review')) as { candidates: Array<{ content: string }> };
  assert.deepEqual(
    review.candidates.map((c) => c.content),
    [DURABLE],
    'the rule became a candidate; the question did not',
  );

  const again = (await cli('import', client, ...dirFlag, '--yes')) as ImportReport;
  assert.deepEqual([again.files, again.sessions, again.turns], [0, 0, 0], 'a second import adds nothing');
  const dryAgain = (await cli('import', client, ...dirFlag)) as ImportReport;
  assert.deepEqual(
    [dryAgain.sessions, dryAgain.turns, dryAgain.alreadyImported],
    [0, 0, 1],
    'the dry run says the session is already imported',
  );
  assert.equal(((await cli('sessions')) as SessionList).sessions.length, 1);
  assert.equal(((await cli('memory', 'review')) as { total: number }).total, 1);
}

test('Claude Code without hooks, then import claude: listed, searchable, the rule a candidate, the question none, once', {
  timeout: 300_000,
}, async () => {
  await withClaude(async ({ sandbox, home }) => {
    const first = await runClaude(sandbox, { prompt: DURABLE });
    assert.equal(first.exitCode, 0, first.stderr);
    assert.ok(first.sessionId, 'Claude Code reported its session');
    const second = await runClaude(sandbox, { prompt: QUESTION, resumeSessionId: first.sessionId });
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(second.sessionId, first.sessionId, 'one conversation');
    // Without Stop hooks Claude Code records no end of the last turn: it imports once the file is at rest.
    writtenEarlier(join(sandbox.configDir, 'projects'));
    await importAndCheck(home, sandbox.cwd, 'claude', ['--claude-dir', sandbox.configDir], first.sessionId);
  });
});

test('Codex without hooks, then import codex: listed, searchable, the rule a candidate, the question none, once', {
  timeout: 300_000,
}, async () => {
  await withCodex(async ({ sandbox, home }) => {
    const first = await runCodex(sandbox, { prompt: DURABLE });
    assert.equal(first.exitCode, 0, first.stderr);
    assert.ok(first.threadId, 'Codex reported its thread');
    const second = await runCodex(sandbox, { prompt: QUESTION, resumeThreadId: first.threadId });
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(second.threadId, first.threadId, 'one conversation');
    writtenEarlier(join(sandbox.codexHome, 'sessions'));
    await importAndCheck(home, sandbox.cwd, 'codex', ['--codex-home', sandbox.codexHome], first.threadId);
  });
});
