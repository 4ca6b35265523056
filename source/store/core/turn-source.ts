// The turns an extraction may read, from core.sqlite (read-only): sealed turns of captured
// sessions and the prompts of driven pi agents with the rows that answered them. Only a user's
// delivered message is evidence; everything else comes along as context.
import { echoedWord } from '../../echo-text.js';
import { CmError } from '../../errors.js';
import { prepared, type Db } from '../database.js';
import { ID_PREFIX_HINT, resolveIdPrefix } from '../id-prefix.js';
import { searchSessions } from './session-search.js';
import type { SourceMessage, SourceTurn } from '../../memory/source-turn.js';
import { utcText } from '../../memory/window.js';

/** More matching turns than this is refused, never cut to a prefix (seed 004 §9). */
export const SELECTION_MAX_TURNS = 200;

export interface Selection {
  sinceMs: number;
  untilMs: number;
  client?: string | undefined;
  sessionKeys?: readonly string[] | undefined;
  query?: string | undefined;
}

/** A turn before its messages are read: `ref` says where they are (`c:` captured, `t:` timeline). */
type TurnRow = Omit<SourceTurn, 'messages'> & { ref: string };

/** Sealed turns of captured sessions; `--client pi` includes sessions captured by pi's extension. */
function capturedTurns(core: Db, selection: Selection): TurnRow[] {
  return core
    .prepare(
      `SELECT a.client, a.session_key AS sessionKey, t.turn_key AS turnKey, t.recorded_at_ms AS recordedAtMs, a.cwd, t.turn_id AS ordinal,
              t.digest, 'c:' || t.turn_id AS ref
       FROM capture_turns t JOIN capture_activations a ON a.activation_id = t.activation_id
       WHERE t.state IN ('settled', 'failed', 'interrupted') AND t.recorded_at_ms >= ? AND t.recorded_at_ms < ?
         AND (? IS NULL OR a.client = ?)
       ORDER BY t.turn_id`,
    )
    .all(selection.sinceMs, selection.untilMs, selection.client ?? null, selection.client ?? null) as TurnRow[];
}

function agentTurns(core: Db, selection: Selection): TurnRow[] {
  if (selection.client !== undefined && selection.client !== 'pi') return [];
  return core
    .prepare(
      `SELECT 'pi' AS client, generation_id AS sessionKey, message_id AS turnKey, recorded_at_ms AS recordedAtMs, NULL AS cwd, sequence AS ordinal,
              message_id AS digest, 't:' || sequence AS ref
       FROM timeline WHERE role = 'user' AND generation_id IS NOT NULL AND recorded_at_ms >= ? AND recorded_at_ms < ?
       ORDER BY sequence`,
    )
    .all(selection.sinceMs, selection.untilMs) as TurnRow[];
}

/**
 * The session keys a run is given, each read as `session <key>` reads one: the key, or a unique start
 * of a captured session's key (a driven agent's generation by its whole id). A key no session has is
 * refused (not found): filtering by it would run over nothing and say only "0 turn(s)".
 */
export function resolveSessionKeys(core: Db, keys: readonly string[]): string[] {
  return keys.map((text) => {
    const key = resolveIdPrefix(core, 'capture_activations', 'session_key', text, 'session');
    const known = prepared(
      core,
      `SELECT 1 FROM capture_activations WHERE session_key = ?
       UNION ALL SELECT 1 FROM generations WHERE generation_id = ? LIMIT 1`,
    ).get(key, key);
    if (known === undefined) throw noCapturedSession(text);
    return key;
  });
}

/** A session key given to a run that no captured session has (nor a unique start of one). */
export const noCapturedSession = (text: string): CmError =>
  new CmError(
    'not_found',
    `No captured session ${echoedWord(text)}: ${ID_PREFIX_HINT.replace('ID', 'key')}; "common-memory sessions" lists them. Nothing was extracted.`,
  );

/** The turns of a selection, each with its messages; refuses a selection over SELECTION_MAX_TURNS. */
export function selectTurns(core: Db, selection: Selection, inScope: (cwd: string | null) => boolean): SourceTurn[] {
  let rows = [...capturedTurns(core, selection), ...agentTurns(core, selection)].filter((row) => inScope(row.cwd));
  if (selection.sessionKeys && selection.sessionKeys.length > 0) {
    const keys = new Set(selection.sessionKeys);
    rows = rows.filter((row) => keys.has(row.sessionKey));
  }
  if (selection.query !== undefined) {
    // Session search narrows to the turns whose user text matches; a turn is kept whole.
    const hits = searchSessions(core, {
      query: selection.query,
      sinceMs: selection.sinceMs,
      untilMs: selection.untilMs,
      client: selection.client,
      limit: 10_000,
      keepRepeats: true,
      sealedWindow: true,
    });
    const turns = new Set(hits.map((hit) => `${hit.sessionKey}\0${hit.turnKey}`));
    rows = rows.filter((row) => turns.has(`${row.sessionKey}\0${row.turnKey}`));
  }
  if (rows.length > SELECTION_MAX_TURNS) {
    // Seal instants are distinct (see nextSealInstant), so ending the window at the first turn
    // past the maximum selects the earliest SELECTION_MAX_TURNS turns, and its rest starts there.
    const boundary = utcText(rows.map((row) => row.recordedAtMs).sort((a, b) => a - b)[SELECTION_MAX_TURNS]!);
    throw new CmError(
      'limit_exceeded',
      `The selection matches ${rows.length} turns, over the ${SELECTION_MAX_TURNS}-turn maximum of one extraction; nothing was planned. Extract it in parts: --since ${utcText(selection.sinceMs)} --until ${boundary} for its first ${SELECTION_MAX_TURNS} turns, then --since ${boundary} --until ${utcText(selection.untilMs)} for the rest (run a part again to go on with its tasks); or narrow it with --client, --session or --query.`,
    );
  }
  return rows.map((row) => ({
    ...row,
    messages: row.ref.startsWith('c:')
      ? capturedMessages(core, Number(row.ref.slice(2)))
      : agentMessages(core, Number(row.ref.slice(2))),
  }));
}

