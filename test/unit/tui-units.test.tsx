// Pure parts of the TUI: the history reducer's paging and note rules, line editing, key
// bindings and display formatting. No terminal, no host.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Key } from 'ink';
import type { JournalRow } from '../../source/api/history.js';
import type { Page } from '../../source/api/common.js';
import { formatRow } from '../../source/screens/history/history-rows.js';
import {
  canAdvance,
  historyReducer,
  initialHistoryState,
  type HistoryAction,
  type HistoryRow,
  type HistoryState,
  resumedHistory,
} from '../../source/screens/history/use-history-state.js';
import { previewPayload, toShownError, truncate } from '../../source/screens/format.js';
import { commandFor, helpItem, keyLabel, matches, NO_KEY } from '../../source/screens/keyboard/key-bindings.js';
import { editLine, emptyLine } from '../../source/screens/keyboard/line-edit.js';
import { themeFor } from '../../source/screens/widgets/theme.js';
import { CmError } from '../../source/errors.js';
import { render } from 'ink-testing-library';
import { FeedRows } from '../../source/screens/agents/feed-rows.js';
import { wrapLines } from '../../source/screens/integrations/plan-lines.js';
import { textColumns } from '../../source/text-columns.js';

const noKey: Key = NO_KEY;

function row(sequence: number, payload: unknown = { text: `note ${sequence}` }): JournalRow {
  return {
    sequence,
    eventId: `e${sequence}`,
    kind: 'client.note',
    agentId: null,
    generationId: null,
    operationId: null,
    wireStream: null,
    wireOrdinal: null,
    payload,
    canonicalMessageId: null,
    recordedAt: '',
  };
}

/** Answers the state's pending read from a journal of `head` contiguous rows. */
function answer(state: HistoryState, head: number): HistoryState {
  const read = state.read;
  assert.ok(read, 'a read is pending');
  const rows: HistoryRow[] = [];
  for (let sequence = read.after + 1; sequence <= head && rows.length < read.limit; sequence += 1)
    rows.push(row(sequence));
  const page: Page<HistoryRow> = {
    storeId: 's',
    stream: read.stream,
    agentId: null,
    rows,
    nextAfter: rows.at(-1)?.sequence ?? read.after,
    head,
  };
  return historyReducer(state, { type: 'pageLoaded', id: read.id, page });
}

const run = (state: HistoryState, ...actions: HistoryAction[]) => actions.reduce(historyReducer, state);
const shown = (state: HistoryState) => state.page?.rows.map((item) => item.sequence) ?? [];

