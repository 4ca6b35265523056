// Import throughput, beside its floor in the same run: `import codex --yes` of ≥ 200 MB of Codex
// rollouts built from the recorded tool turn (CM_BENCH_IMPORT_MB, default 256; CM_BENCH_IMPORT_FILES
// sessions, default 32), in a compiled child process holding the store as the command does without
// a host, timed from the call to its report (the host start and the extraction left out: extraction
// is off). The floor is the drain's own: a raw chunked split + JSON.parse of the same bytes; the
// target is the drain's target. Peak RSS is the whole child's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AUTO_EXTRACT_ENV } from '../../source/limits.js';
import { tempHome } from '../support/cli.js';
import { buildRollout } from './capture.js';
import { type Figure, median, rawChunkedJsonParse, report, timeMs } from './measure.js';

const RUNS = Number(process.env['CM_BENCH_IMPORT_RUNS'] ?? 1);

function importChild(
  home: string,
  codexSessions: string,
  totalBytes: number,
): { ms: number; turns: number; bytes: number; quarantined: number; rssMb: number } {
  const child = join(dirname(home), 'import-child.mjs');
  writeFileSync(
    child,
    `const { Host } = await import(${JSON.stringify(new URL('../../dist/host/host.js', import.meta.url).pathname)});
     const [home, root] = process.argv.slice(2);
     const host = await Host.start({ home, serve: false });
     const start = process.hrtime.bigint();
     let run = await host.application.captureImportStart({ client: 'codex', root, extract: false });
     while (run.state === 'running' || run.state === 'extracting') {
       await new Promise((done) => setTimeout(done, 20));
       run = await host.application.captureImportRun({ importId: run.importId });
     }
     const ms = Number(process.hrtime.bigint() - start) / 1e6;
     await host.stop();
     if (run.state !== 'done') throw new Error(JSON.stringify(run.error));
     process.stdout.write(JSON.stringify({ ms, report: run.report, maxRssKb: process.resourceUsage().maxRSS }));`,
  );
  const result = spawnSync(process.execPath, [child, home, codexSessions], {
    env: { ...process.env, [AUTO_EXTRACT_ENV]: 'off', COMMON_MEMORY_CAPACITY_BYTES: `${totalBytes}:${4 * totalBytes}` },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`import child failed: ${result.stderr}`);
  const {
    ms,
    report: r,
    maxRssKb,
  } = JSON.parse(result.stdout) as {
    ms: number;
    report: { turns: number; bytes: number; quarantined: number };
    maxRssKb: number;
  };
  return { ms, turns: r.turns, bytes: r.bytes, quarantined: r.quarantined, rssMb: maxRssKb / 1024 };
}

export async function importThroughput(): Promise<Figure[]> {
  const mb = Number(process.env['CM_BENCH_IMPORT_MB'] ?? 256);
  const files = Number(process.env['CM_BENCH_IMPORT_FILES'] ?? 32);
  const home = tempHome('bench-import');
  const sessions = join(dirname(home), 'codex', 'sessions', '2026', '11', '30');
  mkdirSync(sessions, { recursive: true });
  let turns = 0;
  let size = 0;
  const paths: string[] = [];
  try {
    for (let i = 0; i < files; i++) {
      const id = `01a22e40-36ff-79a2-a0b6-${String(i).padStart(12, '0')}`;
      const path = join(sessions, `rollout-2026-11-30T20-56-${String(i % 60).padStart(2, '0')}-${id}.jsonl`);
      turns += buildRollout(path, mb / files, id).turns;
      size += statSync(path).size;
      paths.push(path);
    }
    const sizeMb = size / 1024 / 1024;
    const runs: Array<ReturnType<typeof importChild>> = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      raw.push(sizeMb / (paths.reduce((ms, path) => ms + timeMs(() => rawChunkedJsonParse(path)), 0) / 1000));
      const runHome = `${home}-${i}`;
      runs.push(importChild(runHome, join(dirname(home), 'codex', 'sessions'), size));
      rmSync(runHome, { recursive: true, force: true });
    }
    const rates = runs.map((run) => sizeMb / (run.ms / 1000));
    const all = runs.every((run) => run.turns === turns && run.quarantined === 0 && run.bytes === size);
    const rss = Math.max(...runs.map((run) => run.rssMb));
    return [
      {
        name: `import codex --yes of ${sizeMb.toFixed(0)} MB in ${files} rollouts built from the recorded tool turn (median of ${RUNS}: ${rates.map((r) => r.toFixed(0)).join(', ')} MB/s; ${all ? `every run stored ${turns}/${turns} turns` : 'a run did NOT store every turn'}; timed from the call to its report, excluding the host start; extraction off)`,
        value: `${median(rates).toFixed(1)} MB/s`,
        floor: `${median(raw).toFixed(1)} MB/s raw chunked JSON.parse`,
        ratio: median(rates) / median(raw),
        target: "the drain's: >= 100 MB/s and >= 0.5x the floor, every turn stored",
        met: median(rates) >= 100 && median(rates) / median(raw) >= 0.5 && all,
        id: 'import.throughput',
        better: 'higher',
      },
      {
        name: 'import peak RSS (whole child process, the largest of all runs)',
        value: `${rss.toFixed(0)} MB`,
        target: '<= 200 MB',
        met: rss <= 200,
        id: 'import.rss',
      },
    ];
  } finally {
    rmSync(dirname(home), { recursive: true, force: true });
  }
}

export async function runImportBench(): Promise<void> {
  report(await importThroughput());
}
