// `status --help` named its client dirs as `install` does ("codex only", "claude only", "pi only"),
// which reads as if status took one of them; it reads all three clients' configs at once.
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
