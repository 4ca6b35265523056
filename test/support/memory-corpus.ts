// Captured sessions with chosen prompts, for the memory half's tests and benchmarks: the recorded
// Codex one-turn rollout repeated with each prompt in place of its own, queued as hook envelopes
// with their UserPromptSubmit candidates, then sealed by the real drain (a lease-holding host).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { ensureHome, storeFiles } from '../../source/home.js';
import { storeTail } from '../../source/store/core/inbox-writes.js';
import { textDigest } from '../../source/ground/digests.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { rolloutFixture } from './capture.js';

export const FIXTURE_PROMPT = 'Say hello';
let sessionCounter = 0;

export interface QueuedSession {
  sessionKey: string;
  turnKeys: string[];
}

/** Queues one Codex session of `prompts` (one turn each) in `cwd`; seal it with flush/drain. */
export function queueSession(
  home: string,
  cwd: string | null,
  prompts: readonly string[],
  options: { answer?: (i: number) => string } = {},
): QueuedSession {
  const lines = readFileSync(rolloutFixture('a-simple-one-turn.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const first = lines.findIndex((line) => line.includes('"task_started"'));
  const block = lines.slice(first, lines.findIndex((line) => line.includes('"task_complete"')) + 1);
  const turnId = (JSON.parse(block[0]!) as { payload: { turn_id: string } }).payload.turn_id;
  const n = ++sessionCounter;
  const session = `${process.pid}-${Date.now()}-${n}`;
  // The rollout names its host session; each queued session is its own process instance of it.
  const hostSession = (JSON.parse(lines[0]!) as { payload: { id: string } }).payload.id;
  const sessionKey = `corpus-${session}`;
  let ordinal = 1;
  const turnKeys: string[] = [];
  const turns = prompts.map((prompt, turn) => {
    const id = `${session}-t${turn}`;
    turnKeys.push(id);
    const escaped = JSON.stringify(prompt).slice(1, -1);
    const answer = options.answer ? JSON.stringify(options.answer(turn)).slice(1, -1) : 'Hello from the fake model.';
    return block
      .map((line) =>
        line
          .split(turnId)
          .join(id)
          .split(`"text":"${FIXTURE_PROMPT}"`)
          .join(`"text":"${escaped}"`)
          .split('Hello from the fake model.')
          .join(answer)
          .replace(/"ordinal":\d+/, `"ordinal":${ordinal++}`)
          .replace(/"id":"(msg|rs|fc)_[^"]*"/g, (_m, p: string) => `"id":"${p}_${session}_${ordinal}"`),
      )
      .join('\n');
  });
  const tail = Buffer.from(`${lines[0]}\n${turns.join('\n')}\n`);
  ensureHome(home);
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  db.transaction(() => {
    const watch = db
      .prepare("INSERT INTO capture_watches (client, transcript_path, host_session_id) VALUES ('codex', ?, ?)")
      .run(`/gone/${session}.jsonl`, hostSession).lastInsertRowid;
    const activation = db
      .prepare(
        "INSERT INTO capture_activations (session_key, client, process_instance, host_session_id, ordinal, state, watch_id, cwd, started_at_ms) VALUES (?, 'codex', ?, ?, 1, 'ended', ?, ?, 0)",
      )
      .run(sessionKey, session, hostSession, watch, cwd).lastInsertRowid;
    const inboxId = Number(
      db
        .prepare(
          "INSERT INTO inbox (client, event, received_at_ms, payload, state, activation_id, host_session_id, process_instance, watch_id, tail_state, tail_from, tail_to) VALUES ('codex', 'Stop', 0, '{}', 'pending', ?, ?, ?, ?, 'captured', 0, ?)",
        )
        .run(activation, hostSession, session, watch, tail.length).lastInsertRowid,
    );
    storeTail(db, inboxId, tail);
    const candidate = db.prepare(
      "INSERT INTO prompt_candidates (activation_id, client, host_session_id, turn_ref, digest, body, inbox_id, state) VALUES (?, 'codex', ?, ?, ?, ?, ?, 'pending')",
    );
    for (const [turn, prompt] of prompts.entries())
      candidate.run(activation, hostSession, turnKeys[turn], textDigest(prompt), prompt, inboxId);
    db.prepare('UPDATE capture_watches SET captured_bytes = ? WHERE watch_id = ?').run(tail.length, watch);
  })();
  db.close();
  return { sessionKey, turnKeys };
}

/** A GitHub token shape, built at run time so that no token-like string is committed. */
export const plantedToken = () =>
  `${'gh'}p_${randomBytes(27)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 36)}`;

const DAY_MS = 86_400_000;
/** A window around sessions queued just now: a month back to a day ahead (UTC, whole seconds). */
export const RECENT_WINDOW = {
  since: new Date(Date.now() - 30 * DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z'),
  until: new Date(Date.now() + DAY_MS).toISOString().replace(/\.\d+Z$/, 'Z'),
};
/** Two durable statements a user makes: each one draft of a well-behaved extractor. */
export const DURABLE_PROMPTS = [
  'From now on, use pnpm instead of npm in this repo.',
  'Always use named exports in TypeScript modules.',
];
