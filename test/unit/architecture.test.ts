// The import graph keeps its direction: ground < api < domain (memory/) < hosts < effects < store <
// hook < pipeline < workers < host < client < mcp < screens < cli (see test/support/import-graph.ts
// for the floors, the rules and the reason for each), the pure domain loads nothing with effects,
// the hook loads only its listed modules and light packages, SQL is written in store/** only, and
// nothing imports in a circle. The checker itself is tested: on a synthetic graph, and on a copy
// of the real tree with a violation planted in it.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import {
  HOOK_PACKAGES,
  type ImportGraph,
  readImportGraph,
  readSqlFiles,
  staleExceptions,
  violations,
} from '../support/import-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('architecture', () => {
  it('the source tree imports only downward, keeps the domain pure and the hook light, SQL in the store, no circle', () => {
    const graph = readImportGraph(root);
    const sql = readSqlFiles(root);
    assert.ok(graph.size > 100 && graph.has('source/hook/main.ts'), `the walk read the tree (${graph.size} modules)`);
    assert.ok(
      [...graph.values()].some((edges) => edges.some((edge) => edge.typeOnly)),
      'type-only imports are read too',
    );
    assert.ok(sql.has('source/store/core/journal.ts') && sql.size > 30, `the SQL scan found the store (${sql.size})`);
    assert.deepEqual(violations(graph, sql), []);
    assert.deepEqual(staleExceptions(graph, sql), []);
  });

  it('reports a backward import, a forbidden one, a heavy package in the hook, a module on no floor, and a circle', () => {
    const edge = (to: string, typeOnly = false) => ({ to, typeOnly });
    const graph: ImportGraph = new Map([
      ['source/hook/main.ts', [edge('source/hook/capture.ts'), edge('node:fs')]],
      ['source/hook/capture.ts', [edge('source/store/inbox.ts'), edge('source/ground/digests.ts')]],
      ['source/store/inbox.ts', [edge('source/workers/faults.ts', true), edge('zod'), edge('@scope/pkg/sub', true)]],
      ['source/workers/faults.ts', []],
      ['source/ground/digests.ts', [edge('source/ground/hash.ts', true)]],
      ['source/ground/hash.ts', [edge('source/ground/digests.ts')]],
      ['source/screens/x.tsx', [edge('source/store/inbox.ts')]],
      ['source/elsewhere/y.ts', []],
    ]);
    assert.deepEqual(violations(graph), [
      'source/store/inbox.ts (store) imports source/workers/faults.ts (workers, a higher floor)',
      'source/screens/x.tsx imports source/store/inbox.ts: screens never import store: they read and write through the application API (api/, client/), so one process owns each write',
      'source/elsewhere/y.ts is on no floor: add its folder to FLOORS in test/support/import-graph.ts',
      `the hook's graph (from source/hook/main.ts) loads zod; it may load node:* and ${HOOK_PACKAGES.join(', ')} only`,
      "the hook's graph (from source/hook/main.ts) reaches source/store/inbox.ts, which is not on HOOK_SAFE: the hook runs on every client event and loads only what its fast path needs",
      'import circle: source/ground/digests.ts → source/ground/hash.ts → source/ground/digests.ts',
    ]);
  });

  it('reports the finer floors: an effect in the domain, the CLI, MCP or screens past the API, SQL outside the store', () => {
    const edge = (to: string) => ({ to, typeOnly: false });
    const graph: ImportGraph = new Map([
      ['source/memory/rules.ts', [edge('node:fs'), edge('node:crypto'), edge('zod'), edge('source/effects/files.ts')]],
      ['source/effects/files.ts', []],
      ['source/pipeline/extract.ts', []],
      ['source/cli/commands/x.ts', [edge('source/pipeline/extract.ts'), edge('source/memory/rules.ts')]],
      ['source/mcp/tools.ts', [edge('source/effects/files.ts')]],
      ['source/screens/y.tsx', [edge('source/workers/thread.ts')]],
      ['source/workers/thread.ts', []],
      ['source/host/z.ts', []],
    ]);
    assert.deepEqual(violations(graph, new Set(['source/host/z.ts', 'source/store/core/a.ts'])), [
      'source/memory/rules.ts (domain) loads node:fs: the domain has no effects (no files, processes or databases), so its rules are tested on values',
      'source/memory/rules.ts (domain) imports source/effects/files.ts (effects, a higher floor)',
      'source/cli/commands/x.ts imports source/pipeline/extract.ts: cli never import pipeline: they read and write through the application API (api/, client/), so one process owns each write',
      'source/mcp/tools.ts imports source/effects/files.ts: mcp never import effects: they read and write through the application API (api/, client/), so one process owns each write',
      'source/screens/y.tsx imports source/workers/thread.ts: screens never import workers: they read and write through the application API (api/, client/), so one process owns each write',
      'source/host/z.ts writes SQL: SQL lives in source/store/** only, one file per aggregate, so a schema change has one place to look',
    ]);
  });

  describe('on a copy of the real tree with a violation planted', () => {
    const copy = mkdtempSync(join(tmpdir(), 'cm-architecture-'));
    cpSync(join(root, 'source'), join(copy, 'source'), { recursive: true });
    after(() => rmSync(copy, { recursive: true, force: true }));
    const plant = (path: string, text: string, check: (found: string[]) => void) => {
      const file = join(copy, path);
      appendFileSync(file, text);
      try {
        check(violations(readImportGraph(copy), readSqlFiles(copy)));
      } finally {
        // Each plant is checked alone: put the tree back as it was.
        cpSync(join(root, path), file);
      }
    };

    it('the copy itself is clean', () => {
      assert.deepEqual(violations(readImportGraph(copy), readSqlFiles(copy)), []);
    });

    it('fails on node:fs in the domain', () => {
      plant(
        'source/memory/rrf.ts',
        "\nimport { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n",
        (found) =>
          assert.deepEqual(found, [
            'source/memory/rrf.ts (domain) loads node:fs: the domain has no effects (no files, processes or databases), so its rules are tested on values',
          ]),
      );
    });

    it('fails on the CLI importing the store', () => {
      plant(
        'source/cli/commands/promote.ts',
        "\nexport { prepared as planted } from '../../store/database.js';\n",
        (found) =>
          assert.deepEqual(found, [
            'source/cli/commands/promote.ts imports source/store/database.ts: cli never import store: they read and write through the application API (api/, client/), so one process owns each write',
          ]),
      );
    });

    it('fails on SQL written outside the store', () => {
      plant('source/pipeline/approved-access.ts', "\nexport const planted = 'SELECT 1 FROM candidates';\n", (found) =>
        assert.deepEqual(found, [
          'source/pipeline/approved-access.ts writes SQL: SQL lives in source/store/** only, one file per aggregate, so a schema change has one place to look',
        ]),
      );
    });

    it('fails on SQL written in the hook', () => {
      plant(
        'source/hook/pi-channel.ts',
        "\nexport const planted = 'UPDATE capture_activations SET snapshot_pending = 0 WHERE activation_id = ?';\n",
        (found) =>
          assert.deepEqual(found, [
            'source/hook/pi-channel.ts writes SQL: SQL lives in source/store/** only, one file per aggregate, so a schema change has one place to look',
          ]),
      );
    });

    it('fails on the MCP server reading memory past the client', () => {
      plant(
        'source/mcp/backend.ts',
        "\nexport { memorySearchAt as planted } from '../pipeline/approved-access.js';\n",
        (found) =>
          assert.deepEqual(found, [
            'source/mcp/backend.ts imports source/pipeline/approved-access.ts: mcp never import pipeline: they read and write through the application API (api/, client/), so one process owns each write',
          ]),
      );
    });

    it('fails on the hook reaching a module off its list', () => {
      const planted = join(copy, 'source/hook/planted.ts');
      writeFileSync(planted, "export { recall } from '../store/memory/recall.js';\n");
      plant('source/hook/main.ts', "\nexport { recall as planted } from './planted.js';\n", (found) => {
        rmSync(planted);
        assert.ok(
          found.includes(
            "the hook's graph (from source/hook/main.ts) reaches source/store/memory/recall.ts, which is not on HOOK_SAFE: the hook runs on every client event and loads only what its fast path needs",
          ),
          found.join('\n'),
        );
      });
    });
  });
});
