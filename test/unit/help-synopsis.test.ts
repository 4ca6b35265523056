// A flag a command requires is shown without brackets in its usage: `memory approve` cannot run
// without --digest, and "[--digest D]" read as optional.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandSpec } from '../../source/cli/commands.js';
import { synopsis } from '../../source/cli/help.js';

const spec = (path: string) => commandSpec(path)!;

describe('usage synopsis', () => {
  it('shows a required flag bare and an optional one in brackets', () => {
    assert.equal(synopsis(spec('memory approve')), 'memory approve <plan-id> --digest D');
    assert.equal(synopsis(spec('memory reverify-runner')), 'memory reverify-runner --runner NAME');
    assert.equal(synopsis(spec('memory promote')), 'memory promote <plan-id> [--dry-run]');
  });
});
