// `memory refresh` and `memory assemble` through the real shipped bin (the first call of each and
// the first refusal of each exit code; the others run the same main in-process), over real git
// repositories and real hook processes: a refresh replaces the running activation's frozen
// snapshot, the next PostToolUse (or UserPromptSubmit) gives it to the model once, compact
// re-attaches the new one; the activation is found from the command's parent processes or named by
// its key; a broken memory-state changes nothing. assemble keeps every byte outside its block and
// shows a diff.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import * as c from '../support/capture.js';
import { BIN, gitRepo, runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, userRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const [START, PROMPT, , TOOL] = c.hookFiles('codex', 'b');
const event = (file: string, cwd: string, session: string, extra: Record<string, unknown> = {}) =>
  c.payloadFor(file, null, { cwd, session_id: session, ...extra });

async function context(
  home: string,
  payload: string,
  instance: string,
): Promise<{ event: string; text: string } | null> {
  const run = await c.hookBin(home, 'codex', payload, instance);
  assert.equal(run.code, 0, run.stderr);
  if (run.stdout === '') return null;
  const reply = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  return { event: reply.hookSpecificOutput.hookEventName, text: reply.hookSpecificOutput.additionalContext };
}

/**
 * The projection the hook reads: synced in-process (the same main, a local host of its own), since
 * the hook's process is what these tests are about, not the sync's (a spawn is about 0.6 s of CPU).
 */
async function sync(home: string, cwd: string): Promise<void> {
  const result = await runCliInProcess(['memory', 'sync', '--home', home, '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
}

function activation(home: string, session: string): { key: string; snapshot: string; pending: number } {
  const db = c.readOnly(home);
  try {
    return db
      .prepare(
        'SELECT session_key AS key, snapshot, snapshot_pending AS pending FROM capture_activations WHERE host_session_id = ?',
      )
      .get(session) as { key: string; snapshot: string; pending: number };
  } finally {
    db.close();
  }
}

describe('memory refresh', () => {
  it('replaces the frozen snapshot; the next tool use gets it once; compact re-attaches the new one', async () => {
    const home = tempHome('refresh');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'build', 'Build with make', 'Run make.');
    await sync(home, repo);
    const first = await context(home, event(START!, repo, 's1'), 'p1');
    assert.match(first!.text, /Build with make/);

    writeEntry(projectRoot(repo), 'build', 'Build with ninja', 'Run ninja.');
    writeEntry(userRoot(home), 'tabs', 'Tabs, not spaces', 'Indent with tabs.');
    await sync(home, repo);
    assert.equal(await context(home, event(PROMPT!, repo, 's1'), 'p1'), null, 'no refresh asked: nothing');

    // Found from its parent processes: the hook instance the session's shell would carry.
    const refreshed = await runCli(['memory', 'refresh', '--home', home, '--json'], {
      cwd: repo,
      env: { COMMON_MEMORY_HOOK_INSTANCE: 'p1' },
    });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const result = json(refreshed.stdout);
    assert.equal(result['sessionKey'], activation(home, 's1').key);
    assert.equal(result['client'], 'codex');
    assert.equal(result['entries'], 2);
    assert.equal(activation(home, 's1').pending, 1);

    const delivered = await context(home, event(TOOL!, repo, 's1'), 'p1');
    assert.equal(delivered?.event, 'PostToolUse');
    assert.match(delivered!.text, /Build with ninja/);
    assert.match(delivered!.text, /Tabs, not spaces/);
    assert.doesNotMatch(delivered!.text, /Build with make/);
    assert.equal(activation(home, 's1').pending, 0);
    assert.equal(await context(home, event(PROMPT!, repo, 's1'), 'p1'), null, 'given once, never re-read');
    assert.equal(await context(home, event(TOOL!, repo, 's1'), 'p1'), null);
    const compact = await context(home, event(START!, repo, 's1', { source: 'compact' }), 'p1');
    assert.equal(compact?.text, delivered!.text, 'compact re-attaches the refreshed snapshot');

    // By key, delivered at the next prompt; an entry removed since then is gone from it.
    rmSync(join(projectRoot(repo), 'work_method', 'build.md'));
    await sync(home, repo);
    // The refreshes after the file's first, and its refusals after the first of each exit code, run
    // main in-process: the hook's process is what these tests are about.
    const byKey = await runCliInProcess(['memory', 'refresh', '--session', activation(home, 's1').key, '--home', home]);
    assert.equal(byKey.code, 0, byKey.stderr);
    assert.match(byKey.stdout, /next prompt or tool use/);
    const atPrompt = await context(home, event(PROMPT!, repo, 's1', { turn_id: 't-later' }), 'p1');
    assert.equal(atPrompt?.event, 'UserPromptSubmit');
    assert.doesNotMatch(atPrompt!.text, /Build with/);
    assert.match(atPrompt!.text, /Tabs, not spaces/);
  });

  it('names the session when none or several could be meant; a broken memory-state changes nothing', async () => {
    const home = tempHome('refresh');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'note', 'A note', 'Body.');
    await sync(home, repo);
    await context(home, event(START!, repo, 's1'), 'p1');

    const none = await runCli(['memory', 'refresh', '--home', home, '--json'], { cwd: repo });
    assert.equal(none.code, 6, none.stderr);
    assert.match((json(none.stderr)['error'] as { message: string }).message, /--session <key>/);
    const unknown = await runCliInProcess(['memory', 'refresh', '--session', 'no-such-key', '--home', home]);
    assert.equal(unknown.code, 6);
    assert.match(unknown.stderr, /common-memory sessions lists them/);
    assert.match(unknown.stderr, /a unique start of it/, 'it says a start of the key will do');
    // A unique start of the key names the session, as `session <key>` takes it.
    const byStart = await runCliInProcess([
      'memory',
      'refresh',
      '--session',
      activation(home, 's1').key.slice(0, 6),
      '--home',
      home,
    ]);
    assert.equal(byStart.code, 0, byStart.stderr);
    assert.match(byStart.stdout, /next prompt or tool use/);

    const before = activation(home, 's1');
    writeFileSync(storeFiles(home).memoryState, 'damaged beyond repair, not SQLite at all');
    const broken = await runCli(['memory', 'refresh', '--session', before.key, '--home', home]);
    assert.equal(broken.code, 12, broken.stderr);
    assert.deepEqual(activation(home, 's1'), before, 'nothing replaced, nothing pending');

    // Ended: a new session reads at its start.
    await c.hookBin(home, 'codex', event(c.hookFiles('codex', 'b')[5]!, repo, 's1'), 'p1');
    const ended = await runCliInProcess(['memory', 'refresh', '--session', before.key, '--home', home]);
    assert.equal(ended.code, 6);
    assert.match(ended.stderr, /has ended/);
  });

  it("finds pi's session from the instance and session pi exports; pi's extension takes the new snapshot once", async () => {
    const home = tempHome('refresh');
    const repo = gitRepo(home, 'repo');
    const HOOK = join(BIN, '..', '..', 'dist', 'hook.cjs');
    // What pi's extension calls, in a process of its own as in pi's: the bundle's exports.
    const inPi = (call: string): unknown =>
      JSON.parse(
        execFileSync(
          process.execPath,
          ['-e', `const h = require(${JSON.stringify(HOOK)}); console.log(JSON.stringify(${call}));`],
          {
            env: { ...process.env, COMMON_MEMORY_HOME: home },
            encoding: 'utf8',
          },
        ),
      );
    const start = JSON.stringify({
      hook_event_name: 'session_start',
      session_id: 'pi-s1',
      cwd: repo,
      record: { type: 'session_start', reason: 'startup' },
    });
    assert.equal(inPi(`h.capturePiEvent('pi:inst-1', ${JSON.stringify(start)}, 'common-memory')`), true);
    assert.equal(inPi("h.piRefreshedSnapshot('pi:inst-1', 'pi-s1', 'common-memory')"), null, 'nothing waits yet');

    writeEntry(projectRoot(repo), 'lint', 'Lint before pushing', 'Run the linter.');
    await sync(home, repo);
    const piEnv = { COMMON_MEMORY_PI_INSTANCE: 'pi:inst-1', COMMON_MEMORY_PI_SESSION: 'pi-s1' };
    const other = await runCliInProcess(['memory', 'refresh', '--home', home], {
      cwd: repo,
      env: { ...piEnv, COMMON_MEMORY_PI_SESSION: 'pi-s2' },
    });
    assert.equal(other.code, 6, 'another pi session of the same instance is not this one');
    const refreshed = await runCliInProcess(['memory', 'refresh', '--home', home, '--json'], { cwd: repo, env: piEnv });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.deepEqual(
      { client: json(refreshed.stdout)['client'], delivery: json(refreshed.stdout)['delivery'] },
      { client: 'pi', delivery: 'next pi prompt, then every later one' },
    );
    const taken = inPi("h.piRefreshedSnapshot('pi:inst-1', 'pi-s1', 'common-memory')");
    assert.match(String(taken), /Lint before pushing/);
    assert.equal(activation(home, 'pi-s1').pending, 0, 'taken in the same transaction');
    assert.equal(inPi("h.piRefreshedSnapshot('pi:inst-1', 'pi-s1', 'common-memory')"), null, 'once');
  });
});

describe('memory assemble', () => {
  it("writes the repository's notes between markers, keeps every other byte, shows the diff with --dry-run", async () => {
    const home = tempHome('assemble');
    const repo = gitRepo(home, 'repo');
    writeEntry(projectRoot(repo), 'build', 'Build with make', 'Run make -j4.', { priority: 90 });
    writeEntry(userRoot(home), 'private', 'A private user note', 'Only mine.');
    await sync(home, repo);
    const original = '# Project\r\n\r\nHand-written rules.\r\nNo trailing newline at the end';
    writeFileSync(join(repo, 'CLAUDE.md'), original);
    chmodSync(join(repo, 'CLAUDE.md'), 0o640);

    const dry = await runCli(['memory', 'assemble', '--provider', 'claude', '--dry-run', '--home', home], {
      cwd: repo,
    });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^--- a\/CLAUDE\.md/m);
    assert.match(dry.stdout, /^\+<!-- common-memory:begin/m);
    assert.match(dry.stdout, /would be appended with 1 note/);
    assert.equal(readFileSync(join(repo, 'CLAUDE.md'), 'utf8'), original, '--dry-run writes nothing');

    // The assembles after the first run main in-process.
    const wrote = await runCliInProcess(['memory', 'assemble', '--provider', 'claude', '--home', home, '--json'], {
      cwd: repo,
    });
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.equal(json(wrote.stdout)['action'], 'appended');
    const text = readFileSync(join(repo, 'CLAUDE.md'), 'utf8');
    assert.ok(text.startsWith(original), 'every byte before the block is kept');
    assert.match(
      text,
      /\[build\] \(project, priority 90\) title: "Build with make" applies when: "working in this repository"\r\n/,
    );
    assert.doesNotMatch(text, /private user note/, 'the user scope stays private');
    // It holds the repository's notes only: its frame does not claim the user's own notes too.
    assert.match(text, /Reference notes the user reviewed and approved for this repository\. They are/);
    assert.doesNotMatch(text, /their own work/);
    // The file is committed and shared: it names the MCP tool, never a command of this machine.
    assert.match(text, /`memory_get` tool of the common-memory MCP server/);
    assert.ok(!text.includes(home) && !text.includes(process.execPath), 'no path of this machine');
    assert.equal(statSync(join(repo, 'CLAUDE.md')).mode & 0o777, 0o640, 'the mode is kept');

    const again = await runCliInProcess(['memory', 'assemble', '--provider', 'claude', '--home', home], { cwd: repo });
    assert.match(again.stdout, /CLAUDE\.md is up to date/);
    assert.equal(readFileSync(join(repo, 'CLAUDE.md'), 'utf8'), text);

    // A later edit of the notes replaces the block only; text after the block stays too.
    writeFileSync(join(repo, 'CLAUDE.md'), `${text}\r\nA line after the block.\r\n`);
    writeEntry(projectRoot(repo), 'build', 'Build with ninja', 'Run ninja.', { priority: 90 });
    await sync(home, repo);
    const replaced = await runCliInProcess(['memory', 'assemble', '--provider', 'claude', '--home', home, '--json'], {
      cwd: repo,
    });
    assert.equal(json(replaced.stdout)['action'], 'replaced');
    const after = readFileSync(join(repo, 'CLAUDE.md'), 'utf8');
    assert.ok(after.startsWith(original));
    assert.ok(after.endsWith('\r\nA line after the block.\r\n'));
    assert.match(after, /Build with ninja/);
    assert.doesNotMatch(after, /Build with make/);

    // Codex: AGENTS.md, created.
    const codex = await runCliInProcess(['memory', 'assemble', '--provider', 'codex', '--home', home, '--json'], {
      cwd: repo,
    });
    assert.equal(json(codex.stdout)['action'], 'created');
    assert.match(readFileSync(join(repo, 'AGENTS.md'), 'utf8'), /Build with ninja/);
  });

  it('refuses a missing provider, a directory outside git, broken markers and a linked file, writing nothing', async () => {
    const home = tempHome('assemble');
    const repo = gitRepo(home, 'repo');
    const noProvider = await runCli(['memory', 'assemble', '--home', home], { cwd: repo });
    assert.equal(noProvider.code, 2);
    assert.match(noProvider.stderr, /--provider claude/);
    // The refusals after the first (exit 2 through the bin) run main in-process.
    const outside = await runCliInProcess(['memory', 'assemble', '--provider', 'codex', '--home', home], {
      cwd: join(home, '..'),
    });
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /inside a git worktree/);

    const broken = '<!-- common-memory:begin -->\nno end marker\n';
    writeFileSync(join(repo, 'AGENTS.md'), broken);
    const refused = await runCliInProcess(['memory', 'assemble', '--provider', 'codex', '--home', home], { cwd: repo });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /broken common-memory markers \(begin on line 1\)/);
    assert.equal(readFileSync(join(repo, 'AGENTS.md'), 'utf8'), broken);

    const elsewhere = join(home, '..', 'elsewhere.md');
    writeFileSync(elsewhere, 'not ours\n');
    symlinkSync(elsewhere, join(repo, 'CLAUDE.md'));
    const linked = await runCliInProcess(['memory', 'assemble', '--provider', 'claude', '--home', home], { cwd: repo });
    assert.equal(linked.code, 2, linked.stderr);
    assert.match(linked.stderr, /link/);
    assert.equal(readFileSync(elsewhere, 'utf8'), 'not ours\n');
  });
});
