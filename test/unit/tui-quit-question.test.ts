// The question q asks when this TUI's host runs agents: at 80 columns its keys and the agents it
// would stop are all on the one line it has.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quitQuestionText } from '../../source/screens/shell/help-line.js';
import { textColumns } from '../../source/text-columns.js';

describe('the quit question', () => {
  it('names the keys and the running agent within 80 columns', () => {
    const one = quitQuestionText(['release-bot']);
    assert.ok(textColumns(one) <= 80, `${textColumns(one)}: ${one}`);
    assert.match(one, /^Quit\? y quit · n\/Esc stay/);
    assert.match(one, /stops this TUI's host and agent release-bot$/);
  });

  it('names how many agents run, then which, the keys first', () => {
    const two = quitQuestionText(['helper', 'reviewer']);
    assert.ok(textColumns(two) <= 80, `${textColumns(two)}: ${two}`);
    assert.equal(two, "Quit? y quit · n/Esc stay — stops this TUI's host and 2 agents: helper, reviewer");
  });
});
