// What waits to be processed, in words, with the one command that processes it: shared by
// `sessions`, `memory review` and the TUI's Dashboard, so all three say the same.
import type { HostStatus } from './api/history.js';

export const FLUSH_COMMAND = 'common-memory flush';
export const SERVICE_COMMAND = 'common-memory service install';

/** "2 captured event(s) and 1 sealed turn(s)", or null when nothing waits. */
export function waitingCounts(waiting: HostStatus['waiting']): string | null {
  const parts = [
    waiting.events > 0 ? `${waiting.events} captured event(s)` : '',
    waiting.turns > 0 ? `${waiting.turns} sealed turn(s)` : '',
  ].filter(Boolean);
  return parts.length === 0 ? null : parts.join(' and ');
}

/** For a command that found no host: what waits, and how to process it now or for good; null when nothing waits. */
export function waitingText(waiting: HostStatus['waiting']): string | null {
  const counts = waitingCounts(waiting);
  if (counts === null) return null;
  return `${counts} wait to be processed (no host is running). Process them now: ${FLUSH_COMMAND} — or keep them processed in the background: ${SERVICE_COMMAND}`;
}
