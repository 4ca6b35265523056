// How long a hook may wait for the store's write lock. A hook's deadline is its host's, counted
// from the hook process's own start (node's start-up is part of it): Codex clamps SessionEnd and
// Interrupt to 3 s; Claude Code gives SessionEnd the longest timeout its SessionEnd entries ask for,
// at least 1.5 s (2.1.332's shutdown code), which with the entry `install` writes is
// CLAUDE_SESSION_END_TIMEOUT_SEC; every other event has the timeout `install` writes. The wait is
// SQLite's busy handler, which sleeps, so many waiting hooks leave the CPU to the one that holds
// the lock. (Polling retries with short sleeps, tried under 32-way load, lost more events: the
// pollers took the CPU from the lock holder.)
import {
  CLAUDE_SESSION_END_TIMEOUT_SEC,
  CODEX_CLAMPED_HOOK_TIMEOUT_SEC,
  HOOK_LOCK_WAIT_MIN_MS,
  HOOK_REPLY_MARGIN_MS,
  HOOK_TIMEOUT_SEC,
} from '../limits.js';
import type { HookClient } from './payload.js';
import { processUptimeMs } from '../ground/lazy-builtin.js';

/** The host's deadline for this event, in ms from the hook process's start. */
export function hookDeadlineMs(client: HookClient, event: string): number {
  if (event === 'SessionEnd' && client === 'claude') return CLAUDE_SESSION_END_TIMEOUT_SEC * 1000;
  if (client === 'codex' && (event === 'SessionEnd' || event === 'Interrupt'))
    return CODEX_CLAMPED_HOOK_TIMEOUT_SEC * 1000;
  return HOOK_TIMEOUT_SEC * 1000;
}

/**
 * What is left of the deadline for waiting, keeping HOOK_REPLY_MARGIN_MS to commit, reply and exit.
 * Never below HOOK_LOCK_WAIT_MIN_MS: a hook whose start-up ate its deadline has not been stopped
 * yet, and giving up at once would only lose the event.
 */
export function waitBudgetMs(deadlineMs: number, elapsedMs = processUptimeMs()): number {
  return Math.max(HOOK_LOCK_WAIT_MIN_MS, Math.round(deadlineMs - elapsedMs - HOOK_REPLY_MARGIN_MS));
}

/** SQLite's "database is locked": the one failure a longer wait can cure. */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
