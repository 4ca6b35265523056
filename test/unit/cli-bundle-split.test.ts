// Fast start for what clients and scripts call: the CLI bundle is split at its dynamic imports
// (scripts/bundle.mjs), so a plain command loads the entry chunk and its static imports only, and
// `mcp` adds the MCP server's chunk — neither ever loads ink, react or yoga (the TUI's). Checked on
// the built chunk graph: each chunk's static imports followed from the entry, and the packages its
// source map names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const dir = new URL('../../dist/cli/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const STATIC = /(?:from|import)\s*"\.\/(chunk-[A-Z0-9]+\.mjs)"/g;
const DYNAMIC = /import\("\.\/(chunk-[A-Z0-9]+\.mjs)"\)/g;

/** The chunk and every chunk it imports statically, transitively: what loading it loads. */
function closure(names: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const match of read(name).matchAll(STATIC)) queue.push(match[1]!);
  }
  return seen;
}

const sources = (name: string): string[] => (JSON.parse(read(`${name}.map`)) as { sources: string[] }).sources;
const UI_PACKAGES = /node_modules\/(ink|react|react-reconciler|yoga-layout|scheduler)\//;
const uiSources = (chunks: Set<string>) => [...chunks].flatMap(sources).filter((source) => UI_PACKAGES.test(source));

/** The chunks the given ones import dynamically whose sources include `source`. */
function dynamicTarget(from: Set<string>, source: string): string {
  const targets = [...new Set([...from].flatMap((name) => [...read(name).matchAll(DYNAMIC)].map((m) => m[1]!)))];
  const found = targets.filter((name) => sources(name).some((s) => s.endsWith(source)));
  assert.equal(found.length, 1, `one chunk loads ${source}: ${found.join(', ')}`);
  return found[0]!;
}

describe('the CLI bundle is split so that only the TUI loads ink, react and yoga', () => {
  const entry = closure(['bundle.mjs']);

  it('a plain command (the entry chunk and its static imports) loads none of them', () => {
    assert.deepEqual(uiSources(entry), []);
  });

  it('mcp (the entry and the MCP server chunk) loads none of them', () => {
    const mcp = closure([...entry, dynamicTarget(entry, 'source/mcp/server.ts')]);
    assert.ok(mcp.size > entry.size, 'the MCP server is a chunk of its own');
    assert.deepEqual(uiSources(mcp), []);
  });

  it('the TUI chunk does load them (the check above can fail)', () => {
    // Two dynamic steps: the entry loads the TUI command's module when it runs, and that loads the TUI.
    const command = closure([...entry, dynamicTarget(entry, 'source/cli/commands/tui.ts')]);
    assert.deepEqual(uiSources(command), [], 'the TUI command module alone loads none of them');
    const tui = closure([...command, dynamicTarget(command, 'source/screens/run-tui.tsx')]);
    assert.ok(uiSources(tui).some((source) => source.includes('node_modules/ink/')));
  });
});
