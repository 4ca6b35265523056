// How a CLI command or the TUI reaches common-memory: the running host's API when there is one;
// otherwise, for writes, this process takes the lease for its own duration; for reads, a
// read-only connection that takes no lease.
import { existsSync, readFileSync } from 'node:fs';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import { Host, type HostInfoFile } from '../host/host.js';
import type { Application } from '../protocol.js';
import { ApiClient } from './api-client.js';
import { ReadOnlyApplication } from './read-only-application.js';

export interface Connection {
  app: Application;
  mode: 'remote' | 'local' | 'read-only';
  close(): Promise<void>;
}

/** How long a command waits for another short command that holds the lease. */
const LOCAL_LEASE_WAIT_MS = 3000;

export function readHostInfo(home: string): HostInfoFile | undefined {
  try {
    return JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')) as HostInfoFile;
  } catch {
    return undefined;
  }
}

/** The running host's API, or undefined when none answers as the host that host.json names. */
export async function findRunningHost(home: string): Promise<ApiClient | undefined> {
  const info = readHostInfo(home);
  if (!info || info.role !== 'host' || !info.port || !info.token) return undefined;
  const client = new ApiClient(info.port, info.token);
  try {
    const status = await client.status();
    return status.hostId === info.hostId ? client : undefined;
  } catch {
    return undefined; // host.json left by a host that died; the lease decides, not this file.
  }
}

export async function connect(home: string, need: 'write' | 'read'): Promise<Connection> {
  const remote = await findRunningHost(home);
  if (remote) return { app: remote, mode: 'remote', close: async () => {} };
  if (need === 'read') {
    // A read never creates a store: a home without one is "not found", and stays as it was.
    if (!existsSync(storeFiles(home).core)) throw noStore(home);
    // A store of an older schema is migrated once (briefly holding the lease), then read without it.
    if (!ReadOnlyApplication.isCurrent(storeFiles(home).core)) {
      await (await Host.start({ home, serve: false, leaseWaitMs: LOCAL_LEASE_WAIT_MS })).stop();
    }
    const reader = ReadOnlyApplication.open(storeFiles(home).core);
    return { app: reader, mode: 'read-only', close: async () => reader.close() };
  }
  try {
    const host = await Host.start({ home, serve: false, leaseWaitMs: LOCAL_LEASE_WAIT_MS });
    return { app: host.application, mode: 'local', close: () => host.stop() };
  } catch (error) {
    // A host may have started between our look and our lease attempt.
    if (error instanceof CmError && error.code === 'store_already_open') {
      const late = await findRunningHost(home);
      if (late) return { app: late, mode: 'remote', close: async () => {} };
    }
    throw error;
  }
}

export function noStore(home: string): CmError {
  return new CmError(
    'not_found',
    `No store in ${home} yet: nothing was recorded there, and nothing was created. Install the hooks (common-memory install claude|codex), write a note or open the TUI; or choose another data home with --home.`,
  );
}