describe('history reducer', () => {
  test('paging forward and back visits every row once and returns to the same pages', () => {
    let state = answer(initialHistoryState(10), 35);
    const pages = [shown(state)];
    while (canAdvance(state)) {
      state = answer(run(state, { type: 'nextPage' }), 35);
      pages.push(shown(state));
    }
    assert.deepEqual(
      pages.flat(),
      Array.from({ length: 35 }, (_, index) => index + 1),
    );
    assert.deepEqual(state.pageStarts, [0, 10, 20]);
    for (let index = pages.length - 2; index >= 0; index -= 1) {
      state = answer(run(state, { type: 'previousPage' }), 35);
      assert.deepEqual(shown(state), pages[index]);
    }
    assert.equal(run(state, { type: 'previousPage' }), state, 'nothing before the first page');
  });

  test('next at the end re-reads the page and picks up rows that arrived since', () => {
    let state = answer(initialHistoryState(10), 4);
    state = answer(run(state, { type: 'nextPage' }), 6);
    assert.deepEqual(shown(state), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(state.pageStarts, []);
  });

  test('keys while a page loads do not skip: next waits for the page to know where it ends', () => {
    const state = run(initialHistoryState(10), { type: 'nextPage' }, { type: 'nextPage' });
    assert.equal(state.after, 0);
    assert.deepEqual(state.pageStarts, []);
  });

  test('an answer to a superseded read is dropped', () => {
    const first = initialHistoryState(10);
    const stale = first.read!;
    const toggled = run(first, { type: 'toggleStream' });
    const page: Page<HistoryRow> = {
      storeId: 's',
      stream: 'journal',
      agentId: null,
      rows: [row(1)],
      nextAfter: 1,
      head: 1,
    };
    assert.equal(historyReducer(toggled, { type: 'pageLoaded', id: stale.id, page }), toggled);
    assert.equal(toggled.stream, 'timeline');
  });

  test('follow advances while behind the head and stops on manual paging', () => {
    let state = answer(initialHistoryState(10), 25);
    state = run(state, { type: 'toggleFollow' });
    assert.equal(state.read?.quiet, true);
    state = answer(state, 25);
    state = answer(run(state, { type: 'followStep' }), 25);
    state = answer(run(state, { type: 'followStep' }), 25);
    assert.deepEqual(shown(state), [21, 22, 23, 24, 25]);
    assert.equal(canAdvance(state), false);
    assert.equal(run(state, { type: 'previousPage' }).following, false);
  });

  test('a retried note keeps its operation ID; different text gets a new one', () => {
    let state = run(
      initialHistoryState(10),
      { type: 'openNote' },
      { type: 'editNote', edit: { type: 'insert', text: 'hi' } },
    );
    state = run(state, { type: 'submitNote', freshOperationId: 'op-1' });
    assert.deepEqual(state.note.submitting, { text: 'hi', operationId: 'op-1' });
    state = run(state, { type: 'noteFailed', error: { code: 'storage_failed', message: 'x' } });
    state = run(state, { type: 'submitNote', freshOperationId: 'op-2' });
    assert.equal(state.note.submitting?.operationId, 'op-1');
    state = run(state, { type: 'noteFailed', error: { code: 'storage_failed', message: 'x' } });
    state = run(
      state,
      { type: 'editNote', edit: { type: 'insert', text: '!' } },
      { type: 'submitNote', freshOperationId: 'op-3' },
    );
    assert.equal(state.note.submitting?.operationId, 'op-3');
    const saved = run(state, {
      type: 'noteSaved',
      receipt: { storeId: 's', operationId: 'op-3', sequence: 7, replayed: false },
    });
    assert.equal(saved.note.open, false);
    assert.equal(saved.note.receipt?.sequence, 7);
    assert.equal(saved.read?.quiet, true, 'the page is re-read so the note shows up');
  });

  test('shown again after another screen, a note whose save was in flight is saved again under its operation ID', () => {
    const inFlight = run(
      initialHistoryState(10),
      { type: 'openNote' },
      { type: 'editNote', edit: { type: 'insert', text: 'kept' } },
      { type: 'submitNote', freshOperationId: 'op-1' },
    );
    const resumed = resumedHistory(inFlight);
    assert.equal(resumed.note.submitting, null, 'the answer went with the screen');
    assert.equal(resumed.note.line.text, 'kept');
    assert.notEqual(resumed.read, null, 'the page is read again');
    assert.equal(resumed.read?.quiet, true);
    assert.equal(run(resumed, { type: 'submitNote', freshOperationId: 'op-2' }).note.submitting?.operationId, 'op-1');
  });

  test('an empty note is refused on screen, and Esc waits for a note in flight', () => {
    const empty = run(initialHistoryState(10), { type: 'openNote' }, { type: 'submitNote', freshOperationId: 'op' });
    assert.equal(empty.note.submitting, null);
    assert.equal(empty.note.error?.code, 'invalid_input');
    const inFlight = run(
      initialHistoryState(10),
      { type: 'openNote' },
      { type: 'editNote', edit: { type: 'insert', text: 'x' } },
      { type: 'submitNote', freshOperationId: 'op' },
    );
    assert.equal(run(inFlight, { type: 'cancelNote' }).note.open, true);
  });
});

describe('line editing', () => {
  test('insert, move, delete by code point; control characters become spaces', () => {
    let line = editLine(emptyLine, { type: 'insert', text: 'a😀c' });
    line = editLine(line, { type: 'cursorLeft' });
    line = editLine(line, { type: 'deleteBackward' });
    assert.deepEqual(line, { text: 'ac', cursor: 1 });
    line = editLine(line, { type: 'insert', text: 'x\ny' });
    assert.deepEqual(line, { text: 'ax yc', cursor: 4 });
    assert.deepEqual(editLine(line, { type: 'clear' }), emptyLine);
    assert.equal(editLine(emptyLine, { type: 'deleteBackward' }), emptyLine);
  });
});

describe('key bindings', () => {
  test('commands match their keys, exactly', () => {
    assert.ok(matches('quit', 'q', noKey));
    assert.ok(!matches('quit', 'Q', noKey));
    assert.ok(!matches('quit', 'q', { ...noKey, meta: true }));
    assert.ok(matches('interrupt', 'c', { ...noKey, ctrl: true }));
    assert.ok(!matches('openNote', 'n', { ...noKey, ctrl: true }));
    assert.equal(commandFor(['nextPage', 'previousPage'], '', { ...noKey, pageDown: true }), 'nextPage');
    assert.equal(commandFor(['nextPage', 'previousPage'], 'b', noKey), 'previousPage');
    assert.equal(keyLabel('nextPage'), 'PgDn/space/→');
  });

  test('help items are written from the table: first keys, or all; arrows run together', () => {
    assert.deepEqual(helpItem('select', ['selectUp', 'selectDown']), { keys: '↑↓', label: 'select' });
    assert.deepEqual(helpItem('page', ['nextPage', 'previousPage']), { keys: 'PgDn/PgUp', label: 'page' });
    assert.deepEqual(helpItem('field', ['nextField', 'previousField'], 'all'), { keys: 'Tab/↑↓', label: 'field' });
    assert.deepEqual(helpItem('scroll', ['selectUp', 'selectDown', 'previousPage', 'nextPage']), {
      keys: '↑↓/PgUp/PgDn',
      label: 'scroll',
    });
    assert.deepEqual(helpItem('cancel', ['decline'], 'all'), { keys: 'n/Esc', label: 'cancel' });
  });
});

describe('display formatting', () => {
  test('previews are one line and rows never exceed the width', () => {
    assert.equal(previewPayload({ text: 'two\nlines' }), 'two lines');
    assert.equal(previewPayload({ a: 1 }), '{"a":1}');
    assert.equal(previewPayload('x'.repeat(100_000)).length, 512);
    assert.equal(truncate('abcdef', 4), 'abc…');
    const line = formatRow(row(12345, { text: 'y'.repeat(500) }), 6, 80);
    assert.equal(Array.from(line).length, 80);
    assert.ok(line.endsWith('…'));
  });

  test('errors keep their code, one line for the error line and the text as written; anything else is internal', () => {
    assert.deepEqual(toShownError(new CmError('not_found', 'No such\nthing.')), {
      code: 'not_found',
      message: 'No such thing.',
      full: 'No such\nthing.',
    });
    assert.deepEqual(toShownError('boom'), { code: 'internal', message: 'boom' });
  });

  test('NO_COLOR turns every color off', () => {
    assert.deepEqual(Object.values(themeFor({ NO_COLOR: '1' })), [undefined, undefined, undefined, undefined]);
    assert.ok(themeFor({}).error);
    assert.ok(themeFor({ NO_COLOR: '' }).error, 'an empty NO_COLOR does not count');
  });
});

describe('agent feed rows', () => {
  const row = (sequence: number, role: string, payload: unknown) => ({
    sequence,
    messageId: `m-${sequence}`,
    agentId: 'a',
    generationId: 'g',
    operationId: 'op',
    role,
    payload,
    sourceJournalSequence: sequence,
    recordedAt: '2026-01-01T00:00:00.000Z',
  });

  test('an empty assistant message is left out; an aborted or failed one says so', () => {
    const rows = [
      row(1, 'user', { role: 'user', content: 'hi' }),
      row(2, 'assistant', { role: 'assistant', content: [], stopReason: 'stop' }),
      row(3, 'assistant', { role: 'assistant', content: [{ type: 'text', text: 'Hal' }], stopReason: 'aborted' }),
      row(4, 'assistant', { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'Connection error.' }),
    ];
    const view = render(<FeedRows rows={rows} chosen={null} height={10} columns={80} emptyText="none" />);
    const frame = view.lastFrame() ?? '';
    view.unmount();
    assert.doesNotMatch(frame, /^\s*2 /m, 'the empty row is not content');
    assert.match(frame, /3 {2}assistant\s+Hal \[aborted\]/);
    assert.match(frame, /4 {2}assistant\s+\[error: Connection error\.\]/);
  });
});

describe('integration panel lines', () => {
  test('wrap at word boundaries; a command starts its own line and is never broken at a space', () => {
    const command = "env -u NODE_EXTRA_CA_CERTS '/opt/node/bin/node' '/home/me/cm/bin/common-memory.cjs' hook claude";
    const prose = 'Codex runs these hooks only once you trust them: open Codex, then run `/hooks trust all` there.';
    const lines = wrapLines([`each hook runs: ${command}`, prose], 60, [command]).map((line) => line.text);
    for (const line of lines) assert.ok(textColumns(line) <= 60, `wider than 60: ${line}`);
    const start = lines.findIndex((line) => line.startsWith('env -u'));
    assert.ok(start > 0, 'the command starts a line of its own');
    assert.equal(lines.slice(start, start + 2).join(''), command, 'continued only where it is wider than 60');
    const rest = [...lines.slice(0, start), ...lines.slice(start + 2)].join(' ');
    const words = (text: string) => text.split(/\s+/).filter(Boolean);
    assert.deepEqual(words(rest), words(`each hook runs: ${prose}`), 'no word of the prose was cut');
    assert.ok(
      lines.some((line) => line.includes('`/hooks trust all`')),
      'a backticked command stays together',
    );
  });

  test("an indented line (a report's item) continues under its own text, as the CLI prints it", () => {
    const item = '  /home/user/project: 1 session(s) — no longer exists: its memory binds to your user scope';
    const lines = wrapLines(
      [item, 'would import from Claude Code: 1 session(s), 1 turn(s), 0.0 MB in 1 file(s)'],
      60,
    ).map((line) => line.text);
    assert.deepEqual(lines, [
      '  /home/user/project: 1 session(s) — no longer exists: its',
      '    memory binds to your user scope',
      'would import from Claude Code: 1 session(s), 1 turn(s), 0.0',
      'MB in 1 file(s)',
    ]);
  });
});
