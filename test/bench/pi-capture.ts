// The pi extension's cost and its exactly-once capture, with the real pi 0.73.1 in RPC mode against
// the fake model server (same prompts, same instant replies):
// - added latency per interaction (prompt sent → agent_end) of pi with the extension installed by
//   `common-memory install pi` against pi without it, median and p95, the two run alternately;
// - events captured against events pi emitted over CM_BENCH_PI_N interactions (default 1,000): the
//   inbox must hold each one exactly once (0 lost, 0 duplicated) and the drain one settled turn,
//   with its prompt as evidence, per interaction;
// - the two capture channels: the direct append in pi's process (what the extension uses) and a
//   `common-memory hook pi` child per event (its fallback), per event and per interaction.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { runCli, tempHome, BIN } from '../support/cli.js';
import { startFakeOpenAiServer, textReply } from '../support/fake-openai-server.js';
import { makePiAgentDir, type PiAgentDir } from '../support/pi-agent-dir.js';
import { RpcPi } from '../support/pi-scenario.js';
import { median, percentile, report, timeMs, type Figure } from './measure.js';

const N = Number(process.env['CM_BENCH_PI_N'] ?? 1000);
/** Interactions through the child channel: one node process per event makes each one slow. */
const CHILD_N = Number(process.env['CM_BENCH_PI_CHILD_N'] ?? 40);
const EVENTS_PER_CHANNEL_SAMPLE = 200;
const HOOK = join(BIN, '..', '..', 'dist', 'hook.cjs');

/** One interaction: the prompt's send until its agent_end, in ms (a busy pi is asked again). */
async function interaction(pi: RpcPi, message: string): Promise<number> {
  for (;;) {
    const from = pi.events.length;
    const id = `p${from}`;
    const start = process.hrtime.bigint();
    pi.send({ type: 'prompt', id, message });
    const answered = await pi.waitEvent(`the response to ${id}`, (e) => e['id'] === id, from);
    if (pi.events[answered]!['success'] !== true) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      continue;
    }
    await pi.waitEvent(`agent_end of ${id}`, (e) => e['type'] === 'agent_end', answered);
    return Number(process.hrtime.bigint() - start) / 1e6;
  }
}

const stats = (samples: number[]) => ({ p50: median(samples), p95: percentile(samples, 95) });
const ms = (value: number) => `${value.toFixed(1)} ms`;

