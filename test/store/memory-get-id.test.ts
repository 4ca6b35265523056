// The id `get` and MCP `memory_get` are given, as a person pastes it: surrounding whitespace is not
// part of it (an entry id never holds any), so " deploy " reads the entry "deploy" — the CLI, the
// API and MCP all read through memoryGetAt, so they answer the same.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { memoryGetAt } from '../../source/pipeline/approved-access.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';

describe('get by an id with surrounding whitespace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-get-id-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the entry the trimmed id names, and echoes the id without the whitespace', () => {
    const home = join(dir, 'home');
    mkdirSync(home, { recursive: true });
    const repo = join(dir, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    writeEntry(projectRoot(repo), 'deploy', 'Deploy', 'Run the deploy script from the release branch.');
    const statePath = join(home, 'memory-state.sqlite');
    assert.equal(memoryGetAt(statePath, repo, ' deploy ').id, 'deploy');
    assert.equal(memoryGetAt(statePath, repo, '\tdeploy\n').id, 'deploy');
    assert.throws(() => memoryGetAt(statePath, repo, ' nothing-here '), /has the id "nothing-here" in/);
    // Nothing but whitespace names no entry: the usage line, as for no id at all.
    assert.throws(() => memoryGetAt(statePath, repo, ' \t '), /Give an entry id/);
  });
});
