// Chunks: whole consecutive turns of one session, at most CHUNK_MAX_BYTES of transcript, serialised
// deterministically (`<<past-user>>` … `<<end-of-transcript>>`) so that the same turns always give
// the same bytes and the same digests. A tool payload over the excerpt threshold becomes its head and
// tail with its sha256 and a `truncated` coverage entry. The evidence catalogue lists the user
// messages a runner may cite — nothing else can be evidence.
import { sha256Hex } from '../ground/digests.js';
import { CHUNKER_VERSION, memoryDigest } from './contracts.js';
import type { SourceTurn } from '../store/core/turn-source.js';

/** One chunk's transcript: a runner reads it whole; 40 KiB is ~10k tokens (seed 004 §4). */
export const CHUNK_MAX_BYTES = 40 * 1024;
/** A tool payload longer than this is shown as its first and last EXCERPT_BYTES. */
export const TOOL_PAYLOAD_EXCERPT_THRESHOLD = 4 * 1024;
export const EXCERPT_BYTES = 1024;

export interface EvidencePointer {
  evidenceId: string;
  client: string;
  sessionKey: string;
  turnKey: string;
  messageKey: string;
  pointerDigest: string;
  text: string;
}

export interface PlannedChunk {
  chunkRef: string;
  client: string;
  sessionKey: string;
  cwd: string | null;
  turnRange: { start: number; end: number };
  firstTurnKey: string;
  lastTurnKey: string;
  startMs: number;
  endMs: number;
  transcript: string;
  chunkDigest: string;
  sourceInputDigest: string;
  turnRevisions: string[];
  coverage: Array<{
    sourceKind: 'turn' | 'tool-payload';
    ref: string;
    completeness: 'full' | 'truncated';
    bytes: number;
    sha256?: string;
  }>;
  catalogue: EvidencePointer[];
}

const TOOL_KINDS = new Set(['tool_call', 'tool_result']);

