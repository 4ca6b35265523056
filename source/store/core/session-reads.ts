// Reading what was captured: the sessions, and one session's turns with what the user said in
// full. These are the only reads that return bodies; status and logs never do.
import { echoedWord } from '../../echo-text.js';
import { CmError } from '../../errors.js';
import { checkedCaptureClient } from '../../api/request-checks.js';
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../../limits.js';
import type {
  SessionList,
  SessionListRequest,
  SessionMessageView,
  SessionReadRequest,
  SessionSummary,
  SessionTurnView,
  SessionView,
} from '../../api/capture.js';
import { readSessionSummary, readSessions, sessionCursor } from './capture-reads.js';
import type { Db } from '../database.js';
import { ID_PREFIX_HINT, resolveIdPrefix } from '../id-prefix.js';
import { maskedFirstLine, maskSecrets } from '../../memory/listing-mask.js';
import { typedAtMs } from './indexed-text.js';

const SESSIONS_DEFAULT = 20;
const FIRST_PROMPT_CHARS = 200;

export function listSessions(db: Db, request: SessionListRequest): SessionList {
  const limit = request.limit ?? SESSIONS_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < PAGE_LIMIT_MIN || limit > PAGE_LIMIT_MAX) {
    throw new CmError(
      'invalid_input',
      `"limit" must be a whole number from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}, not ${JSON.stringify(request.limit)}.`,
    );
  }
  checkedCaptureClient(request.client);
  const page = readSessions(
    db,
    // `sessions` pages by the keys it prints, not by status's nextSessionKey.
    sessionCursor(db, request.after, 'give a key common-memory sessions printed'),
    limit,
    request.client ?? null,
  );
  return {
    sessions: page.sessions.map((session) => ({ ...session, firstPrompt: firstPrompt(db, session.sessionKey) })),
    total: page.total,
    nextAfter: page.nextSessionKey,
  };
}

export function readSession(db: Db, request: SessionReadRequest): SessionView {
  const key = resolveIdPrefix(db, 'capture_activations', 'session_key', request.sessionKey, 'session');
  const activation = db
    .prepare('SELECT activation_id FROM capture_activations WHERE session_key = ?')
    .pluck()
    .get(key) as number | undefined;
  if (activation === undefined)
    throw new CmError(
      'not_found',
      `No captured session ${echoedWord(request.sessionKey)}: ${ID_PREFIX_HINT.replace('ID', 'key')}; "common-memory sessions" lists them.`,
    );
  const summary = readSessionSummary(db, activation)!;
  const turns = db
    .prepare(
      'SELECT turn_id AS turnId, turn_key AS turnKey, state, error, recorded_at_ms AS recordedAtMs FROM capture_turns WHERE activation_id = ? ORDER BY turn_id',
    )
    .all(activation) as {
    turnId: number;
    turnKey: string;
    state: string;
    error: string | null;
    recordedAtMs: number;
  }[];
  const messages = db.prepare(
    'SELECT role, kind, classification, body, timestamp FROM capture_messages WHERE turn_id = ? ORDER BY position',
  );
  // `session <key>` is the explicit reader of what was typed: it masks what the lint finds unless
  // asked to reveal, and says how many it masked.
  const reveal = request.reveal === true;
  let masked = 0;
  const shownText = (text: string | null): string | null => {
    if (text === null || reveal) return text;
    const result = maskSecrets(text);
    masked += result.masked;
    return result.text;
  };
  const view = {
    session: { ...summary, firstPrompt: firstPrompt(db, key, reveal) } satisfies SessionSummary,
    turns: turns.map((turn): SessionTurnView => {
      const shown: SessionMessageView[] = [];
      const folded: Record<string, number> = {};
      const rows = messages.all(turn.turnId) as {
        role: string;
        kind: string;
        classification: 'evidence' | 'context';
        body: string | null;
        timestamp: string | null;
      }[];
      for (const row of rows) {
        if (row.classification === 'context' && !request.context) folded[row.kind] = (folded[row.kind] ?? 0) + 1;
        else
          shown.push({
            role: row.role,
            kind: row.kind,
            classification: row.classification,
            text: shownText(row.body),
            timestamp: row.timestamp,
          });
      }
      return {
        turnKey: turn.turnKey,
        state: turn.state,
        error: turn.error,
        recordedAt: new Date(turn.recordedAtMs).toISOString(),
        typedAt: typedAt(rows),
        messages: shown,
        folded,
      };
    }),
  };
  return { ...view, revealed: reveal, secretsMasked: masked };
}

/** The first line of the first thing the user said; what the secret lint finds is masked unless `reveal`. */
function firstPrompt(db: Db, sessionKey: string, reveal = false): string | null {
  const body = db
    .prepare(
      `SELECT m.body FROM capture_messages m JOIN capture_turns t ON t.turn_id = m.turn_id JOIN capture_activations a ON a.activation_id = t.activation_id
       WHERE a.session_key = ? AND m.classification = 'evidence' AND m.body IS NOT NULL ORDER BY t.turn_id, m.position LIMIT 1`,
    )
    .pluck()
    .get(sessionKey) as string | undefined;
  if (body === undefined) return null;
  if (reveal) {
    const line = body.trim().split('\n')[0]!;
    return line.length > FIRST_PROMPT_CHARS ? `${line.slice(0, FIRST_PROMPT_CHARS - 1)}…` : line;
  }
  return maskedFirstLine(body, FIRST_PROMPT_CHARS);
}

/**
 * When a turn was typed: the client's own timestamp of what the user said (else of its first
 * message that has one), as an ISO instant. The seal time says when the drain processed it, which
 * without a running host can be hours later.
 */
function typedAt(rows: readonly { classification: string; timestamp: string | null }[]): string | null {
  const ordered = [...rows.filter((row) => row.classification === 'evidence'), ...rows];
  for (const row of ordered) {
    const ms = typedAtMs(row.timestamp);
    if (ms !== null) return new Date(ms).toISOString();
  }
  return null;
}
