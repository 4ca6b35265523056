// Every input-guarding limit of limits.ts at its exact edge: exactly at the limit is accepted, one
// byte (or row, or character) over is refused. Texts are multi-byte UTF-8 so that a limit in bytes
// can never pass as a limit in UTF-16 units: at the edge, the UTF-16 length is about half the bytes.
// Each limit goes through the entry point a user or host reaches: the CLI, the HTTP API, the hook.
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { CodexRolloutParser } from '../../source/hosts/codex/rollout-parser.js';
import { CommandEncodingError, encodePrompt } from '../../source/hosts/pi/prompt-encoding.js';
import {
  CAPACITY_ENV,
  HOOK_STDIN_MAX_BYTES,
  HOOK_TAIL_MAX_BYTES,
  OPERATION_ID_MAX_CHARS,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  PAGE_MAX_BYTES,
  RECORD_MAX_BYTES,
  REQUEST_BODY_MAX_BYTES,
  SEQUENCE_MAX,
  TRANSCRIPT_LINE_MAX_BYTES,
} from '../../source/limits.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { readJournalPage } from '../../source/store/core/history-reads.js';
import { migrate } from '../../source/store/migrations.js';
import { appendNote } from '../../source/store/core/notes.js';
import { readStoreId } from '../../source/store/core/sequences.js';
import { commit } from '../../source/store/transaction.js';
import * as c from '../support/capture.js';
import { runCli, startHost, stopHost, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

after(() => c.closeStores());

function openStore(home: string): Db {
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).core);
  migrate(db, coreSchema);
  return db;
}

const appendNoteDirect = (db: Db, text: string) =>
  commit(db, 'appendNote', (tx) => appendNote(tx, readStoreId(db), { text }));

/**
 * A string of exactly `bytes` UTF-8 bytes, mostly 4-byte characters (2 UTF-16 units each), then
 * 3- and 2-byte ones, with ASCII only for the remainder.
 */
export function utf8OfBytes(bytes: number): string {
  const wide = Math.floor((bytes - 5) / 4);
  let text = '\u{1F600}'.repeat(Math.max(0, wide)) + '\u20AC' + '\u00E9';
  const rest = bytes - Buffer.byteLength(text);
  assert.ok(rest >= 0, `cannot build ${bytes} bytes`);
  text += 'x'.repeat(rest);
  assert.equal(Buffer.byteLength(text), bytes);
  return text;
}

/** A note text whose journal record (`{"text":…}`) is exactly `bytes` long. */
function noteOfRecordBytes(bytes: number): string {
  const text = utf8OfBytes(bytes - Buffer.byteLength(JSON.stringify({ text: '' })));
  assert.equal(Buffer.byteLength(JSON.stringify({ text })), bytes);
  assert.ok(
    JSON.stringify({ text }).length < RECORD_MAX_BYTES * 0.6,
    'in UTF-16 units the record is far under the limit',
  );
  return text;
}

/**
 * The journal's notes (a CLI without a host also journals its short host start and stop), read by
 * the CLI in-process: the count is the check here, not the process that reads it. (Commands that
 * write stay spawned: in-process they start the host's worker threads on the TypeScript sources,
 * which costs more than loading the bundle.)
 */
const notes = async (home: string): Promise<number> => {
  const result = await runCliInProcess(['log', '--json', '--home', home]);
  assert.equal(result.code, 0, result.stderr);
  const pages = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { rows: Array<{ kind: string }> });
  return pages.flatMap((page) => page.rows).filter((row) => row.kind === 'client.note').length;
};