/** The UTF-8 head and tail of a long text, cut on character boundaries. */
function excerpt(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const head = bytes
    .subarray(0, EXCERPT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const tail = bytes
    .subarray(bytes.length - EXCERPT_BYTES)
    .toString('utf8')
    .replace(/^\uFFFD/, '');
  return `${head}\n[… ${bytes.length - 2 * EXCERPT_BYTES} bytes omitted …]\n${tail}`;
}

interface SerialisedTurn {
  turn: SourceTurn;
  text: string;
  bytes: number;
  coverage: PlannedChunk['coverage'];
  evidence: Array<Omit<EvidencePointer, 'evidenceId'>>;
}

/** `evidenceId(i)`: the catalogue id of the turn's i-th evidence message. */
function serialiseTurn(turn: SourceTurn, evidenceId: (index: number) => string): SerialisedTurn {
  const parts: string[] = [];
  const coverage: PlannedChunk['coverage'] = [];
  const evidence: SerialisedTurn['evidence'] = [];
  let truncatedTurn = false;
  for (const message of turn.messages) {
    const body = message.body.replace(/\r\n?/g, '\n');
    if (message.classification === 'evidence') {
      const pointerDigest = memoryDigest({
        client: turn.client,
        sessionKey: turn.sessionKey,
        turnKey: turn.turnKey,
        messageKey: message.key,
        digest: message.digest,
      });
      evidence.push({
        client: turn.client,
        sessionKey: turn.sessionKey,
        turnKey: turn.turnKey,
        messageKey: message.key,
        pointerDigest,
        text: body,
      });
      parts.push(`<<past-user evidence=${evidenceId(evidence.length - 1)}>>\n${body}\n`);
      continue;
    }
    const label =
      message.role === 'assistant'
        ? 'assistant'
        : TOOL_KINDS.has(message.kind)
          ? message.kind
          : `context-${message.kind}`;
    const size = Buffer.byteLength(body, 'utf8');
    if (TOOL_KINDS.has(message.kind) && size > TOOL_PAYLOAD_EXCERPT_THRESHOLD) {
      const sha256 = sha256Hex(body);
      coverage.push({
        sourceKind: 'tool-payload',
        ref: `${turn.turnKey}/${message.key}`,
        completeness: 'truncated',
        bytes: size,
        sha256,
      });
      parts.push(`<<past-${label} sha256=${sha256} bytes=${size}>>\n${excerpt(body)}\n`);
      truncatedTurn = true;
    } else {
      parts.push(`<<past-${label}>>\n${body}\n`);
    }
  }
  const text = parts.join('\n');
  coverage.unshift({
    sourceKind: 'turn',
    ref: turn.turnKey,
    completeness: truncatedTurn ? 'truncated' : 'full',
    bytes: Buffer.byteLength(text, 'utf8'),
  });
  return { turn, text, bytes: Buffer.byteLength(text, 'utf8'), coverage, evidence };
}

/** Greedy: consecutive turns of one session while the transcript stays within CHUNK_MAX_BYTES; a turn is never split. */
export function planChunks(turns: readonly SourceTurn[]): PlannedChunk[] {
  const bySession = new Map<string, SourceTurn[]>();
  for (const turn of [...turns].sort((a, b) => a.ordinal - b.ordinal)) {
    const key = `${turn.client}\0${turn.sessionKey}`;
    let list = bySession.get(key);
    if (!list) bySession.set(key, (list = []));
    list.push(turn);
  }
  const chunks: PlannedChunk[] = [];
  for (const sessionTurns of bySession.values()) {
    let group: SerialisedTurn[] = [];
    let size = 0;
    for (const turn of sessionTurns) {
      // Sized with placeholder ids; `finish` serialises again with the chunk's own (as long or shorter).
      const serialised = serialiseTurn(turn, () => 'e000');
      if (group.length > 0 && size + serialised.bytes > CHUNK_MAX_BYTES) {
        chunks.push(finish(group));
        group = [];
        size = 0;
      }
      group.push(serialised);
      size += serialised.bytes;
    }
    if (group.length > 0) chunks.push(finish(group));
  }
  return chunks.sort((a, b) => a.startMs - b.startMs || (a.chunkRef < b.chunkRef ? -1 : 1));
}

/**
 * A chunk of chosen turns from any sessions (the occurrences of a repeated statement), serialised
 * as a session's chunk is, under the caller's `chunkRef`; its session fields are its first turn's.
 */
export function turnsChunk(turns: readonly SourceTurn[], chunkRef: string): PlannedChunk {
  return { ...finish(turns.map((turn) => serialiseTurn(turn, () => 'e000'))), chunkRef };
}

function finish(sized: SerialisedTurn[]): PlannedChunk {
  const catalogue: EvidencePointer[] = [];
  const group = sized.map((turn) => {
    const base = catalogue.length;
    const serialised = serialiseTurn(turn.turn, (index) => `e${base + index + 1}`);
    for (const [index, pointer] of serialised.evidence.entries())
      catalogue.push({ evidenceId: `e${base + index + 1}`, ...pointer });
    return serialised;
  });
  const first = group[0]!.turn;
  const last = group[group.length - 1]!.turn;
  const texts = group.map((serialised) => serialised.text);
  const transcript = `${texts.join('\n')}\n<<end-of-transcript>>\n`;
  const chunkDigest = sha256Hex(transcript);
  const turnRevisions = group.map((serialised) => sha256Hex(`${serialised.turn.turnKey}\0${serialised.turn.digest}`));
  const sourceInputDigest = memoryDigest({
    chunker: CHUNKER_VERSION,
    chunkDigest,
    turnRevisions,
    catalogue: catalogue.map((e) => [e.evidenceId, e.pointerDigest]),
  });
  return {
    chunkRef: `${first.sessionKey}:${first.turnKey}:${last.turnKey}:${chunkDigest.slice(0, 16)}`,
    client: first.client,
    sessionKey: first.sessionKey,
    cwd: first.cwd,
    turnRange: { start: first.ordinal, end: last.ordinal },
    firstTurnKey: first.turnKey,
    lastTurnKey: last.turnKey,
    startMs: first.recordedAtMs,
    endMs: last.recordedAtMs,
    transcript,
    chunkDigest,
    sourceInputDigest,
    turnRevisions,
    coverage: group.flatMap((serialised) => serialised.coverage),
    catalogue,
  };
}

/**
 * An earlier turn as context: serialised as a chunk serialises it, but marked `context-` and with
 * no evidence ids, so nothing in it can be cited.
 */
export function contextText(turn: SourceTurn): string {
  return serialiseTurn(turn, () => 'none')
    .text.replaceAll(/<<past-user evidence=none>>/g, '<<context-user>>')
    .replaceAll(/<<past-/g, '<<context-');
}