/**
 * The instant of the turn that follows the first `offset` turns of [sinceMs, untilMs) — counting
 * both kinds of turns a selection reads — or undefined when no more than `offset` are there: where
 * a window of at most `offset` turns ends (seal instants are distinct, see nextSealInstant).
 */
export function turnInstantAfter(core: Db, sinceMs: number, untilMs: number, offset: number): number | undefined {
  return core
    .prepare(
      `SELECT ms FROM (
         SELECT recorded_at_ms AS ms FROM capture_turns
           WHERE state IN ('settled', 'failed', 'interrupted') AND recorded_at_ms >= @since AND recorded_at_ms < @until
         UNION ALL
         SELECT recorded_at_ms FROM timeline
           WHERE role = 'user' AND generation_id IS NOT NULL AND recorded_at_ms >= @since AND recorded_at_ms < @until)
       ORDER BY ms LIMIT 1 OFFSET @offset`,
    )
    .pluck()
    .get({ since: sinceMs, until: untilMs, offset }) as number | undefined;
}

/** Whether a sealed captured turn, or a user row of the timeline, was recorded in [sinceMs, untilMs). */
export function hasTurnsBetween(core: Db, sinceMs: number, untilMs: number): boolean {
  return (
    (core
      .prepare(
        "SELECT 1 FROM capture_turns WHERE state IN ('settled', 'failed', 'interrupted') AND recorded_at_ms >= ? AND recorded_at_ms < ? LIMIT 1",
      )
      .get(sinceMs, untilMs) ??
      core
        .prepare("SELECT 1 FROM timeline WHERE role = 'user' AND recorded_at_ms >= ? AND recorded_at_ms < ? LIMIT 1")
        .get(sinceMs, untilMs)) !== undefined
  );
}

/** When the last captured turn was sealed (ms); null before any. */
export function lastSealMs(core: Db): number | null {
  return core.prepare('SELECT max(recorded_at_ms) FROM capture_turns').pluck().get() as number | null;
}

function capturedMessages(core: Db, turnId: number): SourceMessage[] {
  // Prepared once per connection: a selection reads the messages of up to 200 turns.
  return prepared(
    core,
    "SELECT message_key AS key, role, classification, kind, coalesce(body, '') AS body, digest FROM capture_messages WHERE turn_id = ? ORDER BY position",
  ).all(turnId) as SourceMessage[];
}

/** A driven agent's turn: its user row, then every row of the same generation up to the next user row. */
function agentMessages(core: Db, sequence: number): SourceMessage[] {
  const user = prepared(core, 'SELECT generation_id AS generation FROM timeline WHERE sequence = ?').get(sequence) as {
    generation: string;
  };
  const rows = prepared(
    core,
    `SELECT message_id AS key, role, payload, sequence FROM timeline
       WHERE generation_id = ? AND sequence >= ?
         AND sequence < coalesce((SELECT min(sequence) FROM timeline WHERE generation_id = ? AND role = 'user' AND sequence > ?), 9007199254740991)
       ORDER BY sequence LIMIT 200`,
  ).all(user.generation, sequence, user.generation, sequence) as Array<{
    key: string;
    role: string;
    payload: string;
    sequence: number;
  }>;
  return rows.map((row) => {
    const body = payloadText(row.payload);
    const isUser = row.role === 'user' && row.sequence === sequence;
    return {
      key: row.key,
      role: row.role === 'toolResult' ? 'tool' : row.role,
      classification: isUser ? 'evidence' : 'context',
      kind: isUser ? 'prompt' : row.role === 'toolResult' ? 'tool_result' : 'answer',
      body,
      digest: row.key,
    };
  });
}

function payloadText(payload: string): string {
  try {
    const content = (JSON.parse(payload) as { content?: unknown }).content;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content
      .map((block: { type?: string; text?: unknown }) =>
        typeof block?.text === 'string' ? block.text : block?.type === 'toolCall' ? JSON.stringify(block) : '',
      )
      .filter(Boolean)
      .join('\n');
  } catch {
    return '';
  }
}
