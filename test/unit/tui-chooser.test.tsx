// The choosers (the runner in Memory's Extraction view, the scope in Prepare & promote, the client in
// Integrations): ink-select-input draws them, the keyboard router drives them and the screens'
// reducers hold the highlight. Keys that arrive together — a held ↓ (several in one stdin chunk),
// ↓↓ and Enter in one chunk, a paste of j/k — land on the right option, Enter chooses that option,
// and the router's global keys (Tab, q) still work while a chooser is shown. In process, with a fake
// Application: no host, no store.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Box, type Key, Text } from 'ink';
import { render } from 'ink-testing-library';
import { useReducer } from 'react';
import type { MemoryReviewCandidate } from '../../source/api/memory-views.js';
import { commandFor, NO_KEY } from '../../source/screens/keyboard/key-bindings.js';
import { KeyboardProvider, PRIORITY, useKeyHandler } from '../../source/screens/keyboard/keyboard-router.js';
import { pastedMoves, useChooserKeys } from '../../source/screens/keyboard/use-chooser-keys.js';
import { Chooser } from '../../source/screens/widgets/chooser.js';
import { moveSelection } from '../../source/screens/widgets/list-window.js';
import { CmError } from '../../source/errors.js';
import { absentDirs, fakeApp, hostStatus, memoryStatus, reviewCandidate, reviewQueue } from '../support/tui-fakes.js';
import {
  act,
  KEY,
  mount,
  openExtraction,
  press,
  unmount,
  type View,
  waitForFrame,
  waitForText,
} from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-chooser');
const status = hostStatus();
const noService = async () => null;

const key = (flags: Partial<Key> = {}): Key => ({ ...NO_KEY, ...flags });

describe('pasted move letters', () => {
  test('a paste of j and k moves by its net count; a single key, or a paste with anything else, is not one', () => {
    assert.equal(pastedMoves('jjj', key()), 3);
    assert.equal(pastedMoves('jjkj', key()), 2);
    assert.equal(pastedMoves('kkk', key()), -3);
    assert.equal(pastedMoves('j', key()), null, 'one letter is the key table’s, not a paste');
    assert.equal(pastedMoves('jjx', key()), null);
    assert.equal(pastedMoves('jj\r', key()), null, 'a paste never chooses');
    assert.equal(pastedMoves('JJ', key()), null, 'the table matches exactly');
    assert.equal(pastedMoves('jj', key({ meta: true })), null);
  });
});

const FRUIT = ['apple', 'banana', 'cherry', 'damson', 'elder'];

type Picked = { highlighted: number; chosen: string | null; closed: number };
type PickAction = { type: 'move'; delta: number } | { type: 'choose' } | { type: 'close' };

function pickReducer(state: Picked, action: PickAction): Picked {
  if (action.type === 'move')
    return { ...state, highlighted: moveSelection(state.highlighted, action.delta, FRUIT.length) };
  if (action.type === 'choose') return { ...state, chosen: FRUIT[state.highlighted] ?? null };
  return { ...state, closed: state.closed + 1 };
}

/** A chooser as a screen has one: its highlight in a reducer, keys through the router, a global key below it. */
function Picker({ globals, closable }: { globals: string[]; closable: boolean }) {
  const [state, dispatch] = useReducer(pickReducer, { highlighted: 0, chosen: null, closed: 0 });
  useChooserKeys({
    onMove: (delta) => dispatch({ type: 'move', delta }),
    onChoose: () => dispatch({ type: 'choose' }),
    ...(closable ? { onClose: () => dispatch({ type: 'close' }) } : {}),
  });
  useKeyHandler(PRIORITY.global, (input, pressed) => {
    const command = commandFor(['nextScreen', 'quit', 'back'], input, pressed);
    if (command) globals.push(command);
    return command !== undefined;
  });
  return (
    <Box flexDirection="column">
      <Chooser options={FRUIT.map((label) => ({ label }))} highlighted={state.highlighted} columns={40} />
      <Text>{`chosen ${state.chosen ?? 'none'} · closed ${state.closed}`}</Text>
    </Box>
  );
}

async function renderPicker(closable = false) {
  const globals: string[] = [];
  let view: View | undefined;
  await act(async () => {
    view = render(
      <KeyboardProvider>
        <Picker globals={globals} closable={closable} />
      </KeyboardProvider>,
    );
  });
  return { view: view!, globals };
}

const highlightedIn = (frame: string) => /^> (\w+)/m.exec(frame)?.[1];

