// Keys typed while the TUI is busy reach it as one stdin chunk. With bracketed paste on (the TUI
// asks for it; the terminal shows it has it by answering the mode query or by marking a paste), a
// chunk without paste markers is typing and is replayed key by key, each on the screen the keys
// before it opened; text between the markers is a paste: it goes into an open text field and never
// presses a command key. Without that sign, a run of keys is left alone as before. In process, with
// a fake Application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { useReducer, useState } from 'react';
import { KeyboardProvider } from '../../source/screens/keyboard/keyboard-router.js';
import { editLine, emptyLine } from '../../source/screens/keyboard/line-edit.js';
import { useCommandKeys } from '../../source/screens/keyboard/use-command-keys.js';
import { useHeldListKeys } from '../../source/screens/widgets/held-list-keys.js';
import { useLineInput } from '../../source/screens/widgets/line-input.js';
import { absentDirs, fakeApp, hostStatus } from '../support/tui-fakes.js';
import { act, KEY, mount, press, unmount, type View, waitForFrame, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-typing-ahead');
const status = hostStatus();
const noService = async () => null;

/** What a terminal answers to the TUI's DECRQM query when bracketed paste (mode 2004) is set. */
const PASTE_MODE_SET = '\u001b[?2004;1$y';
const pasted = (text: string) => `\u001b[200~${text}\u001b[201~`;

async function mountApp(): Promise<View> {
  return mount(fakeApp({ status: async () => status }), HOME, { service: noService, integrations: DIRS });
}

describe('keys typed ahead, in the whole TUI', () => {
  test('without a sign of bracketed paste, a run like 5jj⏎ is left alone (it may be a paste)', async () => {
    const view = await mountApp();
    try {
      await press(view, '5jj\r');
      await press(view, '4');
      await waitForText(view, /\[4 Status\]/);
      assert.doesNotMatch(view.lastFrame() ?? '', /install plan/);
    } finally {
      await unmount(view);
    }
  });

  test('once the terminal reports bracketed paste on, 5jj⏎ in one chunk opens Integrations, moves twice, plans pi', async () => {
    const view = await mountApp();
    try {
      await press(view, PASTE_MODE_SET);
      await press(view, '5jj\r');
      await waitForText(view, 'install plan for pi');
    } finally {
      await unmount(view);
    }
  });

  test('outside act() too, as in the built TUI: each key waits until the screen the one before opened takes keys', async () => {
    const view = await mountApp();
    const global = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = global.IS_REACT_ACT_ENVIRONMENT;
    try {
      await press(view, PASTE_MODE_SET);
      // React renders and runs effects on its own schedule here, not when act() ends.
      global.IS_REACT_ACT_ENVIRONMENT = false;
      view.stdin.write('5jj\r');
      const deadline = Date.now() + 8000;
      while (!(view.lastFrame() ?? '').includes('install plan for') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.match(view.lastFrame() ?? '', /install plan for pi/);
    } finally {
      global.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
      await unmount(view);
    }
  });

  test('before any sign of bracketed paste, arrows after a screen number in one chunk act on that screen', async () => {
    const view = await mountApp();
    try {
      // Ink cuts the chunk at each escape sequence: 5, ↓, ↓, ⏎ are keys already, each pressed.
      await press(view, `5${KEY.down}${KEY.down}${KEY.enter}`);
      await waitForText(view, 'install plan for pi');
    } finally {
      await unmount(view);
    }
  });

  test('arrows typed ahead: 5↓↓⏎ in one chunk lands on pi and plans its install', async () => {
    const view = await mountApp();
    try {
      await press(view, PASTE_MODE_SET);
      await press(view, `5${KEY.down}${KEY.down}${KEY.enter}`);
      await waitForText(view, 'install plan for pi');
    } finally {
      await unmount(view);
    }
  });

  test('a bracketed paste of command keys presses none of them; typing ahead works after it', async () => {
    const view = await mountApp();
    try {
      await press(view, '5');
      await waitForText(view, /^> Codex +not installed/m);
      await press(view, pasted('jj\r4q'));
      await press(view, 'j');
      await waitForText(view, /^> Claude Code +not installed/m);
      assert.doesNotMatch(view.lastFrame() ?? '', /install plan/, 'the pasted Enter planned nothing');
      // The paste showed the terminal marks pastes: the next run is typing.
      await press(view, 'j\r');
      await waitForText(view, 'install plan for pi');
    } finally {
      await unmount(view);
    }
  });

  test('a paste whose end marker never comes (a start marker copied with a log) still lets Ctrl+C quit', async () => {
    const quits: string[] = [];
    const view = await mount(fakeApp({ status: async () => status }), HOME, {
      service: noService,
      integrations: DIRS,
      onQuit: (how) => quits.push(how),
    });
    try {
      await press(view, '\u001b[200~copied q');
      await press(view, 'q');
      await press(view, KEY.ctrlC);
      await waitForFrame(view, 'Ctrl+C to quit', () => quits.length > 0);
      assert.deepEqual(quits, ['interrupt']);
    } finally {
      await unmount(view);
    }
  });
});

/** A screen with a command key (`a` approves) and a text field that `n` opens. */
function Probe({ approved }: { approved: string[] }) {
  const [state, dispatch] = useReducer(
    (
      current: { open: boolean; line: typeof emptyLine; moves: number },
      action: { type: 'open' | 'close' | 'move' } | { type: 'edit'; edit: Parameters<typeof editLine>[1] },
    ) => {
      if (action.type === 'open') return { ...current, open: true };
      if (action.type === 'close') return { ...current, open: false };
      if (action.type === 'move') return { ...current, moves: current.moves + 1 };
      if (action.type === 'edit') return { ...current, line: editLine(current.line, action.edit) };
      return current;
    },
    { open: false, line: emptyLine, moves: 0 },
  );
  useCommandKeys(
    ['approvePlan', 'openNote', 'selectDown'],
    (command) => {
      if (command === 'approvePlan') approved.push('a');
      else if (command === 'openNote') dispatch({ type: 'open' });
      else dispatch({ type: 'move' });
    },
    { isActive: !state.open },
  );
  useLineInput(state.open, {
    onEdit: (edit) => dispatch({ type: 'edit', edit }),
    onSubmit: () => dispatch({ type: 'close' }),
    onCancel: () => dispatch({ type: 'close' }),
  });
  return <Text>{`field ${state.open ? 'open' : 'closed'} [${state.line.text}] moves ${state.moves}`}</Text>;
}

async function renderProbe() {
  const approved: string[] = [];
  let view: View | undefined;
  await act(async () => {
    view = render(
      <KeyboardProvider>
        <Probe approved={approved} />
      </KeyboardProvider>,
    );
  });
  return { view: view!, approved };
}

describe('bracketed pastes behind the keyboard router', () => {
  test('a paste holding `a` never approves; outside a text field it is dropped', async () => {
    const { view, approved } = await renderProbe();
    try {
      await press(view, pasted('a'));
      await press(view, pasted('jaj'));
      await press(view, 'j');
      await waitForText(view, 'moves 1');
      assert.deepEqual(approved, []);
      assert.match(view.lastFrame() ?? '', /field closed \[\]/);
    } finally {
      await unmount(view);
    }
  });

  test('a paste goes into the open text field as text: its Enter submits nothing, its escapes are dropped', async () => {
    const { view, approved } = await renderProbe();
    try {
      await press(view, 'n');
      await waitForText(view, 'field open');
      await press(view, pasted('a\u001b[31mred\u001b[0m\rq'));
      await waitForText(view, 'field open [ared q]');
      // A paste split over two reads is still one paste.
      await press(view, '\u001b[200~ap');
      await press(view, `prove${KEY.enter}\u001b[201~`);
      await waitForText(view, 'field open [ared qapprove ]');
      assert.deepEqual(approved, []);
    } finally {
      await unmount(view);
    }
  });

  test('after a paste, several keys in one chunk are typing: each is pressed, in order', async () => {
    const { view, approved } = await renderProbe();
    try {
      await press(view, 'jj');
      await press(view, pasted('x'));
      await press(view, 'jja');
      await waitForFrame(view, 'two moves and an approve', () => approved.length === 1);
      assert.match(view.lastFrame() ?? '', /moves 2/);
    } finally {
      await unmount(view);
    }
  });
});

/**
 * A list in the screens' style: its move sets the selection from the rendered one, and Enter opens
 * the rendered selection. `onMove` runs after each move is handed over (the test types there).
 */
function HeldList({ loading, opened, onMove }: { loading: boolean; opened: number[]; onMove: () => void }) {
  const [chosen, setChosen] = useState(0);
  useHeldListKeys(
    ['selectDown', 'openItem'],
    (command) => {
      if (command === 'openItem') opened.push(chosen);
      else {
        setChosen(chosen + 1);
        onMove();
      }
    },
    { loading, length: loading ? 0 : 5 },
  );
  return <Text>{`row ${chosen}`}</Text>;
}

describe('moves held while a list loads', () => {
  test('a key that arrives after the last replayed move but before its render waits for that render', async () => {
    const opened: number[] = [];
    let moves = 0;
    let view: View | undefined;
    // The Enter goes in right after the second held move is handed over, before React renders
    // it: as on a loaded machine, where the render of a replayed move can come a turn late.
    const onMove = () => {
      moves += 1;
      if (moves === 2) view!.stdin.write('\r');
    };
    await act(async () => {
      view = render(
        <KeyboardProvider>
          <HeldList loading opened={opened} onMove={onMove} />
        </KeyboardProvider>,
      );
    });
    try {
      await press(view!, 'j');
      await press(view!, 'j');
      await act(async () => {
        view!.rerender(
          <KeyboardProvider>
            <HeldList loading={false} opened={opened} onMove={onMove} />
          </KeyboardProvider>,
        );
      });
      await waitForFrame(view!, 'the Enter handled', () => opened.length === 1);
      assert.deepEqual(opened, [2]);
    } finally {
      await unmount(view!);
    }
  });
});
