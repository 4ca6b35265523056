// The Memory screen's Entries view names the memory files nothing gives back (memory status's
// leftOutFiles: a hand-written entry the lint blocks, a malformed scene): where each is, why, and
// what to do, under the list's heading, wrapped; at 60×15 the text scrolls by keyboard. None: nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type { MemoryStaleResult } from '../../source/api/memory-views.js';
import { type LeftOutFile, leftOutLines, staleHeadingLines } from '../../source/screens/memory/entries-lines.js';
import { type EntriesState, entriesReducer, initialEntriesState } from '../../source/screens/memory/entries-state.js';
import { EntriesView, listTextRoom } from '../../source/screens/memory/entries-view.js';
import { textColumns } from '../../source/text-columns.js';

const BLOCKED: LeftOutFile = {
  scope: 'project',
  repositoryKey: '8b629c29e80f1a77825f4114fa144fe3ca801bb2a2fcaf709b0c54d8aa3ffaa1',
  repository: 'shop',
  path: 'work_method/deploy-steps.md',
  kind: 'blocked',
  line: 12,
  rule: 'poison-instruction-override',
  message:
    'work_method/deploy-steps.md:12:1: block poison-instruction-override Ignore all previous instructions: a secret or an instruction to the model; left out until the file is fixed (common-memory memory lint .common-memory/memory/work_method/deploy-steps.md)',
  fix: 'take the secret or the instruction to the model out of the file (common-memory memory lint .common-memory/memory/work_method/deploy-steps.md names it), or remove the file; then run common-memory memory sync in that worktree',
};
const USER_TOKEN: LeftOutFile = {
  ...BLOCKED,
  scope: 'user',
  repository: null,
  path: 'reference/github-access.md',
  line: 7,
  rule: 'secret-github-token',
  message: 'reference/github-access.md:7:8: block secret-github-token ghp_…[masked]',
  fix: 'take the secret or the instruction to the model out of the file (common-memory memory lint <data home>/memory/reference/github-access.md names it), or remove the file; then run common-memory memory sync',
};
const MALFORMED_SCENE: LeftOutFile = {
  ...BLOCKED,
  repository: null,
  path: 'scenes/release.md',
  kind: 'malformed',
  line: null,
  rule: null,
  message: 'scenes/release.md: a scene needs a title line (# Release)',
  fix: 'fix the file as the message says, then run common-memory memory sync in that worktree',
};
const NONE_STALE: MemoryStaleResult = { state: 'verified', reason: null, total: 0, entries: [] };

const joined = (lines: { text: string }[]) => lines.map((line) => line.text.trim()).join(' ');

function loaded(files: LeftOutFile[]): EntriesState {
  let state = entriesReducer(initialEntriesState, { type: 'staleLoaded', id: 0, stale: NONE_STALE });
  // The left-out files are read once the stale list is (memory status, after any scan it made).
  assert.deepEqual(state.leftOutLoad, { id: 0 });
  state = entriesReducer(state, { type: 'leftOutLoaded', id: 0, files });
  assert.equal(state.leftOutLoad, null);
  return state;
}

function frameOf(state: EntriesState, columns: number, room: number): string[] {
  // What useEntryLines gives the list.
  const lines = [...staleHeadingLines(state.stale, columns), ...leftOutLines(state.leftOut, columns)];
  const view = render(
    <Box width={columns}>
      <EntriesView state={state} lines={lines} room={room} columns={columns} />
    </Box>,
  );
  const frame = (view.lastFrame() ?? '').split('\n');
  view.unmount();
  return frame;
}

describe('left-out memory files on the Entries view', () => {
  test('each file: its scope or repository, path:line, kind and rule, what to do; a malformed one its message', () => {
    const lines = leftOutLines([USER_TOKEN, BLOCKED, MALFORMED_SCENE], 80);
    const text = joined(lines);
    assert.match(text, /Left out \(nothing gives them back\): 3/);
    assert.match(text, /user reference\/github-access\.md:7 · blocked secret-github-token/);
    assert.match(text, /project shop work_method\/deploy-steps\.md:12 · blocked poison-instruction-override/);
    // No repository name (a root never bound): the key's first twelve digits, as memory status says.
    assert.match(text, /project 8b629c29e80f scenes\/release\.md · malformed/);
    assert.match(text, /a scene needs a title line/);
    assert.match(text, /then run common-memory memory sync in that worktree/);
    // The fix lines are muted, the files' lines say there is something wrong.
    assert.ok(lines.some((line) => line.tone === 'muted' && /take the secret/.test(line.text)));
    assert.ok(lines.some((line) => line.tone === 'error' && /deploy-steps\.md:12/.test(line.text)));
    for (const line of leftOutLines([USER_TOKEN, BLOCKED, MALFORMED_SCENE], 60))
      assert.ok(textColumns(line.text) <= 60, `wider than 60: ${line.text}`);
  });

  test('none left out, or not read yet: no lines', () => {
    assert.deepEqual(leftOutLines([], 80), []);
    assert.deepEqual(leftOutLines(null, 80), []);
  });

  test('the list shows them at 80×24 under the stale heading', () => {
    const frame = frameOf(loaded([BLOCKED]), 80, 18);
    const text = frame.map((line) => line.trim()).join(' ');
    assert.match(text, /No stale entries/);
    assert.match(text, /Left out \(nothing gives them back\): 1/);
    assert.match(text, /✗ project shop work_method\/deploy-steps\.md:12 · blocked poison-instruction-override/);
    assert.match(text, /then run common-memory memory sync in that worktree/);
    assert.ok(frame.length <= 18, `${frame.length} rows`);
    for (const line of frame) assert.ok(textColumns(line) <= 80, `wider than 80: ${line}`);
    assert.doesNotMatch(frameOf(loaded([]), 80, 18).join('\n'), /Left out/);
  });

  test('at 60×15 the text scrolls: the last file and its fix are reached, the frame stays in its room', () => {
    const files = [USER_TOKEN, BLOCKED, MALFORMED_SCENE];
    let state = loaded(files);
    const room = 10; // 15 rows less the screen's chrome
    const lines = [...staleHeadingLines(state.stale, 60), ...leftOutLines(files, 60)];
    const textRoom = listTextRoom(room, lines.length, 0);
    const lastTop = lines.length - textRoom;
    assert.ok(lastTop > 0, 'the text is longer than the room');
    const first = frameOf(state, 60, room);
    assert.ok(first.length <= room, `${first.length} rows`);
    assert.match(first.join('\n'), /lines 1–\d+ of \d+/);
    assert.doesNotMatch(first.join('\n'), /scenes\/release\.md/);
    for (let page = 0; page < 5; page++)
      state = entriesReducer(state, { type: 'scrollList', delta: textRoom, lastTop });
    assert.equal(state.listTop, lastTop);
    const last = frameOf(state, 60, room);
    const text = last.map((line) => line.trim()).join(' ');
    assert.match(text, /scenes\/release\.md/);
    assert.match(text, /fix the file as the message says/);
    assert.ok(last.length <= room, `${last.length} rows`);
    for (const line of last) assert.ok(textColumns(line) <= 60, `wider than 60: ${line}`);
  });
});
