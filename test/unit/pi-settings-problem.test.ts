// `agent create --pi-config DIR` (and the TUI's new-agent form) reads the dir's models.json and
// auth.json before anything is created. A FIFO or a device there must be refused, not read: a read
// blocks until a writer comes, which froze the command (and the TUI with its in-process host).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { piSettingsProblem, prepareAgentDir } from '../../source/hosts/pi/agent-dir.js';

const root = mkdtempSync(join(tmpdir(), 'cm-pi-settings-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('the pi config dir given to agent create', () => {
  it('a FIFO as models.json is refused at once, never opened', () => {
    const dir = join(root, 'fifo');
    mkdirSync(dir);
    execFileSync('mkfifo', [join(dir, 'models.json')]);
    const problem = piSettingsProblem('fake/model', dir);
    assert.match(problem ?? '', /models\.json is not a regular file/);
  });

  it('a directory as auth.json is refused as not a regular file', () => {
    const dir = join(root, 'dir');
    mkdirSync(join(dir, 'auth.json'), { recursive: true });
    assert.match(piSettingsProblem(undefined, dir) ?? '', /auth\.json is not a regular file/);
  });

  it('a FIFO put there after create is skipped when a generation starts, the other files copied', () => {
    const dir = join(root, 'later');
    mkdirSync(dir);
    writeFileSync(join(dir, 'auth.json'), '{}');
    execFileSync('mkfifo', [join(dir, 'models.json')]);
    const agentDir = join(root, 'agent-later');
    assert.deepEqual(prepareAgentDir(agentDir, dir), ['auth.json']);
    assert.equal(existsSync(join(agentDir, 'models.json')), false);
  });

  it("the copies in the data home are 0600 whatever the source's mode (auth.json holds API keys)", () => {
    const dir = join(root, 'readable');
    mkdirSync(dir);
    for (const name of ['models.json', 'auth.json', 'settings.json'])
      writeFileSync(join(dir, name), '{}', { mode: 0o644 });
    const agentDir = join(root, 'agent-private');
    assert.deepEqual(prepareAgentDir(agentDir, dir), ['models.json', 'auth.json', 'settings.json']);
    for (const name of ['models.json', 'auth.json', 'settings.json'])
      assert.equal((statSync(join(agentDir, name)).mode & 0o777).toString(8), '600', name);
    assert.equal((statSync(agentDir).mode & 0o777).toString(8), '700');
  });

  it('an auth.json that is not JSON is named without quoting its text (it holds API keys)', () => {
    const dir = join(root, 'bad-auth');
    mkdirSync(dir);
    for (const text of ['{"anthropic": {"key": sk-ant-api03-SECRETVALUE}}', 'sk-ant-api03-SECRETVALUE']) {
      writeFileSync(join(dir, 'auth.json'), text);
      const problem = piSettingsProblem(undefined, dir) ?? '';
      assert.match(problem, /auth\.json is not valid JSON \(Unexpected token/);
      assert.doesNotMatch(problem, /sk-ant|SECRET|key/, problem);
    }
  });

  it('a model of 100,000 characters is refused, and the message does not repeat it', () => {
    for (const model of [`fake/${'m'.repeat(100_000)}`, `bad ${'m'.repeat(100_000)}`]) {
      const problem = piSettingsProblem(model, undefined) ?? '';
      assert.match(problem, /--model/);
      assert.ok(problem.length < 300, problem.slice(0, 300));
    }
    assert.equal(piSettingsProblem(`fake/${'m'.repeat(200)}`, undefined), undefined, 'a long but plausible id is kept');
  });
});
