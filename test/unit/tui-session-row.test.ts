// A row of the Sessions list (session-lines.ts): whatever its turns say — "1 turn" or "12 turns (1
// failed, 2 interrupted)" — the start time sits in the same column on every row, and the row keeps
// what it says of the turns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionSummary } from '../../source/api/capture.js';
import { sessionRow } from '../../source/screens/sessions/session-lines.js';

const session = (turns: Partial<SessionSummary['turns']>, startedAt: string): SessionSummary => ({
  client: 'codex',
  sessionKey: 'k',
  hostSessionId: 'h',
  state: 'complete',
  origin: 'live',
  cwd: '/work/project',
  startedAt,
  turns: { settled: 0, failed: 0, interrupted: 0, buffered: 0, incomplete: 0, ...turns },
  inbox: 0,
  bodyBytes: 0,
  firstPrompt: null,
});

test('the start time is in the same column whatever the turns say', () => {
  const rows = [
    sessionRow(session({ settled: 1 }, '2026-12-03T10:00:00.000Z'), true),
    sessionRow(session({ settled: 11, failed: 1, interrupted: 2 }, '2026-12-02T09:00:00.000Z'), false),
    sessionRow(session({ failed: 1 }, '2026-12-01T08:00:00.000Z'), false),
  ];
  const columns = rows.map((row) => row.search(/2026-12-0\d \d\d:\d\d/));
  assert.ok(
    columns.every((column) => column === columns[0]),
    `start times at columns ${columns.join(', ')}:\n${rows.join('\n')}`,
  );
  assert.match(rows[1]!, /14 turns \(1 failed, 2 interrupted\)/);
  assert.match(rows[0]!, /^› codex/);
});
