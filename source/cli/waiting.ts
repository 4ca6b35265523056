// Whether a read without a host should say that captured work waits: a running host processes it
// within seconds, so only a read that found none asks (one more read of the same connection).
import type { Connection } from '../client/connect.js';
import type { HostStatus } from '../api/history.js';

/** What waits, or null when a host processes it or nothing waits. */
export async function waitingWithoutHost(connection: Connection): Promise<HostStatus['waiting'] | null> {
  if (connection.mode === 'remote') return null;
  const { waiting } = await connection.app.status();
  return waiting.events + waiting.turns > 0 ? waiting : null;
}
