// Help wording a person reads as the docs: `status --help` named its client dirs as `install` does
// ("codex only"), though status reads all three; `flush --help` said only "drain", though it drafts too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMAND_SPECS } from '../../source/cli/commands.js';
import { commandHelp } from '../../source/cli/help.js';

describe('status --help', () => {
  it("says each client dir is where it looks for that client's hooks, never 'codex only'", () => {
    const spec = COMMAND_SPECS.find((command) => command.path === 'status')!;
    const help = commandHelp(spec, 'Durable memory.', 200);
    assert.doesNotMatch(help, /(codex|claude|pi) only/);
    for (const flag of ['--codex-home', '--claude-dir', '--pi-dir'])
      assert.match(help, new RegExp(`${flag} DIR +where it looks for`), flag);
  });
});

describe('flush --help', () => {
  it('says it drafts candidates too, not only that it drains (README: "drain the inbox and draft candidates now")', () => {
    const spec = COMMAND_SPECS.find((command) => command.path === 'flush')!;
    assert.match(commandHelp(spec, 'Durable memory.', 200), /draft candidates/);
  });
});