describe('the chooser behind the keyboard router', () => {
  test('held ↓ (three in one chunk) lands three down; Enter chooses that option', async () => {
    const { view } = await renderPicker();
    try {
      assert.equal(highlightedIn(view.lastFrame() ?? ''), 'apple');
      await press(view, KEY.down.repeat(3));
      assert.equal(highlightedIn(view.lastFrame() ?? ''), 'damson');
      await press(view, KEY.enter);
      assert.match(view.lastFrame() ?? '', /chosen damson/);
    } finally {
      await unmount(view);
    }
  });

  test('↓↓ and Enter in one chunk choose the option the moves reached, not the one shown before them', async () => {
    const { view } = await renderPicker();
    try {
      await press(view, `${KEY.down}${KEY.down}${KEY.enter}`);
      assert.match(view.lastFrame() ?? '', /chosen cherry/);
      await press(view, `${KEY.up}${KEY.enter}`);
      assert.match(view.lastFrame() ?? '', /chosen banana/);
    } finally {
      await unmount(view);
    }
  });

  test('a paste of j and k moves once per letter and stays inside the list; a pasted Enter chooses nothing', async () => {
    const { view } = await renderPicker();
    try {
      await press(view, 'jjj');
      assert.equal(highlightedIn(view.lastFrame() ?? ''), 'damson');
      await press(view, 'jjjjjjj');
      assert.equal(highlightedIn(view.lastFrame() ?? ''), 'elder', 'past the end it stops at the last option');
      await press(view, 'kj\r');
      assert.match(view.lastFrame() ?? '', /chosen none/);
      await press(view, 'kk');
      await press(view, KEY.enter);
      assert.match(view.lastFrame() ?? '', /chosen cherry/);
    } finally {
      await unmount(view);
    }
  });

  test('the router keeps its global keys while the chooser is shown; Esc is the chooser’s only when it closes', async () => {
    const open = await renderPicker();
    try {
      await press(open.view, KEY.tab);
      await press(open.view, 'q');
      await press(open.view, KEY.escape);
      assert.deepEqual(open.globals, ['nextScreen', 'quit', 'back']);
      assert.equal(highlightedIn(open.view.lastFrame() ?? ''), 'apple');
    } finally {
      await unmount(open.view);
    }
    const closable = await renderPicker(true);
    try {
      await press(closable.view, KEY.escape);
      await press(closable.view, KEY.tab);
      assert.deepEqual(closable.globals, ['nextScreen']);
      assert.match(closable.view.lastFrame() ?? '', /closed 1/);
    } finally {
      await unmount(closable.view);
    }
  });
});

function candidate(id: string, content: string): MemoryReviewCandidate {
  return reviewCandidate({ candidateId: id, content, createdAt: '2026-12-01T00:00:00.000Z' });
}

const review = reviewQueue;

