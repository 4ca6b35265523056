// Paging ends exactly: for item counts around a page boundary (0, 1, 19, 20, 21, 40 with pages of
// 20; sessions: 0, 1, 49, 50, 51, 100 with pages of 50) every page but the last is full and says there is more, the last says there is not, and no
// item is skipped or repeated. An extra empty page when the count is a multiple of the page size,
// or a missing one after a short page, fails here.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { RECOVERY_PAGE_SIZE, STATUS_SESSIONS_MAX } from '../../source/limits.js';
import type { CaptureStatus } from '../../source/api/capture.js';
import type { Page } from '../../source/api/common.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { readJournalPage, readTimelinePage } from '../../source/store/core/history-reads.js';
import { beginGeneration, createAgent } from '../../source/store/core/agents.js';
import { appendJournal } from '../../source/store/core/journal.js';
import { migrate } from '../../source/store/migrations.js';
import { readHeads } from '../../source/store/core/sequences.js';
import { insertTimeline } from '../../source/store/core/timeline.js';
import { commit } from '../../source/store/transaction.js';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, tempHome } from '../support/cli.js';
import { seedSessions } from '../support/recovery-seed.js';

after(() => c.closeStores());

const COUNTS = [0, 1, 19, 20, 21, 40] as const;
const PAGE = 20;

/** Page sizes a keyset pager must produce for `count` items: full pages, then the remainder (one empty page for 0). */
function expectedPages(count: number, size = PAGE): number[] {
  const pages = Array.from({ length: Math.floor(count / size) }, () => size);
  if (count % size > 0 || count === 0) pages.push(count % size);
  return pages;
}

/** `status --json` of `home`, with the given cursor flags. */
async function statusJson(home: string, flags: string[] = []): Promise<CaptureStatus> {
  const result = await runCliInProcess(['status', '--json', '--home', home, ...flags]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as CaptureStatus;
}

describe('recovery pages (status --after-recovery)', { timeout: 180_000 }, () => {
  it(`open counts ${COUNTS.join(', ')}: nextRecoveryId is set on every full page before the last and null only on the true last page`, async () => {
    assert.equal(RECOVERY_PAGE_SIZE, PAGE);
    // 40 isolated sessions, one corrupt transcript each; then items are resolved to reach each count,
    // every other one first, so the open ids have holes the keyset must step over.
    const home = tempHome('page-rec');
    const fixture = c.rolloutFixture('d-failed-turn-http400.jsonl');
    for (let i = 0; i < 40; i++) {
      const t = c.copyTranscript(fixture, `${c.transcriptDir(home)}/${i}`);
      appendFileSync(t, 'not json\n');
      c.replay(home, 'codex', c.hookFiles('codex', 'd'), t, `proc-${i}`, { session_id: `session-${i}` });
    }
    await c.drain(home);
    c.closeStores();
    const db = openDatabase(storeFiles(home).core);
    const open = () =>
      db
        .prepare("SELECT recovery_id FROM recovery_items WHERE state = 'open' ORDER BY recovery_id")
        .pluck()
        .all() as number[];
    assert.equal(open().length, 40);
    const resolveTo = (count: number) => {
      const ids = open();
      const holesFirst = [...ids.filter((_, i) => i % 2 === 1), ...ids.filter((_, i) => i % 2 === 0)];
      for (const id of holesFirst.slice(0, ids.length - count))
        db.prepare("UPDATE recovery_items SET state = 'resolved' WHERE recovery_id = ?").run(id);
      assert.equal(open().length, count);
    };
    const status = (cursor?: string) => statusJson(home, cursor ? ['--after-recovery', cursor] : []);
    try {
      for (const count of [...COUNTS].reverse()) {
        resolveTo(count);
        const sizes: number[] = [];
        const seen: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const s = await status(cursor);
          assert.equal(s.recovery.total, count, `count ${count}: the total is every open item`);
          sizes.push(s.recovery.items.length);
          seen.push(...s.recovery.items.map((item) => item.id));
          const next = s.recovery.nextRecoveryId;
          if (next === null) break;
          assert.equal(next, s.recovery.items.at(-1)?.id, `count ${count}: more continues after the page's last item`);
          assert.ok(
            sizes.length <= expectedPages(count).length,
            `count ${count}: more pages than ${expectedPages(count).length}`,
          );
          cursor = next;
        }
        assert.deepEqual(sizes, expectedPages(count), `count ${count}: page sizes`);
        assert.deepEqual(
          seen,
          open().map((id) => `rec-${id}`),
          `count ${count}: every open item once, in order`,
        );
      }
    } finally {
      db.close();
    }
  });
});

