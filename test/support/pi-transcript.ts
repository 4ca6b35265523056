// Replays a recorded pi 0.73.1 session (fixtures/pi/<name>.*) through framer → classifier →
// settlement, as a runtime would have seen it: stdout bytes come from <name>.stdout.jsonl, the
// interleaving with stdin and the clock from <name>.transcript.jsonl. Modelled runtime discipline:
// - a prompt written while no prompt is active becomes active;
// - a prompt written while the active one is settle-pending is held until that one settles (a
//   runtime writes the next prompt only after confirmation; pi's answer comes after it anyway);
// - a prompt written while another is running is "sent while busy" (a runtime never does that);
// - after the first protocol fault or faulted prompt the generation drains: nothing is activated.
// The settle grace timer is simulated from t_ms. No barrier command was sent in the recordings.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JsonlFramer, type FramedRecord } from '../../source/ground/jsonl-framer.js';
import { classifyPiRecord, type PiRecord } from '../../source/hosts/pi/pi-record.js';
import { advanceSettlement, startSettlement, type SettlementState } from '../../source/hosts/pi/settlement.js';
import { PI_SETTLE_GRACE_MS } from '../../source/limits.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/pi/', import.meta.url));

export interface TranscriptEntry {
  readonly t_ms: number;
  readonly stream: 'stdin' | 'stdout' | 'stderr' | 'meta';
  readonly line: string;
}

export interface ReplayedRecord {
  readonly ordinal: number;
  readonly t_ms: number;
  readonly record: PiRecord;
  readonly promptId: string | null;
}

export interface TranscriptReplay {
  readonly records: readonly ReplayedRecord[];
  /** Final settlement of every prompt that became active, in order. */
  readonly prompts: readonly SettlementState[];
  /** Prompt ids written while another prompt was running (a runtime would not). */
  readonly sentWhileBusy: readonly string[];
  /** The 1-based ordinal of the first record after which the generation drained, or null. */
  readonly drainedAt: number | null;
  /** The prompt messages by id, as written on stdin. */
  readonly promptText: ReadonlyMap<string, string>;
}

export function fixturePath(name: string, kind: 'stdin' | 'stdout' | 'transcript'): string {
  return `${FIXTURE_DIR}${name}.${kind}.jsonl`;
}

export function readTranscript(name: string): TranscriptEntry[] {
  return readFileSync(fixturePath(name, 'transcript'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as TranscriptEntry);
}

/** The stdout fixture framed (all lines are complete records in the recordings). */
export function frameFixture(name: string, kind: 'stdin' | 'stdout' = 'stdout'): FramedRecord[] {
  const framer = new JsonlFramer();
  const events = [...framer.push(readFileSync(fixturePath(name, kind))), ...framer.end()];
  return events.map((event) => {
    if (event.kind !== 'record') throw new Error(`${name}.${kind}: unexpected ${event.kind} at #${event.ordinal}`);
    return event;
  });
}

export function replayTranscript(name: string, graceMs = PI_SETTLE_GRACE_MS): TranscriptReplay {
  const framed = frameFixture(name);
  const records: ReplayedRecord[] = [];
  const prompts: SettlementState[] = [];
  const sentWhileBusy: string[] = [];
  const promptText = new Map<string, string>();
  let active: SettlementState | null = null;
  let held: string | null = null;
  let drainedAt: number | null = null;
  let pendingSince = 0;
  let now = 0;
  let next = 0;

  /** Feeds the active prompt; returns whether it consumed the input. */
  const feed = (input: Parameters<typeof advanceSettlement>[1]): boolean => {
    if (active === null) return false;
    const step = advanceSettlement(active, input);
    if (step.state.phase === 'settle-pending' && active.phase !== 'settle-pending') pendingSince = now;
    active = step.state;
    if (active.result !== null) {
      prompts.push(active);
      if (active.result.status === 'faulted' && drainedAt === null) drainedAt = records.length + 1;
      active = null;
      if (held !== null && drainedAt === null) active = startSettlement(held);
      held = null;
    }
    return step.consumed;
  };

  for (const entry of readTranscript(name)) {
    now = entry.t_ms;
    if (active !== null && (active as SettlementState).phase === 'settle-pending' && now - pendingSince >= graceMs)
      feed({ kind: 'grace-elapsed' });
    if (entry.stream === 'stdin') {
      let command: { id?: unknown; type?: unknown; message?: unknown };
      try {
        command = JSON.parse(entry.line) as typeof command;
      } catch {
        continue;
      }
      if (command.type !== 'prompt' || typeof command.id !== 'string') continue;
      if (typeof command.message === 'string') promptText.set(command.id, command.message);
      if (drainedAt !== null) continue;
      const current: SettlementState | null = active;
      if (current === null) active = startSettlement(command.id);
      else if (current.phase === 'settle-pending' && held === null) held = command.id;
      else sentWhileBusy.push(command.id);
    } else if (entry.stream === 'stdout') {
      const frame = framed[next];
      next += 1;
      if (frame === undefined || frame.text !== entry.line)
        throw new Error(`${name}: stdout file and transcript disagree at line ${next}`);
      let owner: string | null = drainedAt === null ? ((active as SettlementState | null)?.promptId ?? null) : null;
      let record = classifyPiRecord(frame.text, { activePromptId: owner });
      if (owner !== null && !feed({ kind: 'record', record })) {
        // It confirmed settlement; it belongs to the held prompt if one was just written, else to none.
        owner = (active as SettlementState | null)?.promptId ?? null;
        record = classifyPiRecord(frame.text, { activePromptId: owner });
        if (owner !== null) feed({ kind: 'record', record });
      }
      if (record.route.kind === 'protocol-fault' && drainedAt === null) drainedAt = frame.ordinal;
      records.push({ ordinal: frame.ordinal, t_ms: now, record, promptId: owner });
      if (drainedAt !== null && active !== null) feed({ kind: 'frame-fault', detail: 'generation drained' });
    } else if (entry.stream === 'meta' && entry.line.includes('"exit"')) {
      feed({ kind: 'stream-ended' });
    }
  }
  if (next !== framed.length)
    throw new Error(`${name}: ${framed.length - next} stdout lines missing from the transcript`);
  feed({ kind: 'stream-ended' });
  return { records, prompts, sentWhileBusy, drainedAt, promptText };
}

/** Every fixture scenario name in fixtures/pi. */
export function fixtureNames(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(FIXTURE_DIR)) {
    const match = /^(.*)\.(stdin|stdout|transcript)\.jsonl$/.exec(file);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return [...names].sort();
}