describe('the runner chooser (Memory · Extraction)', () => {
  const app = () =>
    fakeApp({
      status: async () => status,
      memoryStatus: async () => memoryStatus,
      memoryReview: async () => review([]),
      listAgents: async () => [],
    });

  test('r opens it on the current runner; held ↓ and Enter in one chunk choose the last; nothing runs', async () => {
    const extracted: Array<{ runner: string }> = [];
    const view = await mount(
      fakeApp({
        status: async () => status,
        memoryStatus: async () => memoryStatus,
        memoryReview: async () => review([]),
        memoryExtract: async (request: { runner: string }) => {
          extracted.push(request);
          return new Promise(() => {});
        },
      }),
      HOME,
      { service: noService, integrations: DIRS },
    );
    try {
      await openExtraction(view);
      await press(view, 'r');
      let frame = await waitForText(view, 'The runner for the next run (x):');
      assert.match(frame, /^> builtin: offline, nothing leaves this machine/m);
      assert.match(frame, /^ {2}ext: example-provider example-model at https:\/\/api\.example\.com\/v1/m);
      assert.match(frame, /↑↓ choose · Enter use this one · Esc keep builtin/);
      await press(view, `${KEY.down}${KEY.down}${KEY.down}${KEY.enter}`);
      frame = await waitForText(view, /x extract · r runner local/);
      assert.doesNotMatch(frame, /The runner for the next run/);
      assert.equal(extracted.length, 0, 'choosing a runner runs nothing');
      // Opened again, it starts on the chosen runner; a paste moves, Esc keeps what was chosen.
      await press(view, 'r');
      frame = await waitForText(view, /^> local: offline/m);
      await press(view, 'k');
      await waitForText(view, /^> ext: /m);
      await press(view, 'jk');
      await waitForText(view, /^> ext: /m);
      await press(view, 'kk');
      await waitForText(view, /^> builtin: /m);
      await press(view, KEY.escape);
      await waitForText(view, /x extract · r runner local/);
      await press(view, 'r');
      await press(view, `${KEY.up}${KEY.enter}`);
      await waitForText(view, /x extract · r runner ext/);
      await press(view, 'x');
      await waitForFrame(view, 'the run with ext', () => extracted.length === 1);
      assert.equal(extracted[0]?.runner, 'ext');
    } finally {
      await unmount(view);
    }
  });

  test("while it is shown the screen's other keys wait and the router's global keys work: Tab, then q", async () => {
    const quits: string[] = [];
    const view = await mount(app(), HOME, {
      service: noService,
      integrations: DIRS,
      onQuit: (how) => quits.push(how),
    });
    try {
      await openExtraction(view);
      await press(view, 'r');
      await waitForText(view, 'The runner for the next run (x):');
      // [ would change the view, x would run: both wait while the chooser is open.
      await press(view, '[');
      await press(view, 'x');
      let frame = await waitForText(view, 'The runner for the next run (x):');
      assert.match(frame, /\[Extraction\]/);
      await press(view, KEY.tab);
      frame = await waitForText(view, /\[1 Dashboard\]/);
      // Memory keeps its view while another screen is shown: 7 is back on Extraction.
      await press(view, '7');
      await waitForText(view, /\[Extraction\]/);
      await waitForText(view, /ext: example-provider example-model/);
      await press(view, 'r');
      await waitForText(view, 'The runner for the next run (x):');
      await press(view, 'q');
      await waitForFrame(view, 'the quit', () => quits.length === 1);
      assert.deepEqual(quits, ['quit']);
    } finally {
      await unmount(view);
    }
  });
});

/** The TUI over a queue of one candidate ("Always use named exports."), prepare answered by `memoryPrepare`. */
const mountOneCandidate = (memoryPrepare: (request: { scope: string; candidateIds: string[] }) => Promise<unknown>) =>
  mount(
    fakeApp({
      status: async () => status,
      memoryReview: async () => review([candidate('cand-0001aaaa', 'Always use named exports.')]),
      memoryPrepare,
    }),
    HOME,
    { service: noService, integrations: DIRS },
  );

