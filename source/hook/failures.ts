// What the hook leaves when it cannot keep an event: a line in hook-errors.jsonl for `status`, and
// the event itself quarantined byte for byte with the command that replays it; the line that
// resolves a quarantine once its event is kept. Never throws: the user's agent is never failed.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrokenInstallError } from '../broken-install.js';
import { CmError } from '../errors.js';
import { ensureHome, storeFiles } from '../home.js';
import { processUptimeMs } from '../ground/lazy-builtin.js';
import { HOOK_TAIL_MAX_BYTES } from '../limits.js';
import { shellQuote } from '../shell-quote.js';
import { type HookArgs, stdinBound } from './hook-args.js';
import type { OmittedContent } from './pi-capture.js';

/**
 * Stdin over its bound: reading stopped at bound + 1 bytes. Nothing can be replayed from a cut
 * payload, so only its first bytes are kept (HOOK_OVER_LIMIT_HEAD_BYTES) with its size, known
 * when stdin is a regular file, else "at least".
 */
export class StdinOverLimit extends CmError {
  constructor(
    readonly head: Buffer,
    readonly knownBytes: number | null,
    bound: number,
  ) {
    super(
      'limit_exceeded',
      // A pipe's size is unknown past the bound: said without "more than N bytes is over N".
      `hook payload${knownBytes === null ? '' : ` of ${knownBytes} bytes`} is over the ${bound}-byte bound of an event: reading stopped there; its first ${head.length} bytes are kept (head) and it cannot be replayed`,
    );
  }
}

/** A quarantine file just written, and the name its event is kept under (the first file's, for a replay). */
export interface Quarantined {
  file: string;
  marker: string;
}

/**
 * Best effort: the failure is kept next to the store so that `status` can report it, and the event
 * itself (within the payload limit) is quarantined byte for byte with the command that replays it
 * once the cause is fixed — never dropped, never guessed at.
 */
export function recordFailure(
  args: HookArgs,
  instance: string,
  error: unknown,
  raw: Buffer | undefined,
  part: 'event' | 'snapshot' = 'event',
): Quarantined | undefined {
  const at = new Date();
  let kept: Quarantined | undefined;
  const record: Record<string, unknown> = {
    at: at.toISOString(),
    client: args.client,
    instance,
    code: (error as CmError).code ?? 'internal',
    message: (error as Error).message,
    elapsedMs: Math.round(processUptimeMs()),
  };
  // The event itself was kept: only the session-start memory was not given.
  if (part === 'snapshot') record['part'] = 'snapshot';
  // The installation cannot run in this Node: status shows how to repair it, then the replay lines work.
  // (`message` is then what is wrong alone, as the shim writes it: status adds the fix once.)
  if (error instanceof BrokenInstallError) {
    record['message'] = error.what;
    record['fix'] = error.fix;
  }
  try {
    ensureHome(args.home);
    if (error instanceof StdinOverLimit) {
      if (error.knownBytes !== null) record['payloadBytes'] = error.knownBytes;
      else record['payloadBytesAtLeast'] = stdinBound(args.client) + 1;
      const name = `hook-${args.client}-${at.getTime()}-${process.pid}.head`;
      mkdirSync(storeFiles(args.home).quarantine, { recursive: true, mode: 0o700 });
      writeFileSync(join(storeFiles(args.home).quarantine, name), error.head, { mode: 0o600 });
      record['head'] = `quarantine/${name}`;
    } else if (raw !== undefined && raw.length <= stdinBound(args.client)) {
      const name = `hook-${args.client}-${at.getTime()}-${process.pid}.json`;
      mkdirSync(storeFiles(args.home).quarantine, { recursive: true, mode: 0o700 });
      writeFileSync(join(storeFiles(args.home).quarantine, name), raw, { mode: 0o600 });
      const file = `quarantine/${name}`;
      // A replay's failure names the file the event first went to: one marker keeps it once.
      kept = { file, marker: args.quarantined ?? file };
      record['quarantined'] = file;
      record['keptAs'] = kept.marker;
      // The same node and shim this hook ran with: the line works as it is, without PATH or npx. It
      // names the original process instance, so the event returns to its own activation.
      const words = [
        process.execPath,
        args.shim ?? process.argv[1] ?? 'common-memory',
        'hook',
        args.client,
        '--home',
        args.home,
        '--instance',
        instance,
        '--quarantined',
        kept.marker,
      ];
      const hook = words.map(shellQuote).join(' ');
      record['replay'] = `${hook} < ${shellQuote(join(storeFiles(args.home).quarantine, name))}`;
    } else if (raw !== undefined) {
      record['payloadBytes'] = raw.length;
    }
  } catch {
    // The quarantine is best effort too; the failure line below still says what happened.
  }
  appendHookErrorLine(args, record);
  return kept;
}

/**
 * The event of a quarantine file is in the inbox now: a line says so (status counts only
 * unresolved failures) and the file goes, its bytes being kept in the store.
 */
export function resolveQuarantine(args: HookArgs, instance: string, marker: string, how: string, file = marker): void {
  appendHookErrorLine(args, {
    at: new Date().toISOString(),
    client: args.client,
    instance,
    resolved: marker,
    how,
    elapsedMs: Math.round(processUptimeMs()),
  });
  for (const name of new Set([marker, file])) rmSync(join(args.home, name), { force: true });
}

/** Causes already printed on pi's stderr by this process (the extension's channel runs in pi's process). */
const printedInPi = new Set<string>();
/** At most this many different causes are printed into one pi's terminal. */
const PI_PRINTED_CAUSES_MAX = 8;

export function appendHookErrorLine(args: HookArgs, record: Record<string, unknown>): void {
  const line = JSON.stringify(record);
  try {
    ensureHome(args.home);
    appendFileSync(storeFiles(args.home).hookErrors, `${line}\n`, { mode: 0o600 });
  } catch {
    if (!args.inPiProcess) {
      process.stderr.write(`common-memory hook: ${line}\n`);
      return;
    }
    // pi's terminal is the user's: one short line per cause, never one per event.
    const cause = String(record['code'] ?? 'internal');
    if (printedInPi.has(cause) || printedInPi.size >= PI_PRINTED_CAUSES_MAX) return;
    printedInPi.add(cause);
    process.stderr.write(`common-memory: cannot record this pi session (${cause}): ${String(record['message'])}\n`);
  }
}

/** A message kept without its content: a line for `status` (nothing to replay: the event is in the inbox). */
export function reportOmitted(args: HookArgs, instance: string, omitted: OmittedContent): void {
  appendHookErrorLine(args, {
    at: new Date().toISOString(),
    client: args.client,
    instance,
    code: 'limit_exceeded',
    message: `pi ${omitted.role} message of ${omitted.contentBytes} bytes is over the ${HOOK_TAIL_MAX_BYTES}-byte capture bound: kept without its content (sha256 ${omitted.contentSha256}); the interaction is captured.`,
    elapsedMs: Math.round(performance.now()),
  });
}
