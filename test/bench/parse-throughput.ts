// Benchmark (not a test): Codex rollout parser throughput against the raw floor, same file, same run.
//
//   node --import tsx test/bench/parse-throughput.ts [sizeMB=100] [repetitions=5]
//
// Builds a ~100 MB rollout from recorded records (fixtures/codex/rollouts b, c, f; one session_meta,
// then their turns repeated with turn ids, item ids and ordinals rewritten so they stay unique),
// then measures, alternating, several times:
//   floor  — chunked read + split on LF + JSON.parse per line (what any JSONL reader must pay);
//   parser — parseTranscriptFile + CodexRolloutParser over the same file (turns handed off, not kept).
// Prints median MB/s of both, their ratio and the peak RSS of the process (resourceUsage().maxRSS).
// Targets: parser >= 100 MB/s, peak RSS <= 200 MB (the file is streamed in chunks, never held whole).

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodexRolloutParser } from '../../source/hosts/codex/rollout-parser.js';
import { parseTranscriptFile } from '../../source/hosts/transcript-file.js';
import { rawChunkedJsonParse } from './measure.js';

const MB = 1024 * 1024;
const targetBytes = Number(process.argv[2] ?? 100) * MB;
const repetitions = Number(process.argv[3] ?? 5);

type Json = Record<string, any>;

const fixture = (name: string): Json[] =>
  readFileSync(new URL(`../../fixtures/codex/rollouts/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Json);

/**
 * One repeatable block: the recorded turn lines of a fixture (without session_meta) as templates.
 * Every id that must stay unique gets the marker ~R~ appended; the ordinal becomes ~O~.
 */
function templates(records: Json[]): string[] {
  const ids = new Set<string>();
  for (const record of records) {
    const p = record['payload'] as Json;
    for (const value of [
      p['turn_id'],
      p['root_turn_id'],
      p['id'],
      p['call_id'],
      p['response_id'],
      p['item']?.['id'],
      p['internal_chat_message_metadata_passthrough']?.['turn_id'],
    ]) {
      if (typeof value === 'string' && value.length > 0) ids.add(value);
    }
  }
  return records.map((record) => {
    let line = JSON.stringify({ ...record, ordinal: '~O~' }).replace('"~O~"', '~O~');
    for (const id of ids) line = line.split(`"${id}"`).join(`"${id}~R~"`);
    return line;
  });
}

function buildRollout(path: string): { bytes: number; turns: number } {
  const a = fixture('a-simple-one-turn.jsonl');
  const blocks = [
    'b-tool-call-exec-command.jsonl',
    'c-resumed-two-turns.jsonl',
    'f-tool-call-with-hook-additional-context.jsonl',
  ].map((name) => {
    const records = fixture(name).slice(1);
    const turns = records.filter((r) => r['type'] === 'event_msg' && r['payload']['type'] === 'task_complete').length;
    return { lines: templates(records), turns };
  });
  const fd = openSync(path, 'w');
  let ordinal = 0;
  let bytes = 0;
  let turns = 0;
  const meta = `${JSON.stringify({ ...a[0], ordinal: ordinal++ })}\n`;
  bytes += writeSync(fd, meta);
  for (let rep = 0; bytes < targetBytes; rep += 1) {
    let chunk = '';
    for (const block of blocks) {
      for (const line of block.lines)
        chunk += `${line.replaceAll('~R~', `-r${rep}`).replace('~O~', String(ordinal++))}\n`;
      turns += block.turns;
    }
    bytes += writeSync(fd, chunk);
  }
  closeSync(fd);
  return { bytes, turns };
}

async function parserRun(path: string): Promise<number> {
  let turns = 0;
  const result = await parseTranscriptFile(path, new CodexRolloutParser(), { onClosed: () => (turns += 1) });
  if (result.failure !== null) throw result.failure;
  if (result.openTurns.length !== 0 || result.unconsumedBytes !== 0)
    throw new Error('benchmark file did not parse completely');
  return turns;
}

async function timed(run: () => Promise<number>): Promise<{ ms: number; count: number }> {
  const start = process.hrtime.bigint();
  const count = await run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, count };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'cm-parse-bench-'));
try {
  const path = join(dir, 'rollout-bench.jsonl');
  const built = buildRollout(path);
  const sizeMb = statSync(path).size / MB;
  process.stdout.write(`rollout: ${sizeMb.toFixed(1)} MB, ${built.turns} turns, ${repetitions} repetitions\n`);
  const floor: number[] = [];
  const parser: number[] = [];
  for (let i = 0; i < repetitions; i += 1) {
    const f = await timed(async () => rawChunkedJsonParse(path));
    floor.push(sizeMb / (f.ms / 1000));
    const p = await timed(() => parserRun(path));
    if (p.count !== built.turns) throw new Error(`parser closed ${p.count} turns, expected ${built.turns}`);
    parser.push(sizeMb / (p.ms / 1000));
  }
  const floorMedian = median(floor);
  const parserMedian = median(parser);
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `floor  (read + split + JSON.parse): median ${floorMedian.toFixed(1)} MB/s  [${floor.map((v) => v.toFixed(0)).join(', ')}]\n`,
  );
  process.stdout.write(
    `parser (CodexRolloutParser):        median ${parserMedian.toFixed(1)} MB/s  [${parser.map((v) => v.toFixed(0)).join(', ')}]\n`,
  );
  process.stdout.write(`ratio parser/floor: ${(parserMedian / floorMedian).toFixed(2)}\n`);
  process.stdout.write(`peak RSS (maxRSS): ${rssMb.toFixed(0)} MB\n`);
  process.stdout.write(
    `targets: parser >= 100 MB/s ${parserMedian >= 100 ? 'met' : 'NOT met'}, RSS <= 200 MB ${rssMb <= 200 ? 'met' : 'NOT met'}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
