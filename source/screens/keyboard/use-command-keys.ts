// The one way a screen turns keys into actions: name the commands it answers (from the key table)
// and what each does; the keyboard router asks it in priority order.
import { type Command, commandFor } from './key-bindings.js';
import { PRIORITY, useKeyHandler } from './keyboard-router.js';

export interface CommandKeyOptions {
  /** Whether the keys are live (e.g. not while a text input or a question has the keyboard). */
  isActive?: boolean;
  priority?: number;
  /** Commands consumed but ignored while active: the screen's other keys wait, global keys still work. */
  holds?: readonly Command[];
}

/** While active, a key that triggers one of `commands` is consumed and handed to `onCommand`. */
export function useCommandKeys<C extends Command>(
  commands: readonly C[],
  onCommand: (command: C) => void,
  options: CommandKeyOptions = {},
): void {
  const { isActive = true, priority = PRIORITY.screen, holds = [] } = options;
  useKeyHandler(
    priority,
    (input, key) => {
      const command = commandFor(commands, input, key);
      if (command !== undefined) {
        onCommand(command);
        return true;
      }
      return commandFor(holds, input, key) !== undefined;
    },
    isActive,
  );
}
