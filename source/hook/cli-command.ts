// The command a session's model can run in its shell to reach common-memory, named in the
// SessionStart snapshot beside the MCP tools. `common-memory` is on PATH only after `npm link`:
// the same absolute node and shim this process runs with work as they are (as the hook commands
// `install` writes do). Imports no module of Node: the hook's fast path loads this.
import { shellQuote } from '../shell-quote.js';

/**
 * `<node> <shim> --home <home>`, quoted for a shell: a command's words follow it. The home is
 * always named: a hook installed with --home, or run with $COMMON_MEMORY_HOME, has a home the
 * model's shell may not know (and telling the default apart would load node:os on the fast path).
 */
export function cliCommand(home: string, shim?: string): string {
  return [process.execPath, shim ?? process.argv[1] ?? 'common-memory', '--home', home].map(shellQuote).join(' ');
}
