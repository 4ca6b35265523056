// A file a person names on the command line (`memory lint FILE`, `memory revise --file FILE`): read
// whole, only when it is a regular file (through a link) of at most `maxBytes`. The open is
// non-blocking and the checks are made on the open descriptor before a byte is read, so a FIFO, a
// device or an endless file is refused with a line instead of hanging or filling memory.
import { echoedWord } from '../echo-text.js';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { CmError } from '../errors.js';

/**
 * A path as a message shows it: as given, or JSON-quoted when it holds a control character, so that a
 * file name carrying a terminal escape or a line break never reaches the terminal as raw bytes.
 */
export const shownPath = (path: string): string => (/\p{Cc}/u.test(path) ? JSON.stringify(path) : path);

/** `what`: the command, for the messages ("memory lint"). */
export function readUserFile(path: string, maxBytes: number, what: string): string {
  // A path thousands of characters long is said by its start and length, as any typed input is.
  const shown = echoedWord(shownPath(path));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CmError('not_found', `Cannot read ${shown}: no such file; ${what} read nothing.`);
    throw new CmError(
      'invalid_input',
      `Cannot read ${shown} (${code ?? (error as Error).message}); ${what} read nothing.`,
    );
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new CmError('invalid_input', `${shown} is not a regular file; give ${what} a file. Nothing was read.`);
    if (stats.size > maxBytes)
      throw new CmError(
        'limit_exceeded',
        `${shown} is ${stats.size} bytes, over the ${maxBytes}-byte limit of ${what}; nothing was read.`,
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
