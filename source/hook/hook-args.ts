// The hook's command line: `hook codex|claude|pi [--home DIR] [--instance ID] [--quarantined FILE]`,
// parsed by hand (no meow on the fast path), and the stdin bound of each client.
import { CmError } from '../errors.js';
import { resolveHome } from '../home.js';
import { HOOK_STDIN_MAX_BYTES, PI_HOOK_STDIN_MAX_BYTES } from '../limits.js';
import type { HookClient } from './payload.js';

const CLIENTS = new Set<string>(['codex', 'claude', 'pi']);
/** What recordFailure names a quarantine file, relative to the home; nothing else is accepted. */
const QUARANTINE_NAME = /^quarantine\/hook-[a-z]+-[0-9]+-[0-9]+\.json$/;

export interface HookArgs {
  client: HookClient | 'pi';
  home: string;
  /** `--instance`: the process instance of the original event, when a quarantined one is replayed. */
  instance: string | undefined;
  /** The shim a replay runs; the one running now unless the caller is another program (pi). */
  shim?: string;
  /** `--quarantined`: the quarantine file (relative to the home) this event is replayed from; kept at most once. */
  quarantined?: string | undefined;
  /** Running in pi's own process (the extension's direct channel): its stderr is pi's terminal. */
  inPiProcess?: boolean;
}

export function parseArgs(argv: string[]): HookArgs {
  const [client, ...rest] = argv;
  let homeFlag: string | undefined;
  let instance: string | undefined;
  let quarantined: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--home') homeFlag = rest[++i];
    else if (rest[i]?.startsWith('--home=')) homeFlag = rest[i]!.slice('--home='.length);
    else if (rest[i] === '--instance') instance = rest[++i];
    else if (rest[i] === '--quarantined') quarantined = rest[++i];
  }
  if (
    !client ||
    !CLIENTS.has(client) ||
    instance === '' ||
    (quarantined !== undefined && !QUARANTINE_NAME.test(quarantined))
  ) {
    throw new CmError(
      'usage',
      'usage: common-memory hook codex|claude|pi [--home DIR] [--instance ID] [--quarantined FILE] < event.json',
    );
  }
  return { client: client as HookClient | 'pi', home: resolveHome(homeFlag), instance, quarantined };
}

export const stdinBound = (client: HookArgs['client']): number =>
  client === 'pi' ? PI_HOOK_STDIN_MAX_BYTES : HOOK_STDIN_MAX_BYTES;
