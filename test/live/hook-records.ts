// Reading what test/live/record-hook.mjs wrote, and building the command that runs it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HookCommand } from './sandbox.js';
import { shellQuote } from './sandbox.js';

/** The env var naming the JSONL file the recording hook appends to. */
export const HOOK_RECORD_ENV = 'CM_LIVE_HOOK_RECORD';
export const RECORD_HOOK_SCRIPT = fileURLToPath(new URL('./record-hook.mjs', import.meta.url));

export interface HookRecord {
  /** The event the config registered the command for (argv). */
  readonly event: string | null;
  readonly at: number;
  readonly pid: number;
  readonly cwd: string;
  /** CLAUDE_* / CODEX_* variables the hook saw. */
  readonly env: Readonly<Record<string, string>>;
  /** Parsed stdin; null if it was not JSON (then `raw` holds it). */
  readonly payload: Record<string, unknown> | null;
  readonly raw?: string;
}

/** `node record-hook.mjs <Event>` with absolute paths, so it works from any cwd. */
export const recordingHookCommand: HookCommand = (event) =>
  [process.execPath, RECORD_HOOK_SCRIPT, event].map(shellQuote).join(' ');

export function readHookRecords(file: string): HookRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as HookRecord);
}

/** The fired event names in order, as the payloads state them. */
export function firedEvents(records: readonly HookRecord[]): string[] {
  return records.map((r) => String(r.payload?.['hook_event_name'] ?? r.event));
}
