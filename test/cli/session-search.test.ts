// Session search: FTS5 (porter) over what users said, maintained in the sealing transaction,
// back-filled by the migration, queried through the CLI with escaped input.
import assert from 'node:assert/strict';
import { undoImportsStep, undoSessionStartStep } from '../support/rewind-store.js';
import { mkdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate, schemaVersion } from '../../source/store/migrations.js';
import { appendJournal } from '../../source/store/core/journal.js';
import { searchSessions, sessionSearch } from '../../source/store/core/session-search.js';
import { insertTimeline } from '../../source/store/core/timeline.js';
import { commit, type Tx } from '../../source/store/transaction.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, tempHome } from '../support/cli.js';
import * as c from '../support/capture.js';
import { queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const PROMPTS = [
  'We use pnpm for installing packages in this repository, never npm.',
  'Please fix the failing test in parser.ts',
  'Remember: deployments go through the staging cluster first.',
  'What does "NEAR" OR (this) * mean? col:x ^start',
];

/** Runs `body` on a fresh, migrated core.sqlite of a temporary data home. */
function withCoreStore(name: string, body: (db: ReturnType<typeof openDatabase>) => void): void {
  const home = tempHome(name);
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  try {
    migrate(db, coreSchema);
    body(db);
  } finally {
    db.close();
  }
}

/** One message of driven agent a1 (generation g1): its journal record and its timeline row. */
function agentRow(tx: Tx, messageId: string, role: 'user' | 'assistant', text: string): void {
  const { sequence } = appendJournal(tx, {
    kind: 'test',
    agentId: 'a1',
    generationId: 'g1',
    operationId: null,
    canonicalMessageId: messageId,
    payload: {},
  });
  insertTimeline(tx, {
    messageId,
    role,
    payload: { role, content: [{ type: 'text', text }] },
    agentId: 'a1',
    generationId: 'g1',
    operationId: null,
    sourceJournalSequence: sequence,
  });
}

describe('session search', () => {
  it('finds delivered user turns right after the drain sealed them (porter stems, OR of terms), never assistant text', async () => {
    const home = tempHome('search');
    const session = queueSession(home, null, PROMPTS, {
      answer: (i) => `assistant reply ${i} mentions staging and pnpm deployments`,
    });
    await c.flush(home);
    const db = c.readOnly(home);
    try {
      const hits = sessionSearch(db, { query: 'package installs pnpm' }).results;
      assert.equal(hits.length, 1);
      assert.equal(hits[0]!.turnKey, session.turnKeys[0]);
      assert.equal(hits[0]!.sessionKey, session.sessionKey);
      assert.equal(hits[0]!.client, 'codex');
      assert.match(hits[0]!.snippet, /\[pnpm\]/);
      // "deployment" stems to the same token as "deployments"; only the user's turn is indexed, not the answers.
      const deploy = sessionSearch(db, { query: 'deployment' }).results;
      assert.deepEqual(
        deploy.map((hit) => hit.turnKey),
        [session.turnKeys[2]],
      );
      // OR-joined terms: a turn matching only one word is still found.
      assert.equal(sessionSearch(db, { query: 'staging yarn' }).results.length, 1);
      // FTS5 syntax is only text.
      assert.deepEqual(
        sessionSearch(db, { query: '"NEAR" OR (this) * col:x ^start' }).results.map((hit) => hit.turnKey),
        [session.turnKeys[3]],
      );
      assert.deepEqual(sessionSearch(db, { query: 'the and of' }).results, []);
      assert.equal(sessionSearch(db, { query: 'pnpm', client: 'claude' }).results.length, 0);
      assert.equal(sessionSearch(db, { query: 'pnpm', until: '2000-01-01' }).results.length, 0);
      assert.equal(sessionSearch(db, { query: 'pnpm', since: '2000-01-01' }).results.length, 1);
      // Times are when the user typed it (the rollout's own time, days before this drain), not the seal.
      const [hit] = sessionSearch(db, { query: 'pnpm' }).results;
      const typedMs = Date.parse(hit!.typedAt);
      assert.ok(typedMs < Date.parse(hit!.recordedAt) - 86_400_000, JSON.stringify(hit));
      const typedDay = new Date(typedMs).toISOString().slice(0, 10);
      const nextDay = new Date(typedMs + 86_400_000).toISOString().slice(0, 10);
      assert.equal(sessionSearch(db, { query: 'pnpm', since: typedDay, until: nextDay }).results.length, 1);
      assert.equal(sessionSearch(db, { query: 'pnpm', since: nextDay }).results.length, 0);
    } finally {
      db.close();
    }
  });

  it('the migration back-fills turns sealed before it, once', async () => {
    const home = tempHome('search-backfill');
    const session = queueSession(home, null, PROMPTS);
    await c.flush(home);
    const db = openDatabase(storeFiles(home).core);
    try {
      // Back to a v3 store: undo what v4 (the search index), v6 (a column), v7 (an index) and v8
      // (imports) and v10 (an index) added, as a store sealed before v4 was.
      undoSessionStartStep(db);
      undoImportsStep(db);
      db.exec('DROP TABLE session_search');
      db.exec('DROP INDEX capture_turns_by_recorded_at');
      db.exec('ALTER TABLE capture_activations DROP COLUMN snapshot_pending');
      db.pragma('user_version = 3');
      migrate(db, coreSchema);
      assert.equal(schemaVersion(db), coreSchema.steps.length);
      const hits = sessionSearch(db, { query: 'pnpm' }).results;
      assert.deepEqual(
        hits.map((hit) => hit.turnKey),
        [session.turnKeys[0]],
      );
      assert.equal(db.prepare('SELECT count(*) FROM session_search').pluck().get(), PROMPTS.length);
    } finally {
      db.close();
    }
  });

  it('v9 gives every row of a v8 index the time it was typed, keeping its rowid (the order texts were indexed in)', async () => {
    const home = tempHome('search-typed-at');
    queueSession(home, null, PROMPTS);
    await c.flush(home);
    const db = openDatabase(storeFiles(home).core);
    try {
      commit(db, 'test', (tx) => agentRow(tx, 'user-1', 'user', 'Always run the linter before committing'));
      const rows = () =>
        db.prepare('SELECT rowid, ref, recorded_at_ms, typed_at_ms FROM session_search ORDER BY rowid').all() as Array<{
          rowid: number;
          ref: string;
          recorded_at_ms: number;
          typed_at_ms: number;
        }>;
      const now = rows();
      // Back to v8: the index as v4 made it, holding the same rows under the same rowids.
      db.exec(`
        CREATE VIRTUAL TABLE v8_search USING fts5(body, ref UNINDEXED, client UNINDEXED, session_key UNINDEXED,
          turn_key UNINDEXED, recorded_at_ms UNINDEXED, tokenize = 'porter unicode61');
        INSERT INTO v8_search (rowid, body, ref, client, session_key, turn_key, recorded_at_ms)
          SELECT rowid, body, ref, client, session_key, turn_key, recorded_at_ms FROM session_search;
        DROP TABLE session_search;
        ALTER TABLE v8_search RENAME TO session_search;
      `);
      undoSessionStartStep(db);
      db.pragma('user_version = 8');
      migrate(db, coreSchema);
      assert.deepEqual(rows(), now, 'the same rowids, seal instants and typed times as the writer gives');
      const captured = now.filter((row) => row.ref.startsWith('m:'));
      assert.equal(captured.length, PROMPTS.length);
      for (const row of captured) assert.ok(row.typed_at_ms < row.recorded_at_ms - 86_400_000, 'typed days before');
      const admitted = now.find((row) => row.ref.startsWith('t:'))!;
      assert.equal(admitted.typed_at_ms, admitted.recorded_at_ms, "a driven agent's prompt: typed when admitted");
    } finally {
      db.close();
    }
  });

  it("a driven agent's user rows are indexed in the transaction that admits them; its replies are not", () => {
    withCoreStore('search-pi', (db) => {
      commit(db, 'test', (tx) => {
        agentRow(tx, 'user-1', 'user', 'Always run the linter before committing');
        agentRow(tx, 'assistant-1', 'assistant', 'I will lint before every commit');
      });
      const hits = sessionSearch(db, { query: 'linter commit' }).results;
      assert.deepEqual(
        hits.map((hit) => [hit.client, hit.sessionKey, hit.turnKey]),
        [['pi', 'g1', 'user-1']],
      );
    });
  });

  it('a text said again word for word is one result, and repeats never shorten the page', () => {
    withCoreStore('search-repeats', (db) => {
      const said = [
        ...Array.from({ length: 30 }, () => 'run the tests for the drain again'),
        'The drain seals batches of 64 envelopes; keep 64, the hook latency matters more.',
        ...Array.from({ length: 6 }, (_, i) => `the drain test ${i} times out again`),
      ];
      commit(db, 'test', (tx) => {
        for (const [i, text] of said.entries()) agentRow(tx, `user-${i}`, 'user', text);
      });
      const hits = sessionSearch(db, { query: 'drain tests again', limit: 5 }).results;
      assert.equal(hits.length, 5, 'the page is full although 30 rows repeat one text');
      const texts = hits.map((hit) => said[Number(hit.turnKey.slice('user-'.length))]);
      assert.equal(new Set(texts).size, 5, `distinct texts: ${JSON.stringify(texts)}`);
      const selected = searchSessions(db, { query: 'drain tests again', limit: 100, keepRepeats: true });
      assert.equal(selected.length, said.length, 'extraction selects every matching turn, repeats included');
    });
  });

  it('the CLI prints the MEMORY.md contract with --json, and refuses bad windows and limits with exit 2', async () => {
    const home = tempHome('search-cli');
    mkdirSync(home, { recursive: true });
    queueSession(home, null, PROMPTS);
    await c.flush(home);
    const found = await runCli(['search', 'staging', 'cluster', '--home', home, '--json']);
    assert.equal(found.code, 0, found.stderr);
    const body = JSON.parse(found.stdout) as { results: Array<Record<string, unknown>> };
    assert.equal(body.results.length, 1);
    assert.deepEqual(Object.keys(body.results[0]!).sort(), [
      'client',
      'recordedAt',
      'sessionKey',
      'snippet',
      'turnKey',
      'typedAt',
    ]);
    const injection = await runCliInProcess(['search', 'NEAR(a b)', 'OR', '"', '--home', home, '--json']);
    assert.equal(injection.code, 0, injection.stderr);
    for (const args of [
      ['--limit', '0'],
      ['--limit', '101'],
      ['--since', '2026-13-01'],
      ['--since', '2026-08-02', '--until', '2026-08-01'],
      ['--client', 'vim'],
    ]) {
      const bad = await runCliInProcess(['search', 'pnpm', '--home', home, '--json', ...args]);
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(JSON.parse(bad.stderr).error.message, /--/);
    }
    const text = await runCliInProcess(['search', 'pnpm', '--home', home]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /\[pnpm\]/);
  });
});