describe('the scope chooser (Memory · Prepare & promote)', () => {
  test('held ↓ lands on user and Enter prepares for user; s still switches; Tab still leaves', async () => {
    const prepared: Array<{ scope: string; candidateIds: string[] }> = [];
    const view = await mountOneCandidate(async (request) => {
      prepared.push(request);
      return new Promise(() => {});
    });
    try {
      await press(view, '7');
      await waitForText(view, /Always use named exports/);
      await press(view, 'p');
      let frame = await waitForText(view, /\[Prepare & promote\]/);
      assert.match(frame, /^> project · repo's \.common-memory\/memory, committed with git/m);
      assert.match(frame, /^ {2}user · your own memory, read in every repository/m);
      assert.match(frame, /↑↓\/s scope project · Enter prepare plan/);
      await press(view, KEY.down.repeat(3));
      frame = await waitForText(view, /^> user · /m);
      assert.match(frame, /1 candidate to promote into the user memory root/);
      await press(view, 's');
      await waitForText(view, /^> project · /m);
      await press(view, 'jj');
      await waitForText(view, /^> user · /m);
      await press(view, KEY.tab);
      await waitForText(view, /\[1 Dashboard\]/);
      assert.equal(prepared.length, 0, 'moving the highlight prepares nothing');
      // Memory kept its place while Dashboard was shown: the chooser, on the scope left highlighted.
      await press(view, '7');
      await waitForText(view, /^> user · /m);
      await press(view, 's');
      await waitForText(view, /^> project · /m);
      await press(view, `${KEY.down}${KEY.enter}`);
      await waitForFrame(view, 'the prepare request', () => prepared.length === 1);
      assert.equal(prepared[0]?.scope, 'user');
      assert.deepEqual(prepared[0]?.candidateIds, ['cand-0001aaaa']);
    } finally {
      await unmount(view);
    }
  });
});

describe('the scope chooser for a user-scope candidate', () => {
  test('only the user scope is offered: ↑↓ and s stay on it, and Enter prepares for user', async () => {
    const prepared: Array<{ scope: string; candidateIds: string[] }> = [];
    const outside = reviewCandidate({
      candidateId: 'cand-0002bbbb',
      content: 'Prefer British spelling in prose.',
      scope: 'user',
      repository: null,
    });
    const view = await mount(
      fakeApp({
        status: async () => status,
        memoryReview: async () => review([outside]),
        memoryPrepare: async (request: { scope: string; candidateIds: string[] }) => {
          prepared.push(request);
          return new Promise(() => {});
        },
      }),
      HOME,
      { service: noService, integrations: DIRS },
    );
    try {
      await press(view, '7');
      await waitForText(view, /Prefer British spelling/);
      await press(view, 'p');
      let frame = await waitForText(view, /\[Prepare & promote\]/);
      assert.match(frame, /^> user · your own memory, read in every repository/m);
      assert.doesNotMatch(frame, /project · /, 'a user-scope candidate has no repository to go to');
      assert.match(frame, /1 candidate to promote into the user memory root/);
      assert.doesNotMatch(frame, /scope project|↑↓\/s scope/, 'the help line offers no other scope');
      await press(view, 's');
      await press(view, KEY.down);
      await press(view, KEY.up);
      frame = await waitForText(view, /^> user · /m);
      assert.doesNotMatch(frame, /into the project memory root/);
      await press(view, KEY.enter);
      await waitForFrame(view, 'the prepare request', () => prepared.length === 1);
      assert.equal(prepared[0]?.scope, 'user');
    } finally {
      await unmount(view);
    }
  });
});

/** The frame once prepare's refusal `error` of the one candidate chosen is on screen, with its advice. */
async function refusedPrepare(error: CmError): Promise<string> {
  const view = await mountOneCandidate(async () => {
    throw error;
  });
  try {
    await press(view, '7');
    await waitForText(view, /Always use named exports/);
    await press(view, 'p');
    await waitForText(view, /^> project · /m);
    await press(view, KEY.enter);
    return await waitForText(view, /No plan was made/);
  } finally {
    await unmount(view);
  }
}

describe("prepare's refusal that names the CLI's --scope", () => {
  test('the screen says which scope to choose with which key', async () => {
    const frame = await refusedPrepare(
      new CmError(
        'usage',
        'cand-0001aaaa revises use-named-exports, which is not in the project memory: prepare it into the user memory (--scope user) if that one holds it, or discard it if the entry was retired. Nothing was prepared.',
      ),
    );
    assert.match(frame, /promote: error usage: cand-0001aaaa revises/, "the host's message is shown as it is");
    assert.match(frame, /Here the scope is the chooser's: ↑↓\/s to user, then Enter prepares the plan\s+there\./);
  });
});

describe("prepare's refusal of a chosen candidate that left the queue", () => {
  test('the screen says to choose again on Review, not to press Enter again', async () => {
    // Another TUI or the CLI discarded it after it was chosen: Enter here would send it again.
    const frame = await refusedPrepare(
      new CmError(
        'operation_conflict',
        'Candidate cand-0001aaaa is discarded; only draft candidates can be promoted. Nothing was prepared.',
      ),
    );
    assert.doesNotMatch(frame, /press Enter again/);
    assert.match(frame, /left\s+the\s+review\s+queue\s+since\s+it\s+was\s+chosen/);
    assert.match(frame, /On\s+Review\s+\(\[\)\s+press\s+r,\s+mark\s+the\s+others\s+again\s+\(m\),\s+then\s+p\./);
  });
});

describe('the client chooser (Integrations)', () => {
  test('held ↓↓↑ lands on Claude Code; Enter plans its install; a paste of j moves on; Tab still leaves', async () => {
    const view = await mount(fakeApp({ status: async () => status }), HOME, {
      service: noService,
      integrations: DIRS,
    });
    try {
      await press(view, '5');
      await waitForText(view, /^> Codex +not installed/m);
      assert.match(view.lastFrame() ?? '', /↑↓ choose · i\/Enter install · u uninstall · m import/);
      await press(view, `${KEY.down}${KEY.down}${KEY.up}`);
      await waitForText(view, /^> Claude Code +not installed/m);
      await press(view, KEY.enter);
      await waitForText(view, 'install plan for claude');
      await press(view, KEY.escape);
      await press(view, 'jj');
      await waitForText(view, /^> pi +not installed/m);
      await press(view, KEY.tab);
      await waitForText(view, /\[6 Sessions\]/);
    } finally {
      await unmount(view);
    }
  });
});
