// A root agent's `memory_get` of a scene (issue 28, item 4) is a read the ledger records, by the
// scene's id and content digest, like an entry's: a subagent's hint can then name the scene.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifiedRead } from '../../source/hook/ledger-events.js';

const scene = {
  id: 'scene:deploy',
  title: 'Deploys',
  appliesWhen: 'shipping',
  contentDigest: 'a'.repeat(64),
  sources: [{ scope: 'project', path: 'scenes/deploy.md' }],
  body: 'How we deploy.\n',
  type: 'scene',
  priority: 0,
  scene: {
    name: 'deploy',
    entries: [{ entryId: 'deploy-01', title: 'Tag first', appliesWhen: null }],
    missing: [],
    bodiesLeftOut: 0,
  },
};

describe('the ledger and a scene', () => {
  it('records a memory_get of a scene as a read of its id', () => {
    const read = verifiedRead({
      tool_name: 'mcp__common-memory__memory_get',
      tool_input: { id: 'scene:deploy' },
      tool_response: { structuredContent: scene },
    });
    assert.deepEqual(read, {
      read: {
        entryId: 'scene:deploy',
        contentDigest: 'a'.repeat(64),
        title: 'Deploys',
        appliesWhen: 'shipping',
        sources: [{ scope: 'project', path: 'scenes/deploy.md' }],
      },
    });
  });
});
