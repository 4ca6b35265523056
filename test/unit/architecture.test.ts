// The import graph keeps its direction: ground < hosts < store < api < hook < workers < host <
// client < screens < cli (see test/support/import-graph.ts for the floors and the reasons), the
// hook loads no heavy package, and nothing imports in a circle.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { HOOK_PACKAGES, type ImportGraph, readImportGraph, violations } from '../support/import-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('architecture', () => {
  it('the source tree imports only downward, keeps the hook light and has no circle', () => {
    const graph = readImportGraph(root);
    assert.ok(graph.size > 100 && graph.has('source/hook/main.ts'), `the walk read the tree (${graph.size} modules)`);
    assert.ok(
      [...graph.values()].some((edges) => edges.some((edge) => edge.typeOnly)),
      'type-only imports are read too',
    );
    assert.deepEqual(violations(graph), []);
  });

  it('reports a backward import, a forbidden one, a heavy package in the hook, a module on no floor, and a circle', () => {
    const edge = (to: string, typeOnly = false) => ({ to, typeOnly });
    const graph: ImportGraph = new Map([
      ['source/hook/main.ts', [edge('source/hook/capture.ts'), edge('node:fs')]],
      ['source/hook/capture.ts', [edge('source/store/inbox.ts'), edge('source/ground/digests.ts')]],
      ['source/store/inbox.ts', [edge('source/workers/faults.ts'), edge('zod'), edge('@scope/pkg/sub', true)]],
      ['source/workers/faults.ts', []],
      ['source/ground/digests.ts', [edge('source/ground/hash.ts', true)]],
      ['source/ground/hash.ts', [edge('source/ground/digests.ts')]],
      ['source/screens/x.tsx', [edge('source/store/inbox.ts')]],
      ['source/elsewhere/y.ts', []],
    ]);
    assert.deepEqual(violations(graph), [
      'source/store/inbox.ts (store) imports source/workers/faults.ts (workers, a higher floor)',
      'source/screens/x.tsx imports source/store/inbox.ts: screens read and write through the application API',
      'source/elsewhere/y.ts is on no floor: add its folder to FLOORS in test/support/import-graph.ts',
      `the hook's graph (from source/hook/main.ts) loads zod; it may load node:* and ${HOOK_PACKAGES.join(', ')} only`,
      'import circle: source/ground/digests.ts → source/ground/hash.ts → source/ground/digests.ts',
    ]);
  });
});
