// Start-up of what clients and scripts call, whole process, beside a bare `node -e 0` measured in
// the same rounds (interleaved, so load on the machine falls on all alike): the MCP server until
// `initialize` is answered, `sessions --json`, `get`, `memory review --json`, and `note` with no
// host running. Medians and their ratio to the bare start; targets from the issue: MCP and the
// read commands within 2x. CM_BENCH_CLI_ROUNDS rounds (default 15).
import { spawn, spawnSync } from 'node:child_process';
import { gitRepo, BIN, tempHome } from '../support/cli.js';
import { projectRoot, writeEntry } from '../support/memory-files.js';
import { type Figure, median, report } from './measure.js';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

function timed(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

/** Spawn to the first answer line of `initialize`, as a client waits for it. */
function mcpInitialize(home: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'mcp', '--home', home], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('\n')) return;
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      child.kill();
      if (!out.includes('"result"')) reject(new Error(`initialize failed: ${out}`));
      else resolve(elapsed);
    });
    child.on('error', reject);
    child.stdin.end(INITIALIZE);
  });
}

export async function runCliBench(): Promise<Figure[]> {
  const rounds = Number(process.env['CM_BENCH_CLI_ROUNDS'] ?? 15);
  const home = tempHome('bench-cli');
  const repo = gitRepo(home, 'repo');
  writeEntry(projectRoot(repo), 'use-pnpm', 'Use pnpm', 'Run pnpm install, never npm.');
  timed([BIN, 'memory', 'sync', '--home', home], repo);
  timed([BIN, 'note', 'bench store', '--home', home], repo);
  const times: Record<string, number[]> = { bare: [], mcp: [], sessions: [], get: [], review: [], note: [] };
  for (let round = 0; round < rounds; round++) {
    times['bare']!.push(timed(['-e', '0'], repo));
    times['mcp']!.push(await mcpInitialize(home, repo));
    times['sessions']!.push(timed([BIN, 'sessions', '--json', '--home', home], repo));
    times['get']!.push(timed([BIN, 'get', 'use-pnpm', '--home', home], repo));
    times['review']!.push(timed([BIN, 'memory', 'review', '--json', '--home', home], repo));
    times['note']!.push(timed([BIN, 'note', `round ${round}`, '--home', home], repo));
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
    figure('sessions', 'sessions --json', 2),
    figure('get', 'get <id>', 2),
    figure('review', 'memory review --json', 2),
    figure('note', 'note, no host running', null),
  ];
  report(figures);
  return figures;
}