const errorCode = (stderr: string): string =>
  (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code;

async function assertRecordEdge(home: string): Promise<void> {
  const exact = noteOfRecordBytes(RECORD_MAX_BYTES);
  const ok = await runCli(['note', '-', '--json', '--home', home], { input: exact });
  assert.equal(ok.code, 0, ok.stderr);
  const { sequence } = JSON.parse(ok.stdout) as { sequence: number };
  const page = await runCliInProcess([
    'log',
    '--json',
    '--after',
    String(sequence - 1),
    '--limit',
    '1',
    '--home',
    home,
  ]);
  const row = (JSON.parse(page.stdout) as { rows: Array<{ payload: { text: string } }> }).rows[0]!;
  assert.equal(row.payload.text, exact, 'the note at the limit is stored byte for byte');

  const before = await notes(home);
  const over = await runCli(['note', '-', '--json', '--home', home], {
    input: noteOfRecordBytes(RECORD_MAX_BYTES + 1),
  });
  assert.equal(over.code, 10, over.stderr);
  assert.equal(errorCode(over.stderr), 'limit_exceeded');
  assert.match(over.stderr, new RegExp(`${RECORD_MAX_BYTES + 1} bytes encoded`));
  assert.equal(await notes(home), before, 'nothing was written');
}

describe('the record limit (RECORD_MAX_BYTES), in UTF-8 bytes', { timeout: 60_000 }, () => {
  it('note without a host: a record of exactly the limit is kept, one byte more is refused with exit 10', async () => {
    await assertRecordEdge(tempHome('lim-rec'));
  });

  it('note through a running host (HTTP API): the same edge', async () => {
    const home = tempHome('lim-rec-host');
    const { child } = await startHost(home);
    try {
      await assertRecordEdge(home);
    } finally {
      await stopHost(child);
    }
  });

  it('a prompt command for pi: exactly the limit is written, one byte more is refused', () => {
    const overhead = Buffer.byteLength(encodePrompt('', 'p').line) - 1; // the LF is not part of the record
    const exact = encodePrompt(utf8OfBytes(RECORD_MAX_BYTES - overhead), 'p');
    assert.equal(Buffer.byteLength(exact.line), RECORD_MAX_BYTES + 1);
    assert.throws(() => encodePrompt(utf8OfBytes(RECORD_MAX_BYTES - overhead + 1), 'p'), CommandEncodingError);
  });
});

/** POSTs raw bytes to the running host's API with its bearer token. */
function post(home: string, path: string, body: Buffer): Promise<{ status: number; body: string }> {
  const info = JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')) as { port: number; token: string };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: info.port,
        path,
        method: 'POST',
        headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // The server may answer 413 and close before it read everything: that answer is what counts.
    req.on('error', reject);
    req.end(body);
  });
}

describe('the request body limit (REQUEST_BODY_MAX_BYTES)', { timeout: 60_000 }, () => {
  it('a body of exactly the limit is read and the note written; one byte more is refused with 413 and writes nothing', async () => {
    const home = tempHome('lim-body');
    const { child } = await startHost(home);
    try {
      // JSON whitespace pads the body without growing the record.
      const bodyOf = (bytes: number, operationId: string) => {
        const json = JSON.stringify({ text: 'pad \u00E9\u{1F600}', operationId });
        return Buffer.from(json.slice(0, -1) + ' '.repeat(bytes - Buffer.byteLength(json)) + '}');
      };
      const exact = bodyOf(REQUEST_BODY_MAX_BYTES, 'op-exact');
      assert.equal(exact.length, REQUEST_BODY_MAX_BYTES);
      const ok = await post(home, '/v1/notes', exact);
      assert.equal(ok.status, 201, ok.body);
      const before = await notes(home);
      const over = await post(home, '/v1/notes', bodyOf(REQUEST_BODY_MAX_BYTES + 1, 'op-over'));
      assert.equal(over.status, 413, over.body);
      assert.equal((JSON.parse(over.body) as { error: { code: string } }).error.code, 'limit_exceeded');
      assert.equal(await notes(home), before, 'nothing was written');
    } finally {
      await stopHost(child);
    }
  });
});

