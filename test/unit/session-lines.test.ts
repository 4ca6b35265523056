// The Sessions screen's lines of an opened session: what the user said is shown in full, so a word
// wider than the screen (a URL, a path, a token pasted whole) is split across lines, never cut.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionView } from '../../source/api/capture.js';
import { sessionLines } from '../../source/screens/sessions/session-lines.js';
import { textColumns } from '../../source/text-columns.js';

const url = `https://example.com/${'segment/'.repeat(30)}end-of-the-url`;
const view = {
  session: {
    client: 'codex',
    sessionKey: 'k',
    hostSessionId: 'h',
    state: 'complete',
    origin: 'imported',
    cwd: '/tmp',
    startedAt: '2026-12-03T04:25:01.000Z',
    turns: { settled: 1, failed: 0, interrupted: 0, buffered: 0, incomplete: 0 },
    inbox: 0,
    bodyBytes: 1,
    firstPrompt: 'x',
  },
  turns: [
    {
      turnKey: 't',
      state: 'settled',
      error: null,
      recordedAt: '2026-12-03T04:25:01.000Z',
      typedAt: '2026-12-03T04:25:01.000Z',
      messages: [
        { role: 'user', kind: 'prompt', classification: 'evidence', text: `Read ${url} first.`, timestamp: null },
      ],
      folded: {},
    },
  ],
  revealed: false,
  secretsMasked: 0,
} as unknown as SessionView;

test('a word wider than the screen is split over lines, each within the width, and reads back whole', () => {
  const lines = sessionLines(view, 80, false).map((line) => line.text);
  for (const line of lines) assert.ok(textColumns(line) <= 80, `wider than 80: ${line}`);
  const said = lines
    .slice(lines.indexOf('you:') + 1)
    .map((line) => line.replace(/^ {2}/, ''))
    .join('');
  assert.ok(said.replaceAll(' ', '').includes(url), said);
});
