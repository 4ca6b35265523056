// The repetition pass of an extraction run: the repeatable statements of the run's user turns are
// looked up in session search (every term, any time); a statement said again, word for word after
// normalisation, in two or more sessions of the run's scope becomes a chunk of those turns whose
// task the pass answers itself with one draft citing every occurrence — offline, deterministic,
// bounded (REPETITION_* in repetition.ts). The draft goes through the same submission (catalogue,
// lint) and adjudication as any other, so a rule the runner drafted too converges with it.
import { sha256Hex } from '../ground/digests.js';
import { CHUNK_MAX_BYTES, turnsChunk, type PlannedChunk } from '../memory/chunking.js';
import {
  occurrenceIn,
  REPETITION_HITS_MAX,
  repeatableStatements,
  repetitionOccurrences,
} from '../memory/repetition.js';
import { selectTurns, type SourceTurn } from '../memory/turn-source.js';
import type { Db } from '../store/database.js';
import { searchSessions } from '../store/session-search.js';

export interface RepetitionChunk {
  chunk: PlannedChunk;
  /** The wording the draft states (the smallest of the occurrences' in code-point order). */
  statement: string;
}

/** Chunk refs of repetition chunks start so: their tasks are answered by the pass, never sent to a runner. */
export const REPETITION_CHUNK_PREFIX = 'repeat:';

const userText = (turn: SourceTurn) =>
  turn.messages
    .filter((message) => message.classification === 'evidence')
    .map((message) => message.body)
    .join('\n');

export function repetitionChunks(
  core: Db,
  chunks: readonly PlannedChunk[],
  inScope: (cwd: string | null) => boolean,
): RepetitionChunk[] {
  const texts = chunks.filter((chunk) => !chunk.chunkRef.startsWith(REPETITION_CHUNK_PREFIX));
  const found: RepetitionChunk[] = [];
  for (const statement of repeatableStatements(texts.flatMap((chunk) => chunk.catalogue.map((p) => p.text)))) {
    const hits = searchSessions(core, {
      query: statement.text,
      limit: REPETITION_HITS_MAX,
      keepRepeats: true,
      withBody: true,
      allTerms: true,
    }).filter((hit) => hit.body !== undefined && occurrenceIn(hit.body, statement.normalized) !== null);
    if (new Set(hits.map((hit) => hit.sessionKey)).size < 2) continue;
    const turns: SourceTurn[] = [];
    for (const hit of hits) {
      // The hit's own turn (seal instants are distinct), read only if it is of the run's scope.
      const turn = selectTurns(
        core,
        { sinceMs: hit.recordedAtMs, untilMs: hit.recordedAtMs + 1, sessionKeys: [hit.sessionKey] },
        inScope,
      ).find((candidate) => candidate.turnKey === hit.turnKey);
      if (turn) turns.push(turn);
    }
    let chosen = repetitionOccurrences(turns);
    if (chosen.length === 0) continue;
    let chunk = turnsChunk(chosen, '');
    while (Buffer.byteLength(chunk.transcript, 'utf8') > CHUNK_MAX_BYTES && chosen.length > 2) {
      chosen = repetitionOccurrences(chosen.slice(0, -1));
      if (chosen.length === 0) break;
      chunk = turnsChunk(chosen, '');
    }
    if (chosen.length === 0 || Buffer.byteLength(chunk.transcript, 'utf8') > CHUNK_MAX_BYTES) continue;
    const wordings = chosen.map((turn) => occurrenceIn(userText(turn), statement.normalized) ?? statement.text);
    const wording = [...wordings].sort()[0]!;
    const chunkRef = `${REPETITION_CHUNK_PREFIX}${sha256Hex(statement.normalized).slice(0, 16)}:${chunk.chunkDigest.slice(0, 16)}`;
    found.push({ chunk: { ...chunk, chunkRef }, statement: wording });
  }
  return found;
}