describe('session pages (status --after-session)', { timeout: 180_000 }, () => {
  const size = STATUS_SESSIONS_MAX;
  for (const count of [0, 1, size - 1, size, size + 1, 2 * size]) {
    it(`${count} sessions: newest first, nextSessionKey on every full page before the last, null only on the true last page`, async () => {
      const home = tempHome('page-sessions');
      seedSessions(home, count);
      const sizes: number[] = [];
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const s = await statusJson(home, cursor ? ['--after-session', cursor] : []);
        assert.equal(s.sessionsTotal, count, 'the total is every session');
        sizes.push(s.sessions.length);
        seen.push(...s.sessions.map((session) => session.sessionKey));
        if (s.nextSessionKey === null) break;
        assert.equal(s.nextSessionKey, s.sessions.at(-1)?.sessionKey, "more continues after the page's last session");
        assert.ok(
          sizes.length <= expectedPages(count, size).length,
          `more pages than ${expectedPages(count, size).length}`,
        );
        cursor = s.nextSessionKey;
      }
      assert.deepEqual(sizes, expectedPages(count, size));
      assert.deepEqual(
        seen,
        Array.from({ length: count }, (_, i) => `k${count - 1 - i}`),
        'every session once, newest first',
      );
    });
  }
});

describe('journal and timeline pages', () => {
  function storeWith(count: number): { db: Db; offset: number } {
    const home = tempHome('page-hist');
    mkdirSync(home, { recursive: true });
    const db = openDatabase(storeFiles(home).core);
    migrate(db, coreSchema);
    const agent = commit(db, 'createAgent', (tx) =>
      createAgent(tx, { name: 'a', operationId: 'create-a', agentsRoot: home }),
    );
    const { generation } = commit(db, 'beginGeneration', (tx) => beginGeneration(tx, 'a', 'host-1'));
    // The journal starts at the agent's own rows; the test's rows follow them.
    const offset = readHeads(db).journal;
    for (let i = 0; i < count; i++) {
      commit(db, 'appendTestRow', (tx) => {
        const { sequence } = appendJournal(tx, { kind: 'test.row', payload: { i } });
        insertTimeline(tx, {
          messageId: randomUUID(),
          role: 'user',
          payload: { i },
          agentId: agent.agentId,
          generationId: generation.generation_id,
          operationId: null,
          sourceJournalSequence: sequence,
        });
      });
    }
    return { db, offset };
  }

  /** Reads pages of `PAGE` until an empty page, as `log`/`timeline` and the API's clients do. */
  function pageThrough<Row extends { sequence: number }>(
    read: (after: number) => Page<Row>,
    count: number,
    offset: number,
  ): void {
    const sizes: number[] = [];
    const seen: number[] = [];
    let after = offset;
    for (;;) {
      const page = read(after);
      assert.equal(page.head, offset + count);
      if (page.rows.length === 0) {
        assert.equal(page.nextAfter, after, 'an empty page keeps the position');
        break;
      }
      sizes.push(page.rows.length);
      seen.push(...page.rows.map((row) => row.sequence));
      assert.equal(page.nextAfter, page.rows.at(-1)!.sequence, 'nextAfter is the last row of the page');
      after = page.nextAfter;
      assert.ok(sizes.length <= expectedPages(count).length, `count ${count}: more pages than expected`);
    }
    // Every page before the end is full; the empty page comes right after the rows end.
    assert.deepEqual(
      sizes,
      expectedPages(count).filter((size) => size > 0),
      `count ${count}: page sizes`,
    );
    assert.deepEqual(
      seen,
      Array.from({ length: count }, (_, i) => offset + i + 1),
      `count ${count}: every row once, in order`,
    );
  }

  for (const count of COUNTS) {
    it(`${count} rows: full pages of ${PAGE}, then the remainder, then one empty page (journal and timeline)`, () => {
      const { db, offset } = storeWith(count);
      try {
        pageThrough((after) => readJournalPage(db, { after, limit: PAGE }), count, offset);
        pageThrough((after) => readTimelinePage(db, { after, limit: PAGE }), count, 0);
      } finally {
        db.close();
      }
    });
  }

  it('the CLI reads 40 rows in --limit 20 pages and stops at the empty page, and reads them all without a limit', {
    timeout: 60_000,
  }, async () => {
    const home = tempHome('page-cli');
    mkdirSync(home, { recursive: true });
    const db = openDatabase(storeFiles(home).core);
    migrate(db, coreSchema);
    for (let i = 0; i < 40; i++)
      commit(db, 'appendTestRow', (tx) => appendJournal(tx, { kind: 'test.row', payload: { i } }));
    db.close();
    const page = async (after: number) => {
      const result = await runCliInProcess([
        'log',
        '--json',
        '--limit',
        String(PAGE),
        '--after',
        String(after),
        '--home',
        home,
      ]);
      assert.equal(result.code, 0, result.stderr);
      return JSON.parse(result.stdout) as Page<{ sequence: number }>;
    };
    const sizes: number[] = [];
    for (let after = 0; ; ) {
      const p = await page(after);
      sizes.push(p.rows.length);
      if (p.rows.length === 0) break;
      after = p.nextAfter;
    }
    assert.deepEqual(sizes, [20, 20, 0]);
    const all = await runCli(['log', '--json', '--home', home]);
    const pages = all.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Page<{ sequence: number }>);
    assert.deepEqual(
      pages.flatMap((p) => p.rows.map((row) => row.sequence)),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});
