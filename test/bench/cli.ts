// Start-up of what clients and scripts call, whole process, beside a bare `node -e 0` measured in
// the same rounds (interleaved, so load on the machine falls on all alike): the MCP server until
// `initialize` is answered and until `tools/list` is (a client offers the tools after both),
// `sessions --json`, `get`, `memory review --json`, `note` with no host running, `memory lint` of a
// short note (most of it the lint's first run: its regular expressions compiled) and `memory extract`
// with nothing new to extract (a run followed from its start to its end). Medians and
// their ratio to the bare start; targets from the issue: MCP and the read commands within 2x.
// CM_BENCH_CLI_ROUNDS rounds (default 15).
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_TOOLS } from '../../source/mcp/tools.js';
import { gitRepo, BIN, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { type Figure, median, report } from './measure.js';

/** What a client sends first, all at once as Codex does: initialize, initialized, tools/list. */
const FIRST_EXCHANGE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

function timed(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

/** Spawn to the answers of `initialize` and of `tools/list`, as a client waits for them. */
function mcpFirstExchange(home: string, cwd: string): Promise<{ initialize: number; tools: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'mcp', '--home', home], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let initialize: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      const answers = out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { id: number; result?: { tools?: unknown[] } });
      initialize ??= answers.some((answer) => answer.id === 1) ? elapsed : undefined;
      const tools = answers.find((answer) => answer.id === 2);
      if (initialize === undefined || tools === undefined) return;
      child.kill();
      if (!answers.every((answer) => answer.result) || tools.result?.tools?.length !== MCP_TOOLS.length)
        reject(new Error(`the first exchange failed: ${out}`));
      else resolve({ initialize, tools: elapsed });
    });
    child.on('error', reject);
    child.stdin.write(FIRST_EXCHANGE);
  });
}

export async function runCliBench(): Promise<Figure[]> {
  const rounds = Number(process.env['CM_BENCH_CLI_ROUNDS'] ?? 15);
  const home = tempHome('bench-cli');
  const repo = gitRepo(home, 'repo');
  writeEntry(projectRoot(repo), 'use-pnpm', 'Use pnpm', 'Run pnpm install, never npm.');
  timed([BIN, 'memory', 'sync', '--home', home], repo);
  timed([BIN, 'note', 'bench store', '--home', home], repo);
  // A proposal's few lines, linted as `memory prepare` and `memory_propose` lint them (secrets, poisoning).
  const note = join(home, 'note.md');
  writeFileSync(
    note,
    'Run `npm test` before pushing; CI is in .github/workflows/ci.yml.\nUse pnpm, not npm, here.\nThe staging database is reset each night at 02:00 UTC.\n',
  );
  const times: Record<string, number[]> = {
    bare: [],
    mcp: [],
    tools: [],
    sessions: [],
    get: [],
    review: [],
    note: [],
    lint: [],
    extract: [],
  };
  for (let round = 0; round < rounds; round++) {
    times['bare']!.push(timed(['-e', '0'], repo));
    const mcp = await mcpFirstExchange(home, repo);
    times['mcp']!.push(mcp.initialize);
    times['tools']!.push(mcp.tools);
    times['sessions']!.push(timed([BIN, 'sessions', '--json', '--home', home], repo));
    times['get']!.push(timed([BIN, 'get', 'use-pnpm', '--home', home], repo));
    times['review']!.push(timed([BIN, 'memory', 'review', '--json', '--home', home], repo));
    times['note']!.push(timed([BIN, 'note', `round ${round}`, '--home', home], repo));
    times['lint']!.push(timed([BIN, 'memory', 'lint', note, '--home', home], repo));
    // Nothing new since the last round: a run that ends at once, started and followed as any.
    times['extract']!.push(timed([BIN, 'memory', 'extract', '--json', '--home', home], repo));
  }
  const bare = median(times['bare']!);
  const figure = (key: string, name: string, bound: number | null): Figure => {
    const value = median(times[key]!);
    const ratio = value / bare;
    return {
      name,
      value: `${value.toFixed(0)} ms`,
      floor: `node -e 0 ${bare.toFixed(0)} ms`,
      ratio,
      target: bound === null ? 'reported' : `<= ${bound}x node -e 0`,
      met: bound === null ? null : ratio <= bound,
    };
  };
  const figures = [
    figure('mcp', `mcp: initialize answered (median of ${rounds})`, 2),
    figure('tools', 'mcp: tools/list answered', null),
    figure('sessions', 'sessions --json', 2),
    figure('get', 'get <id>', 2),
    figure('review', 'memory review --json', 2),
    figure('note', 'note, no host running', null),
    figure('lint', 'memory lint <a note of three lines>', null),
    figure('extract', 'memory extract, nothing to extract, no host running', null),
  ];
  report(figures);
  return figures;
}
