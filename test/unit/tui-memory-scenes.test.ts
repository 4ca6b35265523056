// A scene in the Memory screen (issue 28, item 4): search lists it beside the entries and Enter reads
// it, but it is changed only through consolidation — neither retire nor edit acts on it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryEntryView } from '../../source/api/memory-views.js';
import { entriesReducer, initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { entryActionHelp, targetEntry } from '../../source/screens/memory/entry-actions.js';

const searched = entriesReducer(
  { ...initialEntriesState, search: { id: 1, query: 'deploy' } },
  {
    type: 'searched',
    id: 1,
    result: {
      generation: 1,
      coverage: 'complete',
      scopes: [{ scope: 'project', generation: 1, coverage: 'complete', entries: 2 }],
      results: [
        {
          entryId: 'scene:deploy',
          title: 'Deploys',
          scope: 'project',
          path: 'scenes/deploy.md',
          kind: 'scene',
          entries: 2,
        },
        { entryId: 'deploy-01', title: 'Tag first', scope: 'project', path: 'work_method/deploy-01.md' },
      ],
    },
  },
);

const labels = (state: typeof searched) => entryActionHelp(state).map((item) => item.label);

const sceneView: MemoryEntryView = {
  id: 'scene:deploy',
  title: 'Deploys',
  appliesWhen: null,
  contentDigest: 'a'.repeat(64),
  sources: [{ scope: 'project', path: 'scenes/deploy.md' }],
  body: 'How we deploy.\n',
  type: 'scene',
  priority: 0,
  scene: { name: 'deploy', entries: [], missing: [], bodiesLeftOut: 0 },
};

describe('a scene in the Memory screen', () => {
  it('is listed and selectable, but no entry action targets it', () => {
    assert.equal(searched.result?.results.length, 2);
    assert.equal(targetEntry(searched), null);
    // Consolidation acts on the scope, not on the row: the list offers it on a scene's row too.
    assert.deepEqual(labels(searched), ['verify', 'consolidate']);
    const onEntry = entriesReducer(searched, { type: 'select', delta: 1 });
    assert.equal(targetEntry(onEntry)?.entryId, 'deploy-01');
    assert.deepEqual(labels(onEntry), ['verify', 'retire', 'consolidate']);
  });

  it('opened, offers neither edit nor retire', () => {
    const opened = { ...searched, open: { id: 2, entryId: 'scene:deploy' }, entry: sceneView };
    assert.equal(targetEntry(opened), null);
    assert.deepEqual(labels(opened), ['verify']);
    const entry = {
      ...searched,
      open: { id: 3, entryId: 'deploy-01' },
      entry: { ...sceneView, id: 'deploy-01', type: 'work_method', scene: undefined },
    };
    assert.deepEqual(labels(entry), ['verify', 'edit', 'retire']);
  });
});