function emittedCounts(pi: RpcPi): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of pi.events) {
    const type = String(event['type']);
    if (type === 'agent_start' || type === 'agent_end' || type === 'message_end')
      counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

function capturedCounts(home: string): { counts: Record<string, number>; duplicates: number } {
  const db = new Database(join(home, 'core.sqlite'), { readonly: true });
  try {
    const counts: Record<string, number> = {};
    for (const row of db
      .prepare("SELECT event, count(*) AS n FROM inbox WHERE client = 'pi' GROUP BY event")
      .all() as Array<{
      event: string;
      n: number;
    }>)
      counts[row.event] = row.n;
    // A duplicate is the same bytes kept twice (every message_end line carries pi's timestamp).
    const duplicates = (
      db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT group_concat(hex(bytes), '') AS line FROM
             (SELECT inbox_id, bytes FROM inbox_tails ORDER BY inbox_id, seq) GROUP BY inbox_id)
           WHERE line LIKE '%6D6573736167655F656E64%' GROUP BY line HAVING count(*) > 1`,
        )
        .all() as unknown[]
    ).length;
    return { counts, duplicates };
  } finally {
    db.close();
  }
}

async function installed(baseUrl: string): Promise<{ dir: PiAgentDir; home: string; env: NodeJS.ProcessEnv }> {
  const dir = makePiAgentDir({ baseUrl });
  const home = join(dir.dir, '..', 'home');
  const done = await runCli(['install', 'pi', '--pi-dir', dir.dir], {
    env: { COMMON_MEMORY_HOME: '', PI_CODING_AGENT_DIR: '' },
  });
  if (done.code !== 0) throw new Error(`install pi failed: ${done.stderr}`);
  return { dir, home, env: { ...dir.env, COMMON_MEMORY_HOME: home } };
}

/** Per-event cost of each channel alone: capturePiEvent in one process, and a `hook pi` child per event. */
function channelPerEvent(): { direct: number[]; child: number[] } {
  const event = (i: number) =>
    JSON.stringify({
      hook_event_name: 'message_end',
      session_id: 'bench',
      cwd: '/w',
      record: {
        type: 'message_end',
        message: { role: 'assistant', content: [{ type: 'text', text: `a${i}` }], stopReason: 'stop' },
      },
    });
  const home = tempHome('bench-pi-channel');
  try {
    const payloads = Array.from({ length: EVENTS_PER_CHANNEL_SAMPLE }, (_, i) => event(i));
    const script = `const h = require(${JSON.stringify(HOOK)}); const out = [];
      for (const p of JSON.parse(require('node:fs').readFileSync(0, 'utf8'))) {
        const t = process.hrtime.bigint();
        if (!h.capturePiEvent('pi:bench', p, ${JSON.stringify(BIN)})) throw new Error('not kept');
        out.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      console.log(JSON.stringify(out));`;
    const direct = JSON.parse(
      execFileSync(process.execPath, ['-e', script], {
        input: JSON.stringify(payloads),
        env: { ...process.env, COMMON_MEMORY_HOME: home },
        encoding: 'utf8',
      }),
    ) as number[];
    const child: number[] = [];
    for (let i = 0; i < EVENTS_PER_CHANNEL_SAMPLE / 4; i++)
      child.push(
        timeMs(() =>
          execFileSync(process.execPath, [BIN, 'hook', 'pi', '--instance', 'pi:bench-child'], {
            input: event(i),
            env: { ...process.env, COMMON_MEMORY_HOME: home },
          }),
        ),
      );
    return { direct: direct.slice(5), child: child.slice(2) };
  } finally {
    rmSync(join(home, '..'), { recursive: true, force: true });
  }
}

export async function runPiCaptureBench(): Promise<Figure[]> {
  const load = loadavg()[0]!.toFixed(1);
  const server = await startFakeOpenAiServer({
    responder: () => textReply('ok', 1),
    maxRequests: 2 * N + CHILD_N + 100,
    lifetimeMs: 3_600_000,
  });
  const bareDir = makePiAgentDir({ baseUrl: server.baseUrl });
  const withExt = await installed(server.baseUrl);
  const childExt = await installed(server.baseUrl);
  const args = ['--no-session', '--no-tools'];
  const bare = new RpcPi(args, { env: bareDir.env, cwd: bareDir.cwd });
  const ext = new RpcPi(args, { env: withExt.env, cwd: withExt.dir.cwd });
  const child = new RpcPi(args, {
    env: { ...childExt.env, COMMON_MEMORY_PI_CHANNEL: 'child' },
    cwd: childExt.dir.cwd,
  });
  try {
    // Warm both (module loading, the store's creation) before timing.
    for (let i = 0; i < 3; i++) {
      await interaction(bare, `warm ${i}`);
      await interaction(ext, `warm ${i}`);
      await interaction(child, `warm ${i}`);
    }
    const bareMs: number[] = [];
    const extMs: number[] = [];
    for (let i = 0; i < N; i++) {
      bareMs.push(await interaction(bare, `prompt number ${i}`));
      extMs.push(await interaction(ext, `prompt number ${i}`));
    }
    const childMs: number[] = [];
    for (let i = 0; i < CHILD_N; i++) childMs.push(await interaction(child, `child prompt ${i}`));
    await ext.close();
    await bare.close();
    await child.close();

    const emitted = emittedCounts(ext);
    const { counts, duplicates } = capturedCounts(withExt.home);
    const lost = ['agent_start', 'agent_end', 'message_end']
      .map((type) => Math.max(0, (emitted[type] ?? 0) - (counts[type] ?? 0)))
      .reduce((a, b) => a + b, 0);
    const extra = ['agent_start', 'agent_end', 'message_end']
      .map((type) => Math.max(0, (counts[type] ?? 0) - (emitted[type] ?? 0)))
      .reduce((a, b) => a + b, 0);
    const inputs = counts['input'] ?? 0;
    const drained = await runCli(['--json', '--home', withExt.home, 'session-drain']);
    const view = JSON.parse((await runCli(['--json', '--home', withExt.home, 'status'])).stdout) as {
      sessions: Array<{ turns: { settled: number } }>;
      recovery: { total: number };
    };
    const db = new Database(join(withExt.home, 'core.sqlite'), { readonly: true });
    const evidence = db
      .prepare("SELECT body, count(*) AS n FROM capture_messages WHERE classification = 'evidence' GROUP BY body")
      .all() as Array<{ body: string; n: number }>;
    db.close();
    const interactions = N + 3;
    const evidenceOnce = evidence.length === interactions && evidence.every((e) => e.n === 1);
    const settled = view.sessions[0]?.turns.settled ?? 0;

    const b = stats(bareMs);
    const e = stats(extMs);
    const c = stats(childMs);
    const perEvent = channelPerEvent();
    const d1 = stats(perEvent.direct);
    const c1 = stats(perEvent.child);
    const figures: Figure[] = [
      {
        name: `pi interaction with the extension (direct channel), ${N} interactions, load ${load}`,
        value: `p50 ${ms(e.p50)} p95 ${ms(e.p95)}; added p50 ${ms(e.p50 - b.p50)} p95 ${ms(e.p95 - b.p95)}`,
        floor: `pi without it p50 ${ms(b.p50)} p95 ${ms(b.p95)}`,
        ratio: e.p50 / b.p50,
        target: 'reported',
        met: null,
      },
      {
        name: `events captured vs emitted over ${interactions} interactions`,
        value: `emitted ${JSON.stringify(emitted)} + ${interactions} inputs; captured ${JSON.stringify(counts)}; lost ${lost}, extra ${extra}, duplicated ${duplicates}; drain ${drained.code === 0 ? 'ok' : 'FAILED'}: ${settled} settled turns, ${evidence.length} evidence prompts${evidenceOnce ? ' each once' : ' NOT each once'}, ${view.recovery.total} recovery items`,
        target: '0 lost, 0 duplicated, one settled turn with its prompt once per interaction',
        met:
          lost === 0 &&
          extra === 0 &&
          duplicates === 0 &&
          inputs === interactions &&
          settled === interactions &&
          evidenceOnce &&
          view.recovery.total === 0,
      },
      {
        name: `pi interaction with the child channel (a \`hook pi\` child per event), ${CHILD_N} interactions`,
        value: `p50 ${ms(c.p50)} p95 ${ms(c.p95)}; added p50 ${ms(c.p50 - b.p50)}`,
        floor: `pi without it p50 ${ms(b.p50)}`,
        ratio: c.p50 / b.p50,
        target: 'reported',
        met: null,
      },
      {
        name: 'one event, direct append in the caller’s process',
        value: `p50 ${ms(d1.p50)} p95 ${ms(d1.p95)}`,
        target: 'reported',
        met: null,
      },
      {
        name: 'one event, a `common-memory hook pi` child',
        value: `p50 ${ms(c1.p50)} p95 ${ms(c1.p95)}`,
        floor: `direct p50 ${ms(d1.p50)}`,
        ratio: c1.p50 / d1.p50,
        target: 'reported',
        met: null,
      },
    ];
    report(figures);
    return figures;
  } finally {
    await server.close();
    bareDir.cleanup();
    withExt.dir.cleanup();
    childExt.dir.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runPiCaptureBench();
