// User-scope entries are verified against the home directory (issue 29, item 3): a user-scope entry
// applies in every repository, so only its claims about the home are checked — an absolute path
// under the home, or one written from `~/`. Through the real bin with HOME pointed at a temporary
// directory: `memory sync` verifies them, `get` says stale and why, `memory status` counts it per
// scope, the real SessionStart hook leaves it out; a repository claim in a user entry is never
// checked, and the file made again makes the entry fresh.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { runCli, tempHome } from '../support/cli.js';
import { userRoot, writeEntry } from '../support/memory-files.js';

after(() => c.closeStores());

const START = c.hookFiles('codex', 'b')[0]!;

describe('user-scope entries against the home directory', () => {
  it('a file under the home that is gone makes its entry stale; repository claims are not checked', async () => {
    const home = tempHome('cm-stale-user');
    mkdirSync(home, { recursive: true });
    const person = mkdtempSync(join(tmpdir(), 'cm-person-'));
    mkdirSync(join(person, '.config', 'tool'), { recursive: true });
    writeFileSync(join(person, '.config', 'tool', 'settings.toml'), 'width = 2\n');
    writeEntry(userRoot(home), 'tool-settings', 'Tool settings', 'The tool reads `~/.config/tool/settings.toml`.');
    writeEntry(userRoot(home), 'old-theme', 'Editor theme', `The theme is in \`${person}/.config/theme/dark.toml\`.`);
    writeEntry(userRoot(home), 'repo-rule', 'Lint first', 'In every repository run `npm run lint` on `src/`.');
    const outside = mkdtempSync(join(tmpdir(), 'cm-outside-'));
    const cli = (...args: string[]) => runCli([...args, '--home', home], { cwd: outside, env: { HOME: person } });

    const synced = await cli('memory', 'sync', '--json');
    assert.equal(synced.code, 0, synced.stderr);
    assert.deepEqual(JSON.parse(synced.stdout).anchors, { state: 'verified', entries: 3, stale: 1, reason: null });
    // Outside git there is no worktree: the text says what the entries were checked against.
    const syncedText = await cli('memory', 'sync');
    assert.equal(syncedText.code, 0, syncedText.stderr);
    assert.match(syncedText.stdout, /^verified against your home directory \(user entries\): 1 of 3 entries stale/m);
    assert.doesNotMatch(syncedText.stdout, /worktree/);

    const stale = JSON.parse((await cli('get', 'old-theme', '--json')).stdout);
    assert.equal(stale.stale, true);
    assert.deepEqual(
      stale.failedAnchors.map((f: { reason: string }) => f.reason),
      ['`.config/theme/dark.toml` does not exist'],
    );
    const staleText = await cli('get', 'old-theme');
    assert.match(staleText.stdout, /^STALE: a claim it makes about your home directory does not hold:$/m);
    assert.equal(JSON.parse((await cli('get', 'tool-settings', '--json')).stdout).verification, 'fresh');
    // No anchor it can check: never stale, whatever the repositories hold.
    const rule = JSON.parse((await cli('get', 'repo-rule', '--json')).stdout);
    assert.equal(rule.stale, false);
    assert.equal(rule.verification, 'fresh');

    const status = await cli('memory', 'status', '--json');
    assert.deepEqual(JSON.parse(status.stdout).anchors.staleEntries, { project: 0, user: 1 });
    // Retirement suggestions name it as stale too: suggestions are of this worktree and the user scope.
    const suggested = JSON.parse((await cli('memory', 'suggestions', '--json')).stdout) as {
      suggestions: Array<{ entryId: string; scope: string; reasons: Array<{ kind: string; text: string }> }>;
    };
    const theme = suggested.suggestions.find((one) => one.entryId === 'old-theme');
    assert.equal(theme?.scope, 'user');
    assert.deepEqual(
      theme?.reasons.map((r) => r.kind),
      ['stale'],
    );
    assert.match(theme!.reasons[0]!.text, /`\.config\/theme\/dark\.toml` does not exist/);

    const run = await c.hookBin(home, 'codex', c.payloadFor(START, null, { cwd: outside, session_id: 'u1' }), 'u1');
    assert.equal(run.code, 0, run.stderr);
    const snapshot = JSON.parse(run.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(snapshot, /\[tool-settings\]/);
    assert.match(snapshot, /\[repo-rule\]/);
    assert.doesNotMatch(snapshot, /\[old-theme\]/);
    assert.match(snapshot, /may be stale, not given: old-theme — `\.config\/theme\/dark\.toml` does not exist/);

    mkdirSync(join(person, '.config', 'theme'), { recursive: true });
    writeFileSync(join(person, '.config', 'theme', 'dark.toml'), 'bg = "black"\n');
    const again = await cli('memory', 'sync', '--json');
    assert.equal(JSON.parse(again.stdout).anchors.stale, 0);
    assert.equal(JSON.parse((await cli('get', 'old-theme', '--json')).stdout).verification, 'fresh');
    // Seen there, then removed: now it no longer exists (never there, above, it did not exist).
    rmSync(join(person, '.config', 'theme', 'dark.toml'));
    assert.equal((await cli('memory', 'sync', '--json')).code, 0);
    assert.deepEqual(
      JSON.parse((await cli('get', 'old-theme', '--json')).stdout).failedAnchors.map(
        (f: { reason: string }) => f.reason,
      ),
      ['`.config/theme/dark.toml` no longer exists'],
    );
  });
});
