// Capture figures, each beside its floor in the same run:
//  1. the real hook (UserPromptSubmit with a transcript tail), whole process, run as the host runs
//     it (the installed command through sh), against node + better-sqlite3 + one durable insert in
//     the environment the hook's node gets;
//  2. 16 concurrent hook processes x N events (CM_BENCH_HOOK_EVENTS, default 200): lost,
//     duplicated, busy errors, p99 per hook;
//  3. the drain of a ~100 MB rollout built from recorded records (CM_BENCH_ROLLOUT_MB), in a
//     compiled child process, warm (a running host that has drained a CM_BENCH_WARMUP_MB session,
//     default 16) and cold (the store opened as session-drain opens it, then its first call), and
//     the whole session-drain command: MB/s against a raw chunked split + JSON.parse of the same
//     file, and peak RSS;
//  4. status with 10k recovery items: the last full page against the first.
import { ledgerStatusAt } from '../../source/store/ledger/ledger-status.js';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { storeTail } from '../../source/store/core/inbox-writes.js';
import { textDigest } from '../../source/ground/digests.js';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { hookCommand } from '../../source/hosts/hook-config.js';
import { readCaptureStatus } from '../../source/store/core/capture-reads.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { RECOVERY_PAGE_SIZE } from '../../source/limits.js';
import { BIN, tempHome } from '../support/cli.js';
import { seedRecoveryItems } from '../support/recovery-seed.js';
import {
  type Figure,
  hookFigures,
  median,
  percentile,
  rawChunkedJsonParse,
  report,
  timeHookAgainstFloor,
  timeMs,
} from './measure.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
const HOOK_B = join(FIXTURES, 'codex/hooks/b');
const ROLLOUT_B = join(FIXTURES, 'codex/rollouts/b-tool-call-exec-command.jsonl');

function promptPayload(transcript: string, session: string, turn: string): string {
  const value = JSON.parse(readFileSync(join(HOOK_B, '02-UserPromptSubmit.json'), 'utf8')) as Record<string, unknown>;
  return JSON.stringify({ ...value, transcript_path: transcript, session_id: session, turn_id: turn });
}

function hookWholeProcess(): Figure[] {
  const home = tempHome('bench-cap-hook');
  mkdirSync(home, { recursive: true });
  const transcript = join(home, '..', 'rollout.jsonl');
  writeFileSync(transcript, readFileSync(ROLLOUT_B));
  const times = timeHookAgainstFloor(hookCommand('codex', home), (i) => promptPayload(transcript, 's', `t${i}`), 15, {
    ...process.env,
    [INSTANCE_ENV]: 'bench',
  });
  return hookFigures('hook UserPromptSubmit + tail', times);
}

function runHook(
  home: string,
  payload: string,
  instance: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ ms: number; code: number | null }> {
  const start = process.hrtime.bigint();
  const child = spawn('/bin/sh', ['-c', hookCommand('codex', home)], {
    env: { ...process.env, [INSTANCE_ENV]: instance, ...extraEnv },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end(payload);
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code })),
  );
}

