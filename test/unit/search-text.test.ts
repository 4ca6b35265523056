// The text of `search`: a snippet of a turn holding a terminal escape (a log pasted with its colours)
// shows it as ⟨U+001B⟩ instead of sending it to the terminal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchText } from '../../source/cli/commands/memory.js';

describe('search text', () => {
  it('labels control characters of a snippet', () => {
    const text = searchText({
      results: [
        {
          sessionKey: 's1',
          turnKey: 't1',
          client: 'codex',
          recordedAt: '2026-12-01T00:00:00.000Z',
          typedAt: '2026-11-30T09:00:00.000Z',
          snippet: 'Always [prefix] log lines with \u001b[31mERROR\u001b[0m here.',
        },
      ],
    });
    assert.doesNotMatch(text, /\u001b/);
    assert.match(text, /^ {4}Always \[prefix\] log lines with ⟨U\+001B⟩\[31mERROR⟨U\+001B⟩\[0m here\.$/m);
  });
});
