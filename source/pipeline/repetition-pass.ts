// The repetition pass of an extraction run: the repeatable statements of the run's user turns are
// looked up in session search (every term, any time); a statement said again, word for word after
// normalisation, in two or more sessions of the run's scope becomes a chunk of those turns whose
// task the pass answers itself with one draft citing every occurrence — offline, deterministic,
// bounded (REPETITION_* in repetition.ts). The draft goes through the same submission (catalogue,
// lint) and adjudication as any other, so a rule the runner drafted too converges with it.
import { sha256Hex } from '../ground/digests.js';
import { CHUNK_MAX_BYTES, turnsChunk, type PlannedChunk } from '../memory/chunking.js';
import {
  normalizedSentences,
  REPETITION_HITS_MAX,
  repeatableStatements,
  repetitionOccurrences,
} from '../memory/repetition.js';
import { selectTurns, type SourceTurn } from '../store/core/turn-source.js';
import type { Db } from '../store/database.js';
import { searchSessions } from '../store/core/session-search.js';

export interface RepetitionChunk {
  chunk: PlannedChunk;
  /** The wording the draft states (the smallest of the occurrences' in code-point order). */
  statement: string;
}

/** Chunk refs of repetition chunks start so: their tasks are answered by the pass, never sent to a runner. */
export const REPETITION_CHUNK_PREFIX = 'repeat:';

export function repetitionChunks(
  core: Db,
  chunks: readonly PlannedChunk[],
  inScope: (cwd: string | null) => boolean,
  /** Whether the task of a chunk of this ref was answered by an earlier run: nothing to build. */
  known: (chunkRef: string) => boolean = () => false,
): RepetitionChunk[] {
  const texts = chunks.filter((chunk) => !chunk.chunkRef.startsWith(REPETITION_CHUNK_PREFIX));
  // One read per session (its scope) and per chosen turn, however many statements name them.
  const turnsRead = new Map<string, SourceTurn | null>();
  const turnOf = (hit: { sessionKey: string; turnKey: string; recordedAtMs: number }) => {
    const key = `${hit.sessionKey}\0${hit.turnKey}`;
    if (!turnsRead.has(key))
      turnsRead.set(
        key,
        // The hit's own turn: seal instants are distinct.
        selectTurns(
          core,
          { sinceMs: hit.recordedAtMs, untilMs: hit.recordedAtMs + 1, sessionKeys: [hit.sessionKey] },
          () => true,
        ).find((turn) => turn.turnKey === hit.turnKey) ?? null,
      );
    return turnsRead.get(key)!;
  };
  const sessionScope = new Map<string, boolean>();
  const sessionInScope = (hit: { sessionKey: string; turnKey: string; recordedAtMs: number }) => {
    if (!sessionScope.has(hit.sessionKey)) {
      const turn = turnOf(hit);
      sessionScope.set(hit.sessionKey, turn !== null && inScope(turn.cwd));
    }
    return sessionScope.get(hit.sessionKey)!;
  };
  // A text said again and again is split and normalised once per run.
  const sentencesByText = new Map<string, Map<string, string>>();
  const occurrenceIn = (text: string, normalized: string) => {
    let sentences = sentencesByText.get(text);
    if (!sentences) sentencesByText.set(text, (sentences = normalizedSentences(text)));
    return sentences.get(normalized) ?? null;
  };
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
    let chosen = repetitionOccurrences(hits.filter(sessionInScope));
    if (chosen.length === 0) continue;
    // The ref names the statement and the turns it cites: the same occurrences are the same chunk,
    // recognised before any turn is read again or serialised.
    const refOf = (occurrences: typeof chosen) =>
      `${REPETITION_CHUNK_PREFIX}${sha256Hex(statement.normalized).slice(0, 16)}:${sha256Hex(
        occurrences.map((o) => `${o.sessionKey}\0${o.turnKey}`).join('\n'),
      ).slice(0, 16)}`;
    if (known(refOf(chosen))) continue;
    const turnsOf = (occurrences: typeof chosen) =>
      occurrences.map(turnOf).filter((turn): turn is SourceTurn => turn !== null);
    let chunk = turnsChunk(turnsOf(chosen), '');
    while (Buffer.byteLength(chunk.transcript, 'utf8') > CHUNK_MAX_BYTES && chosen.length > 2) {
      chosen = repetitionOccurrences(chosen.slice(0, -1));
      if (chosen.length === 0) break;
      chunk = turnsChunk(turnsOf(chosen), '');
    }
    if (chosen.length === 0 || Buffer.byteLength(chunk.transcript, 'utf8') > CHUNK_MAX_BYTES) continue;
    const wordings = chosen.map((hit) => occurrenceIn(hit.body!, statement.normalized) ?? statement.text);
    const wording = [...wordings].sort()[0]!;
    found.push({ chunk: { ...chunk, chunkRef: refOf(chosen) }, statement: wording });
  }
  return found;
}
