// Live: `common-memory install codex|claude` (the shipped bin) writes the hooks into a sandboxed
// Codex home / Claude config dir — the harness writes none — and the real clients then run them:
// each fired hook leaves one inbox row in the common-memory store given by --home.
// Codex is run with --dangerously-bypass-hook-trust, and also the way a user would after
// trusting the hooks persistently (trusted_hash from `codex app-server`, as in codex-trust.ts),
// after first showing that untrusted hooks are silently skipped.
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../support/cli.js';
import {
  SCENARIO_PROMPTS,
  listCodexHooks,
  locateClients,
  runClaude,
  runCodex,
  trustedHashToml,
  withClaude,
  withCodex,
} from './harness.js';
import type { CodexSandbox } from './harness.js';

/** Inbox rows of one client; the table's other columns are still moving, so only count. */
function inboxRows(home: string, client: string): number {
  const path = join(home, 'core.sqlite');
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM inbox WHERE client = ?').get(client) as { n: number }).n;
  } finally {
    db.close();
  }
}

interface Installed {
  path: string;
  command: string;
  trust: { keys: string[] } | null;
}

async function install(client: 'codex' | 'claude', dirFlag: string, dir: string, home: string): Promise<Installed> {
  const result = await runCli(['install', client, dirFlag, dir, '--home', home, '--json']);
  assert.equal(result.code, 0, result.stderr);
  const parsed = JSON.parse(result.stdout) as Installed & { written: boolean };
  assert.equal(parsed.written, true);
  return parsed;
}

/** Each plain run fires SessionStart, UserPromptSubmit, Stop and SessionEnd, all of them hooked. */
const PLAIN_EVENTS = 4;

describe('live: install into the real clients', () => {
  test('codex: installed hooks run with --dangerously-bypass-hook-trust', async () => {
    await withCodex(async (world) => {
      const installed = await install('codex', '--codex-home', world.sandbox.codexHome, world.home);
      assert.equal(installed.path, join(world.sandbox.codexHome, 'hooks.json'));
      const run = await runCodex(
        { ...world.sandbox, hooksPath: installed.path, trust: 'bypass' },
        { prompt: SCENARIO_PROMPTS.plain[0]! },
      );
      assert.equal(run.exitCode, 0, run.stderr);
      assert.ok(run.args.includes('--dangerously-bypass-hook-trust'));
      // 3 s for SessionEnd/Interrupt: Codex has nothing to clamp, so no timeout warning items.
      const warnings = run.events.filter(
        (e) => e['type'] === 'item.completed' && (e['item'] as { type?: string } | undefined)?.type === 'error',
      );
      assert.ok(!warnings.some((e) => /timeout/i.test(JSON.stringify(e))), JSON.stringify(warnings));
      assert.ok(inboxRows(world.home, 'codex') >= PLAIN_EVENTS, `inbox rows: ${inboxRows(world.home, 'codex')}`);
    });
  });

  test('codex: untrusted hooks are skipped; trusted (trusted_hash) they run with no flag', async () => {
    await withCodex(async (world) => {
      const installed = await install('codex', '--codex-home', world.sandbox.codexHome, world.home);
      const { codexLauncher } = locateClients();
      // hooksPath set, trust mode not 'bypass': runCodex passes no bypass flag.
      const sandbox: CodexSandbox = { ...world.sandbox, hooksPath: installed.path, trust: 'trusted-hash' };

      const untrusted = await runCodex(sandbox, { prompt: SCENARIO_PROMPTS.plain[0]! });
      assert.equal(untrusted.exitCode, 0, untrusted.stderr);
      assert.ok(!untrusted.args.includes('--dangerously-bypass-hook-trust'));
      assert.equal(inboxRows(world.home, 'codex'), 0, 'Codex silently skips hooks nobody trusted');

      const listed = await listCodexHooks(codexLauncher, sandbox.cwd, sandbox.env);
      const ours = listed.filter((h) => h.command === installed.command);
      // The keys install printed for the user are the keys Codex uses.
      assert.deepEqual(ours.map((h) => h.key).sort(), [...(installed.trust?.keys ?? [])].sort());
      assert.ok(ours.every((h) => h.trustStatus === 'untrusted'));
      await appendFile(sandbox.configPath, trustedHashToml(ours));
      const after = await listCodexHooks(codexLauncher, sandbox.cwd, sandbox.env);
      assert.deepEqual(
        after.filter((h) => h.command === installed.command).map((h) => h.trustStatus),
        ours.map(() => 'trusted'),
      );

      const trusted = await runCodex(sandbox, { prompt: SCENARIO_PROMPTS.plain[0]! });
      assert.equal(trusted.exitCode, 0, trusted.stderr);
      assert.ok(inboxRows(world.home, 'codex') >= PLAIN_EVENTS, `inbox rows: ${inboxRows(world.home, 'codex')}`);
    });
  });

  test('claude: installed hooks run in claude -p', async () => {
    await withClaude(async ({ sandbox, home }) => {
      const installed = await install('claude', '--claude-dir', sandbox.configDir, home);
      assert.equal(installed.path, sandbox.settingsPath);
      const run = await runClaude(sandbox, { prompt: SCENARIO_PROMPTS.plain[0]! });
      assert.equal(run.exitCode, 0, run.stderr);
      assert.ok(inboxRows(home, 'claude') >= PLAIN_EVENTS, `inbox rows: ${inboxRows(home, 'claude')}`);
    });
  });
});
