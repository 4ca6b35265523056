// A list's keys that arrive before its rows. Keys typed ahead are replayed one at a time
// (keyboard/bracketed-paste.ts), but "2jj⏎" reaches History before its page is read: the j's had
// no rows to move over and Enter opened the first row. A person typing ahead expects the moves to
// land on the rows once they are there, as in a pager, so while the list is loading its moves and
// Enter are held, in order, and replayed one per render once it has loaded (each on the selection
// the one before left). A replayed key that starts another read (History's PgDn) holds the rest
// again until that page is there. Keys after a held Enter are dropped: what Enter opens is not
// on screen yet to take them. If the list loads empty (or its read fails) the held keys are
// dropped with a note saying so, instead of vanishing.
import { useEffect, useRef, useState } from 'react';
import type { Command } from '../keyboard/key-bindings.js';
import { type CommandKeyOptions, useCommandKeys } from '../keyboard/use-command-keys.js';

/** Enter: opens the selected row, so nothing typed after it is for this list. */
const OPEN: Command = 'openItem';

export interface ListLoad {
  /** Rows are being read and none of this position are on screen yet. */
  loading: boolean;
  /** Rows on screen once loaded (0: the held keys are dropped). */
  length: number;
}

/**
 * useCommandKeys for a list's moves, holding them while `load.loading`. Returns the note to show
 * when held keys were dropped (null otherwise); the next key clears it.
 */
export function useHeldListKeys<C extends Command>(
  commands: readonly C[],
  onCommand: (command: C) => void,
  load: ListLoad,
  options: CommandKeyOptions = {},
): string | null {
  // The queue is the ref: a key can arrive between a render and its effect, and the effect must
  // see it (a rendered copy lost the Enter of "2jj⏎" sent in two writes). The state only renders
  // again, so the effect replays the next key on the selection the one before left.
  const heldNow = useRef<readonly C[]>([]);
  const [, setHeld] = useState<readonly C[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const hold = (next: readonly C[]) => {
    heldNow.current = next;
    setHeld(next);
  };
  // A replayed key's state is rendered after the effect that replayed it; a key that arrives
  // before that render would act on the selection the replay left behind, so it is held too until
  // the render's effect (hold always renders again: a new array).
  const replaying = useRef(false);
  useCommandKeys(
    commands,
    (command) => {
      setNote(null);
      if (load.loading || heldNow.current.length > 0 || replaying.current) {
        if (!heldNow.current.includes(OPEN as C)) hold([...heldNow.current, command]);
        return;
      }
      onCommand(command);
    },
    options,
  );
  const active = options.isActive ?? true;
  useEffect(() => {
    replaying.current = false;
    const held = heldNow.current;
    if (load.loading || held.length === 0) return;
    if (!active || load.length === 0) {
      const count = held.length;
      hold([]);
      if (load.length === 0)
        setNote(
          `${count === 1 ? '1 key typed while the list loaded was' : `${count} keys typed while the list loaded were`} dropped: it has no rows`,
        );
      return;
    }
    const [first, ...rest] = held;
    hold(rest);
    replaying.current = true;
    onCommand(first!);
  });
  return note;
}
