// Live: the real pi 0.73.1 in print mode against the fake model server, with common-memory's
// extension installed by `common-memory install pi`. Every user turn is captured exactly once with
// the right state, and a pi killed with -9 right after an event loses nothing that was accepted.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { textReply, type FakeReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { PI_BIN, type PiAgentDir } from '../support/pi-agent-dir.js';
import { runCli, waitFor } from '../support/cli.js';
import type { CaptureStatus } from '../../source/api/capture.js';

const TIMEOUT_MS = 60_000;
const LIFETIME_MS = TIMEOUT_MS + 10_000;
const PRINT_ARGS = [
  '--offline',
  '--provider',
  'fake',
  '--model',
  'fake-model',
  '--no-tools',
  '--no-session',
  '--no-skills',
  '--no-prompt-templates',
  '--no-themes',
  '--no-context-files',
  '-p',
];

function startPi(
  dir: PiAgentDir,
  env: NodeJS.ProcessEnv,
  prompts: string[],
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(PI_BIN, [...PRINT_ARGS, ...prompts], { cwd: dir.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

const rows = (home: string, sql: string): Record<string, unknown>[] => {
  const db = new Database(join(home, 'core.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

async function status(home: string): Promise<CaptureStatus> {
  const result = await runCli(['--json', '--home', home, 'status']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as CaptureStatus;
}

test('live pi: two prompts in one print-mode session are two settled turns, each prompt evidence exactly once', {
  timeout: TIMEOUT_MS,
}, async () => {
  await withInstalledPi(
    [textReply('first answer', 3), textReply('second answer', 3)],
    LIFETIME_MS,
    async ({ dir, home, env }) => {
      const pi = startPi(dir, env, ['first question', 'second question']);
      assert.equal(await pi.exited, 0);
      const drained = await runCli(['--json', '--home', home, 'session-drain']);
      assert.equal(drained.code, 0, drained.stderr);
      assert.deepEqual(JSON.parse(drained.stdout).isolated, []);
      const view = await status(home);
      assert.equal(view.sessions.length, 1);
      const [session] = view.sessions;
      assert.equal(session!.client, 'pi');
      assert.equal(session!.state, 'complete', 'a real quit ended the activation');
      assert.deepEqual(session!.turns, { settled: 2, failed: 0, interrupted: 0, buffered: 0, incomplete: 0 });
      assert.equal(view.recovery.total, 0);
      assert.equal(view.host.hookErrors, 0);
      const evidence = rows(
        home,
        "SELECT body FROM capture_messages WHERE classification = 'evidence' ORDER BY message_id",
      ).map((r) => r['body']);
      assert.deepEqual(evidence, ['first question', 'second question']);
      const answers = rows(home, "SELECT body FROM capture_messages WHERE kind = 'answer' ORDER BY message_id").map(
        (r) => r['body'],
      );
      assert.deepEqual(answers, ['first answer', 'second answer']);
      assert.deepEqual(rows(home, 'SELECT state, count(*) AS n FROM prompt_candidates GROUP BY state'), [
        { state: 'delivered', n: 2 },
      ]);
      assert.equal(existsSync(join(home, 'hook-errors.jsonl')), false);
      const flushed = await runCli(['--home', home, 'flush']);
      assert.equal(flushed.code, 0, flushed.stdout + flushed.stderr);
    },
  );
});

test('live pi: kill -9 right after the second prompt was recorded loses nothing accepted', {
  timeout: TIMEOUT_MS,
}, async () => {
  const slow: FakeReply = { kind: 'text', chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 200 };
  await withInstalledPi([textReply('first answer', 3), slow], LIFETIME_MS, async ({ dir, home, env }) => {
    const pi = startPi(dir, env, ['first question', 'second question']);
    // The second prompt's user message is in the inbox once the extension's handler returned.
    const accepted = await waitFor(
      'the second user message in the inbox',
      () => {
        if (!existsSync(join(home, 'core.sqlite'))) return undefined;
        if (rows(home, "SELECT name FROM sqlite_schema WHERE name = 'capture_activations'").length === 0)
          return undefined; // still migrating
        const found = rows(home, "SELECT count(*) AS n FROM inbox WHERE client = 'pi' AND event = 'input'")[0]![
          'n'
        ] as number;
        const ends = rows(home, "SELECT count(*) AS n FROM inbox WHERE client = 'pi' AND event = 'message_end'")[0]![
          'n'
        ] as number;
        return found === 2 && ends >= 3
          ? rows(home, "SELECT id FROM inbox WHERE client = 'pi' ORDER BY id").map((r) => r['id'])
          : undefined;
      },
      30_000,
    );
    pi.child.kill('SIGKILL');
    await pi.exited;
    const after = rows(home, "SELECT id FROM inbox WHERE client = 'pi' ORDER BY id").map((r) => r['id']);
    assert.deepEqual(after.slice(0, accepted.length), accepted, 'every accepted event is still there');
    const drained = await runCli(['--json', '--home', home, 'session-drain']);
    assert.equal(drained.code, 0, drained.stderr);
    const [session] = (await status(home)).sessions;
    assert.equal(session!.state, 'active', 'no quit was seen: the activation stays open');
    assert.deepEqual(session!.turns, { settled: 1, failed: 0, interrupted: 0, buffered: 1, incomplete: 0 });
    assert.deepEqual(
      rows(home, "SELECT body FROM capture_messages WHERE classification = 'evidence'").map((r) => r['body']),
      ['first question'],
    );
    // The second prompt is kept, once, as a pending candidate for its still-open turn.
    assert.deepEqual(rows(home, "SELECT body, state FROM prompt_candidates WHERE state = 'pending'"), [
      { body: 'second question', state: 'pending' },
    ]);
    assert.equal(rows(home, "SELECT count(*) AS n FROM inbox WHERE client = 'pi' AND state = 'pending'")[0]!['n'], 0);
  });
});
