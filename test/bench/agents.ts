// Driven-agent figures (pi RPC runtimes):
//  1. ingesting recorded pi stdout through the writer, each record its own durable transaction,
//     against raw single-row durable commits in the same run;
//  2. admission to first byte on pi's stdin (median ms);
//  3. host peak RSS with 4 agents streaming for a minute.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient } from '../../source/client/api-client.js';
import { storeFiles } from '../../source/home.js';
import { Host } from '../../source/host/host.js';
import type { Application } from '../../source/api/application.js';
import type { JournalRow } from '../../source/api/history.js';
import { WriterClient } from '../../source/workers/writer-client.js';
import { startHost, stopHost, tempHome, waitFor } from '../support/cli.js';
import { median, percentile, rawCommitsPerSecond, report, type Figure } from './measure.js';

const STUB = fileURLToPath(new URL('./stub-pi.mjs', import.meta.url));
const stubCommand = JSON.stringify({ command: process.execPath, args: [STUB] });

/** One recorded prompt segment (b-two-prompts, first prompt), its response id to be rewritten per prompt. */
function recordedSegment(): string[] {
  const lines = readFileSync(
    new URL('../../fixtures/pi/b-two-prompts-sequential.stdout.jsonl', import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter(Boolean);
  const end = lines.findIndex((line) => JSON.parse(line).type === 'agent_end');
  return lines.slice(0, end + 1);
}

/**
 * Records of one prompt go to the writer in wire order; `pipelined` sends them without waiting for
 * each reply (the writer still commits each in its own durable transaction, in order), which
 * measures the writer; one-at-a-time adds the thread round trip of a single agent's reader.
 */
async function ingestRecords(
  pipelined: boolean,
): Promise<{ perSecond: number; withLifecycle: number; records: number }> {
  const home = tempHome('bench-ingest');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const writer = await WriterClient.start(storeFiles(home).core);
  await writer.call('createAgent', { name: 'bench', operationId: 'create', agentsRoot: join(home, 'agents') });
  const generation = await writer.call('beginGeneration', {
    agent: 'bench',
    hostId: '00000000-0000-4000-8000-000000000000',
  });
  await writer.call('markGenerationRunning', { generationId: generation.generationId, pid: process.pid });
  const segment = recordedSegment();
  let ordinal = 0;
  let records = 0;
  let ingestNs = 0n;
  const start = process.hrtime.bigint();
  for (let prompt = 0; records < 10_000; prompt++) {
    const piRequestId = `prompt-${prompt}`;
    await writer.call('admitPrompt', {
      agent: 'bench',
      text: 'first prompt',
      operationId: `op-${prompt}`,
      piRequestId,
    });
    await writer.call('markAttempted', { operationId: `op-${prompt}` });
    const ingest = (line: string) => {
      const text = line.replace('"id":"p1"', `"id":"${piRequestId}"`);
      records++;
      return writer.call('ingestPiRecord', {
        generationId: generation.generationId,
        stream: 'stdout',
        ordinal: ++ordinal,
        frame: 'record',
        text,
        byteLength: Buffer.byteLength(text),
      });
    };
    const ingestStart = process.hrtime.bigint();
    if (pipelined) await Promise.all(segment.map(ingest));
    else for (const line of segment) await ingest(line);
    ingestNs += process.hrtime.bigint() - ingestStart;
    await writer.call('settlePrompt', { operationId: `op-${prompt}`, outcome: 'answered', detail: null });
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await writer.close();
  return { perSecond: records / (Number(ingestNs) / 1e9), withLifecycle: records / seconds, records };
}

async function ingestThroughput(): Promise<Figure[]> {
  const line = readFileSync(new URL('../../fixtures/pi/a-simple-prompt.stdout.jsonl', import.meta.url), 'utf8').split(
    '\n',
  )[5]!;
  const pipelined: number[] = [];
  const whole: number[] = [];
  const oneByOne: number[] = [];
  const raw: number[] = [];
  let records = 0;
  for (let round = 0; round < 3; round++) {
    const fast = await ingestRecords(true);
    records = fast.records;
    pipelined.push(fast.perSecond);
    whole.push(fast.withLifecycle);
    oneByOne.push((await ingestRecords(false)).perSecond);
    raw.push(rawCommitsPerSecond(3000, () => line));
  }
  const floor = `${median(raw).toFixed(0)} raw durable commits/s`;
  const ratio = median(pipelined) / median(raw);
  return [
    {
      name: `pi records ingested through the writer (${records} records, each its own durable transaction; median of 3)`,
      value: `${median(pipelined).toFixed(0)} records/s`,
      floor,
      ratio,
      target: 'ratio >= 0.5',
      met: ratio >= 0.5,
    },
    {
      name: "the same with each prompt's admission, attempt and settlement commits counted in the time",
      value: `${median(whole).toFixed(0)} records/s`,
      floor,
      ratio: median(whole) / median(raw),
      target: 'reported, no bound',
      met: null,
    },
    {
      name: "the same, one record at a time (one agent's reader waits for each commit)",
      value: `${median(oneByOne).toFixed(0)} records/s`,
      floor,
      ratio: median(oneByOne) / median(raw),
      target: 'reported, no bound',
      met: null,
    },
  ];
}

async function admissionToFirstByte(): Promise<Figure> {
  const home = tempHome('bench-admit');
  process.env['COMMON_MEMORY_PI_COMMAND'] = stubCommand;
  const host = await Host.start({ home, serve: true });
  const app: Application = host.application;
  await app.createAgent({ name: 'stub' });
  await app.startAgent({ agent: 'stub' });
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.timeOrigin + performance.now();
    await app.prompt({ agent: 'stub', text: `ping ${i}`, operationId: `op-${i}` });
    const response = await waitFor('prompt response', async () => {
      const rows = (await app.journal({ after: 0, limit: 100, agentId: (await app.listAgents())[0]!.agentId })).rows;
      const all: JournalRow[] = [...rows];
      for (let after = rows.at(-1)?.sequence ?? 0; ; ) {
        const page = await app.journal({ after, limit: 100 });
        if (page.rows.length === 0) break;
        all.push(...page.rows);
        after = page.nextAfter;
      }
      return all.find((row) => row.kind === 'pi.response' && row.operationId === `op-${i}`);
    });
    samples.push((response.payload as { data: { receivedAt: number } }).data.receivedAt - t0);
    await waitFor('settled', async () =>
      (await app.operation({ operationId: `op-${i}` })).state === 'settled' ? true : undefined,
    );
  }
  await host.stop();
  delete process.env['COMMON_MEMORY_PI_COMMAND'];
  return {
    name: 'admission to first byte on pi stdin (median of 40)',
    value: `${median(samples).toFixed(2)} ms (p95 ${percentile(samples, 95).toFixed(2)} ms)`,
    target: 'reported, no bound',
    met: null,
  };
}

async function memoryWithFourAgents(seconds: number): Promise<Figure> {
  const home = tempHome('bench-rss');
  const { child, info } = await startHost(home, {
    COMMON_MEMORY_PI_COMMAND: stubCommand,
    STUB_PI_STREAM_MS: String(seconds * 1000),
  });
  const hostInfo = JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8'));
  const client = apiClient(info.port, hostInfo.token);
  for (let i = 0; i < 4; i++) {
    await client.createAgent({ name: `s${i}` });
    await client.startAgent({ agent: `s${i}` });
  }
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${info.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const startRss = rss();
  await Promise.all(
    [0, 1, 2, 3].map((i) => client.prompt({ agent: `s${i}`, text: 'stream for a while', operationId: `op-${i}` })),
  );
  const samples: number[] = [];
  await waitFor(
    'all four settled',
    async () => {
      samples.push(rss());
      const ops = await Promise.all([0, 1, 2, 3].map((i) => client.operation({ operationId: `op-${i}` })));
      return ops.every((op) => op.state === 'settled') ? true : undefined;
    },
    seconds * 1000 + 60_000,
  );
  const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${info.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const head = (await client.status()).heads.journal;
  await stopHost(child);
  // Bounded means: under the host's 200 MB budget, and not growing with the rows streamed — the
  // second half of the stream (twice the rows) peaks at most 10% above the first half.
  const half = Math.floor(samples.length / 2);
  const firstHalf = Math.max(...samples.slice(0, half));
  const secondHalf = Math.max(...samples.slice(half));
  const bounded = peak <= 200 && secondHalf <= firstHalf * 1.1;
  return {
    name: `host RSS, 4 agents streaming ${seconds} s (${head} journal rows; sampled from /proc every poll, ${samples.length} samples)`,
    value: `peak ${peak.toFixed(0)} MB (start ${startRss.toFixed(0)} MB; first half of the stream peaks at ${firstHalf.toFixed(0)} MB, second half ${secondHalf.toFixed(0)} MB)`,
    target: 'peak <= 200 MB and second half <= 1.1 x first half',
    met: bounded,
  };
}

export async function runAgentsBench(): Promise<Figure[]> {
  const seconds = Number(process.env['BENCH_STREAM_SECONDS'] ?? 60);
  const figures = [...(await ingestThroughput()), await admissionToFirstByte(), await memoryWithFourAgents(seconds)];
  report(figures);
  return figures;
}