describe('hook limits, through the real hook process', { timeout: 60_000 }, () => {
  const promptFile = c.hookFiles('codex', 'b').find((file) => file.endsWith('UserPromptSubmit.json'))!;
  const inbox = (home: string) => {
    const db = openDatabase(storeFiles(home).core, { readonly: true });
    try {
      return db
        .prepare('SELECT event, tail_state AS tailState, tail_to - tail_from AS tailBytes FROM inbox ORDER BY id')
        .all() as Array<{ event: string; tailState: string; tailBytes: number }>;
    } finally {
      db.close();
    }
  };
  const hookErrors = (home: string): Array<{ code: string; quarantined?: string }> => {
    try {
      return readFileSync(storeFiles(home).hookErrors, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    } catch {
      return [];
    }
  };

  it('HOOK_STDIN_MAX_BYTES: a payload of exactly the limit is one envelope; one byte more is refused, recorded, and exits 0', async () => {
    // The prompt is multi-byte; JSON whitespace after the object pads the payload to size.
    const payloadOf = (bytes: number) => {
      const json = c.payloadFor(promptFile, null, { prompt: 'h\u00E9llo \u{1F600}' });
      return Buffer.from(json + ' '.repeat(bytes - Buffer.byteLength(json)));
    };
    const home = tempHome('lim-stdin');
    const exact = await c.hookBin(home, 'codex', payloadOf(HOOK_STDIN_MAX_BYTES), 'proc-1');
    assert.equal(exact.code, 0, exact.stderr);
    assert.deepEqual(hookErrors(home), []);
    assert.deepEqual(
      inbox(home).map((row) => row.event),
      ['UserPromptSubmit'],
    );

    const over = await c.hookBin(home, 'codex', payloadOf(HOOK_STDIN_MAX_BYTES + 1), 'proc-1');
    assert.equal(over.code, 0, 'the agent is never blocked');
    assert.deepEqual(
      hookErrors(home).map((failure) => [failure.code, failure.quarantined]),
      [['limit_exceeded', undefined]],
      'over the limit nothing is kept, not even in quarantine',
    );
    assert.equal(inbox(home).length, 1, 'no envelope for the oversized payload');
  });

  it('HOOK_TAIL_MAX_BYTES: a tail of exactly the limit is copied whole; one byte more is an over-limit envelope', async () => {
    const start = c.hookFiles('codex', 'b').find((file) => file.endsWith('SessionStart.json'))!;
    const stop = c.hookFiles('codex', 'b').find((file) => file.endsWith('Stop.json'))!;
    const tailOf = async (bytes: number) => {
      const home = tempHome('lim-tail');
      const transcript = join(c.transcriptDir(home), 'rollout.jsonl');
      mkdirSync(c.transcriptDir(home), { recursive: true });
      writeFileSync(transcript, '');
      assert.equal((await c.hookBin(home, 'codex', c.payloadFor(start, transcript), 'proc-1')).code, 0);
      // Lines of multi-byte text; the last line ends exactly at `bytes`.
      const line = `${JSON.stringify({ pad: utf8OfBytes(1000) })}\n`;
      const lines = Math.floor(bytes / Buffer.byteLength(line)) - 1;
      const last = bytes - lines * Buffer.byteLength(line) - Buffer.byteLength('{"pad":""}\n');
      appendFileSync(transcript, line.repeat(lines) + `${JSON.stringify({ pad: utf8OfBytes(last) })}\n`);
      assert.equal(readFileSync(transcript).length, bytes);
      assert.equal((await c.hookBin(home, 'codex', c.payloadFor(stop, transcript), 'proc-1')).code, 0);
      return inbox(home).find((row) => row.event === 'Stop')!;
    };
    assert.deepEqual(await tailOf(HOOK_TAIL_MAX_BYTES), {
      event: 'Stop',
      tailState: 'captured',
      tailBytes: HOOK_TAIL_MAX_BYTES,
    });
    assert.deepEqual(await tailOf(HOOK_TAIL_MAX_BYTES + 1), { event: 'Stop', tailState: 'over_limit', tailBytes: 0 });
  });
});

describe('transcript line limit (TRANSCRIPT_LINE_MAX_BYTES), in the parser the drain runs', () => {
  const lineOf = (bytes: number) => `{"pad":"${utf8OfBytes(bytes - Buffer.byteLength('{"pad":""}'))}"}`;
  const failure = (bytes: Buffer) => {
    return new CodexRolloutParser().feed(bytes).failure?.code ?? null;
  };

  it('a terminated line of exactly the limit is parsed (and judged on its content); one byte more is transcript_line_too_long', () => {
    assert.equal(failure(Buffer.from(`${lineOf(TRANSCRIPT_LINE_MAX_BYTES)}\n`)), 'transcript_invalid_record');
    assert.equal(failure(Buffer.from(`${lineOf(TRANSCRIPT_LINE_MAX_BYTES + 1)}\n`)), 'transcript_line_too_long');
  });

  it('an unterminated tail of exactly the limit waits for its LF; one byte more fails at once', () => {
    assert.equal(failure(Buffer.from(lineOf(TRANSCRIPT_LINE_MAX_BYTES))), null);
    assert.equal(failure(Buffer.from(lineOf(TRANSCRIPT_LINE_MAX_BYTES + 1))), 'transcript_line_too_long');
  });

  it('the failure names the limit, and a line cut off by the limit is not called unterminated', () => {
    const detail = (bytes: Buffer) => new CodexRolloutParser().feed(bytes).failure?.detail;
    // A line whose newline comes after the limit in the file (import reads on in chunks) is too
    // long, whatever the client wrote after it: the words say what was found, and the bound.
    const tail = detail(Buffer.from(lineOf(TRANSCRIPT_LINE_MAX_BYTES + 1)));
    assert.equal(
      tail,
      `line over the ${TRANSCRIPT_LINE_MAX_BYTES}-byte limit (no newline in its first ${TRANSCRIPT_LINE_MAX_BYTES} bytes)`,
    );
    assert.doesNotMatch(tail!, /unterminated/);
    assert.equal(
      detail(Buffer.from(`${lineOf(TRANSCRIPT_LINE_MAX_BYTES + 1)}\n`)),
      `line over the ${TRANSCRIPT_LINE_MAX_BYTES}-byte limit`,
    );
  });
});

describe('counted limits through the CLI', { timeout: 60_000 }, () => {
  it(`page rows: --limit ${PAGE_LIMIT_MIN} and ${PAGE_LIMIT_MAX} are accepted, ${PAGE_LIMIT_MIN - 1} and ${PAGE_LIMIT_MAX + 1} are usage errors`, async () => {
    const home = tempHome('lim-page');
    const db = openStore(home);
    for (let i = 0; i < PAGE_LIMIT_MAX + 1; i++) appendNoteDirect(db, `n\u00E9${i}`);
    db.close();
    const rows = async (limit: number) => {
      const result = await runCliInProcess(['log', '--json', '--limit', String(limit), '--home', home]);
      return result.code === 0 ? (JSON.parse(result.stdout) as { rows: unknown[] }).rows.length : result.code;
    };
    assert.equal(await rows(PAGE_LIMIT_MIN), PAGE_LIMIT_MIN);
    assert.equal(await rows(PAGE_LIMIT_MAX), PAGE_LIMIT_MAX);
    assert.equal(await rows(PAGE_LIMIT_MIN - 1), 2);
    assert.equal(await rows(PAGE_LIMIT_MAX + 1), 2);
  });

  it(`operation IDs: ${OPERATION_ID_MAX_CHARS} characters are accepted, ${OPERATION_ID_MAX_CHARS + 1} are refused`, async () => {
    const home = tempHome('lim-op');
    const note = (id: string) => runCli(['note', 'x', '--operation-id', id, '--json', '--home', home]);
    const ok = await note('a'.repeat(OPERATION_ID_MAX_CHARS));
    assert.equal(ok.code, 0, ok.stderr);
    const over = await note('a'.repeat(OPERATION_ID_MAX_CHARS + 1));
    assert.equal(over.code, 2, over.stderr);
    assert.equal(errorCode(over.stderr), 'invalid_input');
  });
});

describe('agent names (AGENT_NAME: 1 to 64 characters)', { timeout: 60_000 }, () => {
  it('a name of 64 characters is created, 65 are refused', async () => {
    const home = tempHome('lim-name');
    const create = (name: string) => runCli(['agent', 'create', name, '--json', '--home', home]);
    const ok = await create('a'.repeat(64));
    assert.equal(ok.code, 0, ok.stderr);
    const over = await create('b'.repeat(65));
    assert.equal(over.code, 2, over.stderr);
    assert.equal(errorCode(over.stderr), 'invalid_input');
  });
});

describe('page bytes (PAGE_MAX_BYTES)', () => {
  it('rows whose page encoding is exactly the limit share one page; one byte more moves the last row to the next page', () => {
    // Nine multi-byte notes (eight of nearly a record each, the ninth fills the rest); the page's encoding is 2 ("[]") plus each row's JSON and a separator.
    const pageBytes = (rows: unknown[]) =>
      2 + rows.reduce<number>((sum, row) => sum + Buffer.byteLength(JSON.stringify(row)) + 1, 0);
    const notes = 9;
    // The eight large notes are the same for both layouts: written once, and each layout gets a copy
    // of that store (closed, so its file holds everything) to add its own last note to.
    const base = tempHome('lim-pagebytes');
    const firstRows: unknown[] = [];
    {
      const db = openStore(base);
      for (let i = 0; i < notes - 1; i++) {
        appendNoteDirect(db, utf8OfBytes(RECORD_MAX_BYTES - 1024));
        firstRows.push(readJournalPage(db, { after: i, limit: 1 }).rows[0]);
      }
      db.close();
    }
    const layout = (extra: number) => {
      const home = tempHome('lim-pagebytes');
      mkdirSync(home, { recursive: true });
      copyFileSync(storeFiles(base).core, storeFiles(home).core);
      const db = openStore(home);
      assert.deepEqual(
        readJournalPage(db, { after: 0, limit: PAGE_LIMIT_MAX }).rows,
        firstRows,
        'the copy holds the eight notes',
      );
      // The last note fills the page to exactly PAGE_MAX_BYTES + extra: a row like the previous one with
      // its own position and a five-byte text is measured, and the text grown by the room left.
      const probe = { ...(firstRows[notes - 2] as object), sequence: notes, payload: { text: 'probe' } };
      const room = PAGE_MAX_BYTES + extra - pageBytes([...firstRows, probe]);
      assert.ok(room > 0 && room < RECORD_MAX_BYTES, `room ${room}`);
      appendNoteDirect(db, utf8OfBytes(Buffer.byteLength('probe') + room));
      const page = readJournalPage(db, { after: 0, limit: PAGE_LIMIT_MAX });
      db.close();
      return { page, all: pageBytes(page.rows) };
    };
    const exact = layout(0);
    assert.equal(exact.page.rows.length, 9);
    assert.equal(exact.all, PAGE_MAX_BYTES);
    const over = layout(1);
    assert.equal(over.page.rows.length, 8, 'the row that would pass the limit starts the next page');
  });
});

describe('sequences (SEQUENCE_MAX)', () => {
  it('the journal takes position SEQUENCE_MAX and refuses the one after it', () => {
    const db = openStore(tempHome('lim-seq'));
    db.prepare("UPDATE heads SET head = ? WHERE stream = 'journal'").run(SEQUENCE_MAX - 1);
    assert.equal(appendNoteDirect(db, '\u00E9').sequence, SEQUENCE_MAX);
    assert.throws(
      () => appendNoteDirect(db, '\u00E9\u00E9'),
      (error: { code?: string }) => error.code === 'counter_exhausted',
    );
  });
});

describe('capture capacity (SESSION_BODY_MAX_BYTES and TOTAL_BODY_MAX_BYTES, via their override)', {
  timeout: 60_000,
}, () => {
  it('bodies of exactly the session (or total) capacity are sealed; one byte less capacity rolls the step back', async () => {
    // The multi-byte prompt of the recorded tool turn; the body size is measured with the default capacity.
    const typed = 'TOOL: run echo h\u00E9llo \u{1F600}';
    // A prompt of another session that no transcript has delivered yet: its body is held pending.
    const waiting = '\u00E9\u{1F600}'.repeat(50);
    const prepare = (withWaiting = false) => {
      const home = tempHome('lim-cap');
      const t = c.copyTranscript(c.rolloutFixture('b-tool-call-exec-command.jsonl'), c.transcriptDir(home));
      const text = readFileSync(t, 'utf8').split('TOOL: run echo hi').join(typed);
      writeFileSync(t, text);
      const files = c.hookFiles('codex', 'b');
      for (const file of files)
        c.hookInProcess(
          home,
          'codex',
          c.payloadFor(file, t, file.endsWith('UserPromptSubmit.json') ? { prompt: typed } : {}),
          'proc',
        );
      // After the session's hooks, so that its step is drained first: unconsumed tails count too.
      if (withWaiting) {
        const prompt = files.find((file) => file.endsWith('UserPromptSubmit.json'))!;
        c.hookInProcess(home, 'codex', c.payloadFor(prompt, null, { prompt: waiting, session_id: 'waiting' }), 'w');
      }
      return home;
    };
    const measured = prepare();
    assert.equal((await c.flush(measured)).complete, true);
    const bodyBytes = (await c.status(measured)).sessions[0]!.bodyBytes;
    assert.ok(bodyBytes > 0);

    const withCapacity = async (session: number, total = 64 * 1024 * 1024, withWaiting = false) => {
      process.env[CAPACITY_ENV] = `${session}:${total}`;
      try {
        return await c.flush(prepare(withWaiting)).then(
          (report) => report.complete,
          (error: { code?: string }) => error.code,
        );
      } finally {
        delete process.env[CAPACITY_ENV];
      }
    };
    assert.equal(await withCapacity(bodyBytes), true);
    assert.equal(await withCapacity(bodyBytes - 1), 'limit_exceeded');
    // The store's total (TOTAL_BODY_MAX_BYTES) at the same edge: one session's bodies are the whole store's.
    assert.equal(await withCapacity(8 * 1024 * 1024, bodyBytes), true);
    assert.equal(await withCapacity(8 * 1024 * 1024, bodyBytes - 1), 'limit_exceeded');
    // A pending prompt counts in the total by its UTF-8 bytes (6 per pair here), not its characters.
    const held = bodyBytes + Buffer.byteLength(waiting);
    assert.equal(await withCapacity(8 * 1024 * 1024, held, true), true);
    assert.equal(await withCapacity(8 * 1024 * 1024, held - 1, true), 'limit_exceeded');
  });
});
