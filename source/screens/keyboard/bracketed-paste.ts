// Typing ahead and pasting, told apart. Keys typed while the TUI is busy reach it as one stdin
// chunk, and so does a paste: Ink's parser splits a chunk only at escape sequences, so "2jj⏎" is
// one input event, as pasted text is. With bracketed paste (DECSET 2004, asked for by run-tui.tsx)
// the terminal wraps each paste in ESC[200~ … ESC[201~, and a chunk outside the markers is typing.
//
// Ink 6.8 does nothing with the markers (its parser passes ESC[200~ on as a key with no name, and
// a text field took "[200~" as typed text), so this sits on Ink's input emitter, before every
// listener:
// - text between the markers is emitted as one 'paste' event (the router gives it to an open text
//   field; nothing else takes it), never as keys; escape sequences inside it are dropped;
// - once the terminal has shown it brackets pastes, every other input is replayed one key at a
//   time, each once React has committed what the key before changed, so the screen a key opens
//   has rendered and taken the keyboard before the next key arrives ("5jj⏎": Integrations, pi,
//   Enter plans it).
//
// Whether the terminal brackets pastes is not assumed: a terminal without DECSET 2004 sends a paste
// as plain keys, and replaying those would press `a` (approve), `y`, `q` and Enter. The sign is its
// answer to the DECRQM query (ESC[?2004;1$y, "set") or a paste that arrived marked. Until then a
// run of keys stays one event, as Ink cut it, and the screens leave it alone.
import type { EventEmitter } from 'node:events';

/** DECSET 2004: the terminal marks pastes from now on. */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
/** DECRQM for mode 2004: a terminal that knows the mode answers ESC[?2004;Ps$y (1 or 3: set). */
export const ASK_BRACKETED_PASTE = '\u001b[?2004$p';

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
const MODE_REPORT = /^\u001b\[\?2004;(\d+)\$y$/;

type Delivery = { name: 'input' | 'paste'; text: string };

const shaped = new WeakSet<EventEmitter>();

/**
 * Makes Ink's input emitter (useStdin's internal_eventEmitter) tell pastes from typing, as above;
 * once per emitter. Pastes are emitted as 'paste' with their text. `afterCommit(then)` calls `then`
 * once React has committed the updates queued so far (the next key is delivered then).
 */
export function shapeTypedInput(events: EventEmitter, afterCommit: (then: () => void) => void): void {
  if (shaped.has(events)) return;
  shaped.add(events);
  const emit = events.emit.bind(events);
  let bracketed = false;
  let pasting = false;
  // Deliveries wait here while an earlier one's turn is not over; `turn` is true during that turn.
  const queue: Delivery[] = [];
  let turn = false;
  // The next key waits until React has committed what the key before changed: the commit
  // registers the new screen's keys (useKeyHandler's layout effect). `afterCommit` is the
  // keyboard router's barrier (keyboard-router.tsx); guessing the render's turn did not hold:
  // on a loaded machine React's Scheduler yields once its 5 ms slice is spent and renders in a
  // later turn, and "2jj⏎" sent a j to the screen that 2 left.
  const later = () => afterCommit(next);
  const next = () => {
    const delivery = queue.shift();
    if (delivery === undefined) {
      turn = false;
      return;
    }
    emit(delivery.name, delivery.text);
    later();
  };
  const deliver = (delivery: Delivery) => {
    if (turn) {
      queue.push(delivery);
      return;
    }
    turn = true;
    emit(delivery.name, delivery.text);
    later();
  };
  events.emit = (name: string | symbol, ...args: unknown[]): boolean => {
    const input = args[0];
    if (name !== 'input' || typeof input !== 'string') return emit(name, ...args);
    const report = MODE_REPORT.exec(input);
    if (report) {
      bracketed = report[1] === '1' || report[1] === '3';
      return true;
    }
    if (input === PASTE_START) {
      bracketed = true;
      pasting = true;
      return true;
    }
    if (input === PASTE_END) {
      pasting = false;
      return true;
    }
    // Ctrl+C pressed on its own ends a paste whose end marker never came (a start marker copied
    // with a log, from a terminal without bracketed paste): Ctrl+C always reaches the TUI.
    if (pasting && input === '\u0003') pasting = false;
    // A colour code copied with a log line is not text, and would be read as a key.
    if (pasting) {
      if (!input.startsWith('\u001b')) deliver({ name: 'paste', text: input });
      return true;
    }
    // Without that sign a run of text stays one input (the screens leave it alone), but Ink's
    // events still each get their own turn: in "5↓↓⏎" the arrows are keys, for the screen 5 opened.
    if (!bracketed) {
      deliver({ name: 'input', text: input });
      return true;
    }
    // Typing: an escape sequence is one key (Ink's parser cut it out); text is one key a code point.
    const keys = input.startsWith('\u001b') ? [input] : [...input];
    for (const key of keys) deliver({ name: 'input', text: key });
    return true;
  };
}
