// `memory_search` through the real `common-memory mcp` over stdio, a client's round trip (request
// written → answer parsed), at 100k approved entries of the repository (CM_BENCH_MCP_ENTRIES),
// projected by a real `memory sync` of real entry files; p95 beside the transport floor measured in
// the same run and the same server: `tools/list`, which touches no store.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeBenchEntries } from './entry-files.js';
import { BIN, tempHome } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';
import { type Figure, median, percentile, report, timeMs, timeMsAsync } from './measure.js';

const WORDS = ['pnpm', 'lockfile', 'release', 'tag', 'formatter', 'commit', 'review', 'deploy', 'schema', 'migration'];

function entryText(i: number) {
  const a = WORDS[i % WORDS.length]!;
  const b = WORDS[Math.floor(i / WORDS.length) % WORDS.length]!;
  return {
    title: `Convention ${i}: ${a} before ${b}`,
    appliesWhen: `working on ${b}`,
    body: `Convention ${i}: always ${a} before ${b}; token${i} marks this entry.\n`,
  };
}

/**
 * Whole-process start of `common-memory mcp`: from spawn to the answer of its initialize request,
 * beside bare `node -e 0` spawned and waited for, alternating (median of 9 each).
 */
export async function mcpStartFigures(): Promise<Figure[]> {
  const home = tempHome('bench-mcp-start');
  mkdirSync(home, { recursive: true });
  const start: number[] = [];
  const bare: number[] = [];
  for (let round = -1; round < 9; round++) {
    let client: McpTestClient | undefined;
    const started = await timeMsAsync(async () => {
      client = await McpTestClient.start(home, home);
    });
    await client?.close();
    const floor = timeMs(() => spawnSync(process.execPath, ['-e', '0']));
    if (round < 0) continue; // the first run creates the store
    start.push(started);
    bare.push(floor);
  }
  return [
    {
      name: 'MCP server start, spawn to the initialize answer (median of 9)',
      value: `${median(start).toFixed(0)} ms`,
      floor: `${median(bare).toFixed(0)} ms bare node -e 0`,
      ratio: median(start) / median(bare),
      target: 'reported',
      met: null,
      id: 'mcp.start',
      better: 'lower',
    },
  ];
}

export async function runMcpBench(): Promise<Figure[]> {
  const count = Number(process.env['CM_BENCH_MCP_ENTRIES'] ?? 100_000);
  const calls = Number(process.env['CM_BENCH_MCP_CALLS'] ?? 200);
  const home = tempHome('bench-mcp');
  const repo = join(home, '..', 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const write = timeMs(() => writeBenchEntries(repo, count, entryText));
  let synced = '';
  const sync = timeMs(() => {
    synced = execFileSync(process.execPath, [BIN, 'memory', 'sync', '--home', home, '--json'], {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
  });
  const entries = (JSON.parse(synced) as { entries: number }).entries;
  process.stdout.write(
    `(${count} entry files written in ${(write / 1000).toFixed(1)} s, synced in ${(sync / 1000).toFixed(1)} s)\n`,
  );

  const client = await McpTestClient.start(home, repo);
  const search: number[] = [];
  const floor: number[] = [];
  let hits = 0;
  try {
    const query = (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]}`;
    for (let i = 0; i < 10; i++) {
      await client.call('memory_search', { query: query(i) });
      await client.request('tools/list');
    }
    for (let i = 0; i < calls; i++) {
      // Alternating, so that machine noise hits both alike.
      search.push(
        await timeMsAsync(async () => {
          const result = await client.call('memory_search', { query: query(i), limit: 20 });
          if (result.isError) throw new Error(`memory_search failed: ${JSON.stringify(result.structuredContent)}`);
          hits += (result.structuredContent.results as unknown[]).length;
        }),
      );
      floor.push(await timeMsAsync(() => client.request('tools/list')));
    }
  } finally {
    await client.close();
  }
  const p95 = percentile(search, 95);
  const figures: Figure[] = [
    {
      name: `MCP memory_search round trip over stdio at ${entries} approved entries (p95)`,
      value: `${p95.toFixed(1)} ms (median ${median(search).toFixed(1)} ms, ${(hits / calls).toFixed(1)} hits a call)`,
      floor: `${percentile(floor, 95).toFixed(1)} ms tools/list p95`,
      ratio: p95 / percentile(floor, 95),
      target: 'reported',
      met: null,
    },
  ];
  report(figures);
  return figures;
}