async function concurrentHooks(): Promise<Figure[]> {
  const events = Number(process.env['CM_BENCH_HOOK_EVENTS'] ?? 200);
  const home = tempHome('bench-cap-race');
  // Where each hook's time goes (hook-phases.cjs, preloaded into every hook process).
  const phasesFile = join(home, '..', 'hook-phases.jsonl');
  const phasesEnv = {
    NODE_OPTIONS: `--require ${new URL('./hook-phases.cjs', import.meta.url).pathname}`,
    CM_BENCH_HOOK_PHASES_FILE: phasesFile,
  };
  const times: number[] = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: 16 }, async (_, lane) => {
      for (let i = 0; i < events; i++) {
        const result = await runHook(
          home,
          promptPayload(`/nonexistent/rollout-${lane}.jsonl`, `lane-${lane}`, `turn-${i}`),
          `lane-${lane}`,
          phasesEnv,
        );
        times.push(result.ms);
        if (result.code !== 0) failures += 1;
      }
    }),
  );
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  const kept = db.prepare('SELECT count(*) FROM inbox').pluck().get() as number;
  const distinct = db
    .prepare('SELECT count(DISTINCT host_session_id || turn_ref) FROM prompt_candidates')
    .pluck()
    .get() as number;
  db.close();
  const errorsPath = storeFiles(home).hookErrors;
  const busy = existsSync(errorsPath) ? readFileSync(errorsPath, 'utf8').trim().split('\n').length : 0;
  const total = 16 * events;
  return [
    ...hookPhaseFigures(phasesFile),
    {
      name: `16 concurrent hooks x ${events} events`,
      value: `${kept} kept, ${total - distinct} duplicated/lost candidates, ${busy} hook errors, ${failures} non-zero exits`,
      target: '0 lost, 0 duplicated, 0 busy',
      met: kept === total && distinct === total && busy === 0 && failures === 0,
    },
    {
      name: 'hook under 16-way concurrency (p99)',
      value: `${percentile(times, 99).toFixed(1)} ms (median ${median(times).toFixed(1)} ms)`,
      target: 'reported, no bound',
      met: null,
    },
  ];
}

/** Medians and p99s of where the concurrent hooks' time went (hook-phases.cjs). */
function hookPhaseFigures(path: string): Figure[] {
  const rows = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          startMs: number;
          beginAtMs: number | null;
          lockMs: number;
          workMs: number;
          commitMs: number;
          exitAtMs: number;
        },
    )
    .filter((row) => row.beginAtMs !== null);
  const phase = (name: string, values: number[]) =>
    `${name} ${median(values).toFixed(1)} / ${percentile(values, 99).toFixed(1)}`;
  return [
    {
      name: `where a hook's time goes under 16-way concurrency, median / p99 ms over ${rows.length} hooks (in-process, from node's start; the spawn and sh are the rest of the wall time)`,
      value: [
        phase(
          'node start',
          rows.map((r) => r.startMs),
        ),
        phase(
          'load + prepare',
          rows.map((r) => r.beginAtMs! - r.startMs),
        ),
        phase(
          'lock wait',
          rows.map((r) => r.lockMs),
        ),
        phase(
          'transaction',
          rows.map((r) => r.workMs),
        ),
        phase(
          'commit (fsync)',
          rows.map((r) => r.commitMs),
        ),
        phase(
          'reply + exit',
          rows.map((r) => r.exitAtMs - r.beginAtMs! - r.lockMs - r.workMs - r.commitMs),
        ),
      ].join(', '),
      target: 'reported, no bound',
      met: null,
    },
  ];
}

/**
 * A rollout of about `mb` MB: session_meta, then the recorded tool turn again and again with fresh
 * turn ids and ordinals. `session` replaces the recorded thread id (two sessions in one store).
 */
