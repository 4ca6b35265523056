// Small helpers for benchmarks: medians and percentiles over repeated measurements, printed
// side by side with the floor measured in the same run.
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../source/store/database.js';
import { tempHome } from '../support/cli.js';

export const median = (values: number[]): number => percentile(values, 50);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function timeMs(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function timeMsAsync(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Wall time of a whole child process, stdin given. */
export function timeProcess(
  command: string,
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { input, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

export interface Figure {
  name: string;
  value: string;
  floor?: string;
  ratio?: number;
  target: string;
  /** MET or MISS against a bound the figure can miss; null for a figure only reported (printed INFO, never MET). */
  met: boolean | null;
  /**
   * A name that stays the same from run to run, for figures the ratio guard keeps (guard.ts): set
   * only where `ratio` is the figure against its same-run floor.
   */
  id?: string;
  /** Which way the ratio improves: 'lower' for a time against a floor's time, 'higher' for a rate against a floor's rate. */
  better?: 'higher' | 'lower';
}

export function report(figures: Figure[]): void {
  for (const figure of figures) {
    const ratio = figure.ratio === undefined ? '' : `  ratio ${figure.ratio.toFixed(2)}`;
    const floor = figure.floor ? `  floor ${figure.floor}` : '';
    const verdict = figure.met === null ? 'INFO' : figure.met ? 'MET ' : 'MISS';
    process.stdout.write(
      `${verdict}  ${figure.name}: ${figure.value}${floor}${ratio}  (${figure.met === null ? '' : 'target '}${figure.target})\n`,
    );
  }
}

/** The floor for durable writes: single-row transactions (same pragmas as the stores), each committed on its own. */
export function rawCommitsPerSecond(count: number, payload: (i: number) => string): number {
  const dir = tempHome('bench-raw');
  mkdirSync(dir, { recursive: true });
  const db = openDatabase(join(dir, 'raw.sqlite'));
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (payload) VALUES (?)');
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) db.transaction(() => insert.run(payload(i))).immediate();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  db.close();
  return count / seconds;
}

/**
 * The hook floor: a CommonJS script (the cheapest way Node starts) that opens better-sqlite3, makes
 * one durable insert of its stdin and exits. Returns its path; run it with timeProcess beside the hook.
 */
export function hookFloorScript(): string {
  const dir = tempHome('bench-floor');
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'floor.sqlite');
  const setup = new Database(db);
  setup.pragma('journal_mode = WAL');
  setup.exec('CREATE TABLE inbox (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
  setup.close();
  const script = join(dir, 'floor.cjs');
  const sqlitePath = new URL('../../node_modules/better-sqlite3/lib/index.js', import.meta.url).pathname;
  writeFileSync(
    script,
    `const Database = require(${JSON.stringify(sqlitePath)}); const { readFileSync } = require('node:fs');
     const input = readFileSync(0, 'utf8');
     const db = new Database(${JSON.stringify(db)}); db.pragma('synchronous = FULL');
     db.transaction(() => db.prepare('INSERT INTO inbox (payload) VALUES (?)').run(input)).immediate(); db.close();`,
  );
  return script;
}

/** The environment a hook's node runs in: the installed command starts it without NODE_EXTRA_CA_CERTS (hook-config.ts). */
function hookProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, ...rest } = env;
  return rest;
}

export interface HookTimes {
  /** The installed command line, through /bin/sh, exactly as a host runs it. */
  hook: number[];
  /** hookFloorScript in the environment the hook's node gets. */
  floor: number[];
  /** The same floor in this process's environment as it is (reported when it differs). */
  floorAsIs: number[] | null;
}

/** Times the installed hook command for `home` beside the floor, alternating, after one warm-up run that creates the store. */
export function timeHookAgainstFloor(
  command: string,
  payload: (i: number) => string,
  runs: number,
  env: NodeJS.ProcessEnv,
  /** Run, untimed, before each timed hook run: a bench that changes files between sessions. */
  beforeHook?: (i: number) => void,
): HookTimes {
  const floorScript = hookFloorScript();
  const asIs = env['NODE_EXTRA_CA_CERTS'] ? env : null;
  timeProcess('/bin/sh', ['-c', command], payload(0), env);
  const times: HookTimes = { hook: [], floor: [], floorAsIs: asIs ? [] : null };
  for (let i = 1; i <= runs; i++) {
    beforeHook?.(i);
    times.hook.push(timeProcess('/bin/sh', ['-c', command], payload(i), env));
    times.floor.push(timeProcess(process.execPath, [floorScript], payload(i), hookProcessEnv(env)));
    if (asIs) times.floorAsIs!.push(timeProcess(process.execPath, [floorScript], payload(i), asIs));
  }
  return times;
}

/** The figures every hook timing prints: the ratio, the absolute target, and the floor as this environment would have it. */
export function hookFigures(name: string, times: HookTimes, id?: string): Figure[] {
  const hook = median(times.hook);
  const floor = median(times.floor);
  const figures: Figure[] = [
    {
      name: `${name}, the installed command through sh, whole process (median)`,
      value: `${hook.toFixed(1)} ms`,
      floor: `${floor.toFixed(1)} ms`,
      ratio: hook / floor,
      target: 'ratio <= 1.5',
      met: hook / floor <= 1.5,
      ...(id === undefined ? {} : { id, better: 'lower' as const }),
    },
    { name: `${name}, absolute (median)`, value: `${hook.toFixed(1)} ms`, target: '<= 120 ms', met: hook <= 120 },
  ];
  if (times.floorAsIs) {
    figures.push({
      name: `the floor with this environment's NODE_EXTRA_CA_CERTS, which the installed command drops`,
      value: `${median(times.floorAsIs).toFixed(1)} ms`,
      target: 'reported, no bound',
      met: null,
    });
  }
  return figures;
}

/**
 * The JSONL floor: read the file in 1 MiB chunks, split each on LF and JSON.parse every line — what
 * any JSONL reader pays, written as cheaply as Node allows (no stream, no string split). Returns
 * the number of lines.
 */
export function rawChunkedJsonParse(path: string): number {
  const fd = openSync(path, 'r');
  let buf = Buffer.allocUnsafe(1024 * 1024);
  let filled = 0;
  let lines = 0;
  try {
    for (;;) {
      if (filled === buf.length) {
        const grown = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(grown, 0, 0, filled);
        buf = grown;
      }
      const read = readSync(fd, buf, filled, buf.length - filled, null);
      if (read === 0) break;
      filled += read;
      let from = 0;
      for (let end = buf.indexOf(10, from); end !== -1 && end < filled; end = buf.indexOf(10, from)) {
        JSON.parse(buf.toString('utf8', from, end));
        lines += 1;
        from = end + 1;
      }
      buf.copy(buf, 0, from, filled);
      filled -= from;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}