export function buildRollout(path: string, mb: number, session?: string): { turns: number; prompt: string } {
  const lines = readFileSync(ROLLOUT_B, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const recorded = (JSON.parse(lines[0]!) as { payload: { id: string } }).payload.id;
  const meta = session === undefined ? lines[0]! : lines[0]!.split(recorded).join(session);
  const firstTurn = lines.findIndex((line) => line.includes('"task_started"'));
  const lastTurn = lines.findIndex((line) => line.includes('"task_complete"'));
  const block = lines.slice(firstTurn, lastTurn + 1);
  const turnId = (JSON.parse(block[0]!) as { payload: { turn_id: string } }).payload.turn_id;
  const prompt = 'TOOL: run echo hi';
  const out: string[] = [meta];
  let ordinal = 1;
  let turns = 0;
  let bytes = meta.length;
  while (bytes < mb * 1024 * 1024) {
    const id = `bench-turn-${turns}`;
    for (const line of block) {
      const text = line
        .split(turnId)
        .join(id)
        .replace(/"ordinal":\d+/, `"ordinal":${ordinal++}`)
        .replace(/"id":"(msg|rs|fc)_[^"]*"/g, (_m, p: string) => `"id":"${p}_${turns}_${ordinal}"`);
      out.push(text);
      bytes += text.length + 1;
    }
    turns += 1;
    if (out.length > 20000) {
      writeFileSync(path, `${out.join('\n')}\n`, { flag: turns === 0 ? 'w' : 'a' });
      out.length = 0;
    }
  }
  if (out.length > 0) writeFileSync(path, `${out.join('\n')}\n`, { flag: 'a' });
  return { turns, prompt };
}

/**
 * A store holding what the hooks of one long Codex session would have written, for the drain to
 * process. `ids` places its rows (watch, activation, candidates, envelopes) from that id on, and
 * `session` names the session, so two such stores can be merged into one.
 */
export function prepareDrainStore(
  mb: number,
  { ids = 1, session }: { ids?: number; session?: string } = {},
): { home: string; rollout: string; size: number; turns: number } {
  const home = tempHome('bench-cap-drain');
  mkdirSync(home, { recursive: true });
  const rollout = join(home, '..', 'rollout-bench.jsonl');
  writeFileSync(rollout, '');
  const { turns, prompt } = buildRollout(rollout, mb, session);
  const size = statSync(rollout).size;
  // The hooks' side, written directly: one activation, its watch, a candidate per turn and the
  // rollout as a chain of envelopes with tails of at most 1 MiB ending at line ends. (A hook copies
  // what the transcript grew since the last event, a turn or so: here about 16 KB.)
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  const hostSession = (
    JSON.parse(readFileSync(rollout, 'utf8').slice(0, 4096).split('\n')[0]!) as { payload: { id: string } }
  ).payload.id;
  db.transaction(() => {
    // The first row of each table takes the given id; the rest follow it.
    const watch = db
      .prepare(
        "INSERT INTO capture_watches (watch_id, client, transcript_path, host_session_id, captured_bytes) VALUES (?, 'codex', ?, ?, ?)",
      )
      .run(ids, rollout, hostSession, size).lastInsertRowid;
    const activation = db
      .prepare(
        "INSERT INTO capture_activations (activation_id, session_key, client, process_instance, host_session_id, ordinal, state, watch_id, started_at_ms) VALUES (?, ?, 'codex', 'bench', ?, 1, 'ended', ?, 0)",
      )
      .run(ids, `bench-${ids}`, hostSession, watch).lastInsertRowid;
    db.prepare(
      "INSERT INTO inbox (id, client, event, received_at_ms, payload, state) VALUES (?, 'codex', 'placeholder', 0, '{}', 'processed')",
    ).run(ids - 1);
    db.prepare(
      "INSERT INTO prompt_candidates (candidate_id, activation_id, client, host_session_id, turn_ref, digest, inbox_id, state) VALUES (?, ?, 'codex', '', '', '', ?, 'delivered')",
    ).run(ids - 1, activation, ids - 1);
    const candidate = db.prepare(
      "INSERT INTO prompt_candidates (activation_id, client, host_session_id, turn_ref, digest, body, inbox_id, state) VALUES (?, 'codex', ?, ?, ?, ?, ?, 'pending')",
    );
    const inbox = db.prepare(
      "INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id, process_instance, watch_id, tail_state, tail_from, tail_to) VALUES ('codex', ?, 0, '{}', 'pending', ?, ?, 'bench', ?, ?, ?, ?)",
    );
    const first = inbox.run('SessionStart', activation, hostSession, watch, 'none', null, null).lastInsertRowid;
    for (let i = 0; i < turns; i++)
      candidate.run(activation, hostSession, `bench-turn-${i}`, textDigest(prompt), prompt, first);
    const file = readFileSync(rollout);
    let from = 0;
    while (from < file.length) {
      const end = Math.min(file.length, from + 1024 * 1024);
      const to = end === file.length ? end : file.subarray(from, end).lastIndexOf(0x0a) + from + 1;
      storeTail(
        db,
        Number(inbox.run('Stop', activation, hostSession, watch, 'captured', from, to).lastInsertRowid),
        file.subarray(from, to),
      );
      from = to;
    }
    inbox.run('SessionEnd', activation, hostSession, watch, 'none', null, null);
    // The placeholders only fixed where the ids start.
    db.prepare('DELETE FROM prompt_candidates WHERE candidate_id = ?').run(ids - 1);
    db.prepare('DELETE FROM inbox WHERE id = ?').run(ids - 1);
  })();
  db.close();
  return { home, rollout, size, turns };
}

/**
 * The drain, in a compiled child process holding the store as `session-drain` does. Warm: a host
 * that has been running — its drain thread started and its code optimised by draining a smaller
 * session — when the 100 MB backlog arrives (copied in from `backlog`, as hooks would write it),
 * then drains it. Cold: a store opened as `common-memory session-drain` without a host opens it (its
 * drain thread starts with its writer), then its first drain call. Both have the same target: a
 * person's first `session-drain` is a cold run.
 */
function drainChild(
  home: string,
  size: number,
  backlog: string | null,
): { ms: number; sealed: number; isolated: number; rssMb: number } {
  const child = join(home, '..', 'drain-child.mjs');
  writeFileSync(
    child,
    `import { createRequire } from 'node:module';
     const Database = createRequire(import.meta.url)(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
     const { Host } = await import(${JSON.stringify(new URL('../../dist/host/host.js', import.meta.url).pathname)});
     const [home, core, backlog] = process.argv.slice(2);
     const host = await Host.start({ home, serve: false, drain: !backlog });
     if (backlog) {
       const warmup = await host.application.sessionDrain({});
       if (warmup.sealedTurns === 0 || warmup.isolated.length > 0) throw new Error('the warm-up session did not drain');
       const db = new Database(core);
       db.exec("ATTACH DATABASE '" + backlog.replaceAll("'", "''") + "' AS backlog");
       db.transaction(() => { for (const table of ['capture_watches', 'capture_activations', 'inbox', 'inbox_tails', 'prompt_candidates']) db.exec('INSERT INTO main.' + table + ' SELECT * FROM backlog.' + table); })();
       db.exec('DETACH DATABASE backlog');
       // The drain starts from a checkpointed store, as the cold run does.
       if (db.pragma('wal_checkpoint(TRUNCATE)')[0].busy !== 0) throw new Error('could not checkpoint the backlog');
       db.close();
     }
     const start = process.hrtime.bigint();
     const report = await host.application.sessionDrain({});
     let ms = Number(process.hrtime.bigint() - start) / 1e6;
     // The ratio guard's own test plants a slowdown: as long again, spent spinning, as the drain took.
     if (process.env.CM_BENCH_PLANTED_DRAIN_SLOWDOWN === '2') { const until = performance.now() + ms; while (performance.now() < until); ms *= 2; }
     await host.stop();
     process.stdout.write(JSON.stringify({ ms, report, maxRssKb: process.resourceUsage().maxRSS }));`,
  );
  // CM_BENCH_DRAIN_PROF=<dir>: every thread of each child writes a CPU profile under <dir>/<run>.
  const profile = process.env['CM_BENCH_DRAIN_PROF'];
  const profiling = profile
    ? ['--cpu-prof', `--cpu-prof-dir=${join(profile, `${backlog ? 'warm' : 'cold'}-${Date.now()}`)}`]
    : [];
  const args = [...profiling, child, home, storeFiles(home).core, ...(backlog ? [backlog] : [])];
  const result = spawnSync(process.execPath, args, {
    env: { ...process.env, COMMON_MEMORY_CAPACITY_BYTES: `${4 * size}:${8 * size}` },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`drain child failed: ${result.stderr}`);
  const { ms, report, maxRssKb } = JSON.parse(result.stdout) as {
    ms: number;
    report: { sealedTurns: number; isolated: string[] };
    maxRssKb: number;
  };
  return { ms, sealed: report.sealedTurns, isolated: report.isolated.length, rssMb: maxRssKb / 1024 };
}

/** `common-memory session-drain --json` as a person runs it, on a copy of the backlog, timed whole. */
function sessionDrainCommand(backlog: string, size: number): { ms: number; sealed: number } {
  const copy = `${backlog}-command`;
  cpSync(backlog, copy, { recursive: true });
  try {
    const start = performance.now();
    const result = spawnSync(process.execPath, [BIN, 'session-drain', '--json', '--home', copy], {
      env: { ...process.env, COMMON_MEMORY_CAPACITY_BYTES: `${4 * size}:${8 * size}` },
      encoding: 'utf8',
    });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`session-drain failed: ${result.stderr}`);
    return { ms, sealed: (JSON.parse(result.stdout) as { sealedTurns: number }).sealedTurns };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Runs of each kind, alternating (warm, cold, the whole command, each on a fresh copy of the
 * stores, the floor beside each); each figure is the median of its runs. One cold sample moved by
 * a tenth between runs on a shared machine.
 */
const DRAIN_RUNS = Number(process.env['CM_BENCH_DRAIN_RUNS'] ?? 3);

/** The warm-up session (CM_BENCH_WARMUP_MB): a few drain steps, enough for V8 to optimise the drain's code. */
const WARMUP_MB = Number(process.env['CM_BENCH_WARMUP_MB'] ?? 16);

/** Where the backlog's rows start, clear of the warm-up session's. */
const BACKLOG_IDS = 1_000_000;

export function drainThroughput(): Figure[] {
  const mb = Number(process.env['CM_BENCH_ROLLOUT_MB'] ?? 100);
  const { home: backlog, rollout, size, turns } = prepareDrainStore(mb, { ids: BACKLOG_IDS });
  const warmup = prepareDrainStore(WARMUP_MB, { session: '00000000-0000-7000-8000-00000000beef' });
  const sizeMb = size / 1024 / 1024;
  const rate = (ms: number) => sizeMb / (ms / 1000);
  const warm: Array<ReturnType<typeof drainChild>> = [];
  const raw: number[] = [];
  const cold: Array<ReturnType<typeof drainChild>> = [];
  const command: Array<{ ms: number; sealed: number }> = [];
  try {
    for (let i = 0; i < DRAIN_RUNS; i++) {
      const copy = `${warmup.home}-warm-${i}`;
      cpSync(warmup.home, copy, { recursive: true });
      const backlogCopy = `${backlog}-warm-${i}`;
      cpSync(backlog, backlogCopy, { recursive: true });
      raw.push(rate(timeMs(() => rawChunkedJsonParse(rollout))));
      warm.push(drainChild(copy, size, storeFiles(backlogCopy).core));
      rmSync(backlogCopy, { recursive: true });
      command.push(sessionDrainCommand(backlog, size));
      const coldCopy = `${backlog}-cold-${i}`;
      cpSync(backlog, coldCopy, { recursive: true });
      cold.push(drainChild(coldCopy, size, null));
      rmSync(coldCopy, { recursive: true });
    }
  } finally {
    // Half a gigabyte per run: not left behind in the temporary directory.
    for (const home of [backlog, warmup.home]) rmSync(dirname(home), { recursive: true, force: true });
  }
  const rates = warm.map((run) => rate(run.ms));
  const sealed = warm.every((run) => run.sealed === turns && run.isolated === 0);
  const coldRates = cold.map((run) => rate(run.ms));
  const coldSealed = cold.every((run) => run.sealed === turns && run.isolated === 0);
  const coldMs = median(cold.map((run) => run.ms));
  const commandMs = median(command.map((run) => run.ms));
  const commandSealed = command.every((run) => run.sealed === turns);
  const rss = Math.max(...cold.map((run) => run.rssMb), ...warm.map((run) => run.rssMb));
  return [
    {
      name: `drain of a ${sizeMb.toFixed(0)} MB backlog by a running host, after it drained a ${WARMUP_MB} MB session (median of ${DRAIN_RUNS}: ${rates.map((r) => r.toFixed(0)).join(', ')} MB/s; every run ${sealed ? `sealed ${turns}/${turns} turns` : 'did NOT seal every turn'}; timed from the call to its report, excluding the host start, the warm-up drain and copying the backlog in)`,
      value: `${median(rates).toFixed(1)} MB/s`,
      floor: `${median(raw).toFixed(1)} MB/s raw chunked JSON.parse`,
      ratio: median(rates) / median(raw),
      target: '>= 100 MB/s and >= 0.5x the floor, every turn sealed',
      met: median(rates) >= 100 && median(rates) / median(raw) >= 0.5 && sealed,
      id: 'drain.warm',
      better: 'higher',
    },
    {
      name: `same, from cold: a store opened as session-drain without a host opens it, then its first drain call (median of ${DRAIN_RUNS}: ${coldRates.map((r) => r.toFixed(0)).join(', ')} MB/s; every run ${coldSealed ? `sealed ${turns}/${turns} turns` : 'did NOT seal every turn'}; timed from the call to its report, excluding the store's opening)`,
      value: `${rate(coldMs).toFixed(1)} MB/s (${coldMs.toFixed(0)} ms)`,
      floor: `${median(raw).toFixed(1)} MB/s raw chunked JSON.parse`,
      ratio: rate(coldMs) / median(raw),
      target: '>= 100 MB/s and >= 0.5x the floor, every turn sealed',
      met: rate(coldMs) >= 100 && rate(coldMs) / median(raw) >= 0.5 && coldSealed,
      id: 'drain.cold',
      better: 'higher',
    },
    {
      name: `same, the whole \`session-drain\` command on a copy of the backlog: node's start, opening the store, the drain (median of ${DRAIN_RUNS}; every run ${commandSealed ? `sealed ${turns}/${turns} turns` : 'did NOT seal every turn'})`,
      value: `${rate(commandMs).toFixed(1)} MB/s (${commandMs.toFixed(0)} ms)`,
      floor: `${median(raw).toFixed(1)} MB/s raw chunked JSON.parse`,
      ratio: rate(commandMs) / median(raw),
      target: 'reported beside the cold call: what a person waits for',
      met: null,
    },
    {
      name: 'drain peak RSS (whole child process, the largest of all runs)',
      value: `${rss.toFixed(0)} MB`,
      target: '<= 200 MB',
      met: rss <= 200,
      id: 'drain.rss',
    },
  ];
}

function statusPaging(): Figure {
  const home = tempHome('bench-cap-status');
  const count = 10_000;
  seedRecoveryItems(home, count);
  const reader = openDatabase(storeFiles(home).core, { readonly: true });
  const options = {
    storeId: 'bench',
    mode: 'read-only' as const,
    hookErrorsPath: storeFiles(home).hookErrors,
    ledger: () => ledgerStatusAt(storeFiles(home).ledger, storeFiles(home).ledgerHealth),
  };
  // The last full page (items count-19 … count) against the first: both pages of twenty.
  const lastAfter = `rec-${count - RECOVERY_PAGE_SIZE}`;
  const read = (afterRecovery: string | undefined) => readCaptureStatus(reader, { ...options, afterRecovery });
  const sizes = [read(undefined).recovery.items.length, read(lastAfter).recovery.items.length];
  if (sizes.some((size) => size !== RECOVERY_PAGE_SIZE))
    throw new Error(`status pages of ${sizes.join(' and ')} items, not two full pages`);
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < 15; i++) {
    first.push(timeMs(() => read(undefined)));
    last.push(timeMs(() => read(lastAfter)));
  }
  reader.close();
  const ratio = median(last) / median(first);
  return {
    name: `status with 10k recovery items, last full page (after ${lastAfter}) vs first, ${RECOVERY_PAGE_SIZE} items each (median of 15 reads; excludes seeding the store)`,
    value: `${median(last).toFixed(2)} ms`,
    floor: `${median(first).toFixed(2)} ms first page`,
    ratio,
    target: 'ratio <= 2',
    met: ratio <= 2,
  };
}

export async function runCaptureBench(): Promise<void> {
  const only = process.env['CM_BENCH_CAPTURE_ONLY'];
  const want = (name: string) => !only || only.split(',').includes(name);
  const figures: Figure[] = [];
  if (want('hook')) figures.push(...hookWholeProcess());
  if (want('status')) figures.push(statusPaging());
  if (want('drain')) figures.push(...drainThroughput());
  if (want('race')) figures.push(...(await concurrentHooks()));
  report(figures);
}
