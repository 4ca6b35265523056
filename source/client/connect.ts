// How a CLI command or the TUI reaches common-memory: the running host's API when there is one
// (a host that holds the lease but is still starting is waited for, briefly); otherwise, for
// writes, this process takes the lease for its own duration; for reads, a read-only connection
// that takes no lease.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_MEMORY_ROOT, USER_MEMORY_ROOT } from '../effects/memory-root.js';
import { resolveScopeQuickly } from '../effects/repository.js';
import { CmError } from '../errors.js';
import { homeReadProblem, storeFiles } from '../home.js';
import type { Host, HostInfoFile } from '../host/host.js';
import { processStartTime } from '../host/lease.js';
import { HOST_LEASE_LOCAL_WAIT_MS, HOST_PROBE_TIMEOUT_MS, HOST_START_POLL_MS, HOST_START_WAIT_MS } from '../limits.js';
import type { Application } from '../api/application.js';
import type { HostStatus } from '../api/history.js';
import { http } from '../ground/lazy-builtin.js';

export interface Connection {
  app: Application;
  mode: 'remote' | 'local' | 'read-only';
  close(): Promise<void>;
}

export function readHostInfo(home: string): HostInfoFile | undefined {
  try {
    return JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')) as HostInfoFile;
  } catch {
    return undefined;
  }
}

/**
 * The running host's API, or undefined when none answers as the host that host.json names. A host
 * that is still starting (it holds the lease, migrates, starts its threads) is waited for until it
 * serves, up to HOST_START_WAIT_MS.
 */
export async function findRunningHost(
  home: string,
  onStarting?: (pid: number) => void,
): Promise<Application | undefined> {
  const info = await untilServing(home, onStarting);
  if (!info || info.role !== 'host' || !info.port || !info.token) return undefined;
  const answer = await probeHost(info.port, info.token);
  if (answer === 'silent' && isAlive(info)) {
    // The process that holds the data home is alive but does not answer: waiting for the lease
    // would only end in "already open" much later. Say what is wrong, within a bounded wait.
    throw new CmError(
      'host_unreachable',
      `The common-memory host (pid ${info.pid}, 127.0.0.1:${info.port}) holds ${home} but did not answer within ${HOST_PROBE_TIMEOUT_MS / 1000} s. It may be suspended or overloaded: try again, or stop it (kill ${info.pid}) and run the command again.`,
    );
  }
  // A host.json left by a host that died: the lease decides, not this file.
  // The HTTP client (and the route tables it is made from) only when a host answers.
  return answer === info.hostId ? (await import('./api-client.js')).apiClient(info.port, info.token) : undefined;
}

/** What host.json says once no live host is starting any more: a starting host is waited for, within the bound. */
async function untilServing(
  home: string,
  onStarting: ((pid: number) => void) | undefined,
): Promise<HostInfoFile | undefined> {
  const deadline = Date.now() + HOST_START_WAIT_MS;
  for (let waited = false; ; waited = true) {
    const info = readHostInfo(home);
    // A local holder is waited for by the lease itself; a host killed while starting left only its file.
    if (info?.role !== 'host' || info.state !== 'starting' || !isAlive(info)) return info;
    if (!waited) onStarting?.(info.pid);
    if (Date.now() >= deadline) throw stillStarting(home, info);
    await new Promise((resolve) => setTimeout(resolve, HOST_START_POLL_MS));
  }
}

function stillStarting(home: string, info: HostInfoFile): CmError {
  return new CmError(
    'host_unreachable',
    `The common-memory host (pid ${info.pid}) holds ${home} but is still starting after ${HOST_START_WAIT_MS / 1000} s (it may be migrating a large store). Nothing was written. Run the command again once it serves ("common-memory host" prints a line then), or stop it (kill ${info.pid}) and run the command again.`,
  );
}

/** The host ID the API answers with; 'silent' when it accepted the connection but gave no answer in time. */
function probeHost(port: number, token: string): Promise<string | 'silent' | undefined> {
  return new Promise((resolve) => {
    const request = http().request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/status',
        headers: { authorization: `Bearer ${token}` },
        timeout: HOST_PROBE_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(
              response.statusCode === 200
                ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as HostStatus).hostId
                : undefined,
            );
          } catch {
            resolve(undefined);
          }
        });
        response.on('error', () => resolve(undefined));
      },
    );
    request.on('timeout', () => {
      request.destroy();
      resolve('silent');
    });
    request.on('error', () => resolve(undefined));
    request.end();
  });
}

/** Whether the process host.json names still runs (the same process, not a reused pid). */
function isAlive(info: HostInfoFile): boolean {
  try {
    process.kill(info.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return info.processStartedAt === null || processStartTime(info.pid) === info.processStartedAt;
}

/**
 * read: the host, or a read-only connection; write: the host, or the lease for this command's
 * duration; host: only a running host will do (agents run inside one).
 */
export async function connect(
  home: string,
  need: 'write' | 'read' | 'host',
  options: LocalOptions = {},
): Promise<Connection> {
  const remote = await findRunningHost(home, sayWaiting(home));
  if (remote) return remoteConnection(remote);
  if (need === 'host') {
    throw new CmError(
      'host_unreachable',
      `No common-memory host is running for ${home}, and agents run inside one. Start it with "common-memory host" in another terminal (or open the TUI), then try again.`,
    );
  }
  try {
    return need === 'read' ? await readOnlyConnection(home) : await localConnection(home, options);
  } catch (error) {
    // A host may have taken the lease between our look and our attempt: it is used once it serves.
    if (error instanceof CmError && error.code === 'store_already_open') {
      const late = await findRunningHost(home, sayWaiting(home));
      if (late) return remoteConnection(late);
    }
    throw error;
  }
}

/** One line on stderr while a starting host is waited for (stdout stays the command's own, --json too). */
export const sayWaiting =
  (home: string) =>
  (pid: number): void => {
    process.stderr.write(
      `common-memory: the host (pid ${pid}) that holds ${home} is still starting; waiting up to ${HOST_START_WAIT_MS / 1000} s for it…\n`,
    );
  };

const remoteConnection = (app: Application): Connection => ({ app, mode: 'remote', close: async () => {} });

/**
 * The host's code is loaded only by the commands that start one: a read answered by a running host
 * or read-only never loads it (whole-process start-up of plain reads, scripts call them in loops).
 */
const startHost = async (home: string, options: LocalOptions = {}): Promise<Host> =>
  (await import('../host/host.js')).Host.start({
    home,
    serve: false,
    leaseWaitMs: HOST_LEASE_LOCAL_WAIT_MS,
    ...options,
  });

/** How a command that must write works without a host (HostOptions, a local host's). */
export interface LocalOptions {
  /** About to drain (session-drain, flush): the drain thread starts at once. */
  drain?: boolean;
  /** Busy on its own thread while it writes (an import's parse): the writer gets a thread. */
  writerThread?: boolean;
}

async function readOnlyConnection(home: string): Promise<Connection> {
  // A read never creates a store: a home without one is "not found", and stays as it was.
  if (!existsSync(storeFiles(home).core)) throw homeReadProblem(home) ?? noStore(home);
  // Loaded here, not with this module: the TUI asks findRunningHost before its first frame, which
  // needs no store reads.
  const { isCurrentStore, openReadOnly } = await import('./read-only-application.js');
  // A store of an older schema is migrated once (briefly holding the lease), then read without it.
  if (!isCurrentStore(storeFiles(home).core)) {
    await (await startHost(home)).stop();
  }
  const reader = openReadOnly(storeFiles(home).core);
  return { app: reader.app, mode: 'read-only', close: async () => reader.close() };
}

async function localConnection(home: string, options: LocalOptions): Promise<Connection> {
  const host = await startHost(home, options);
  return { app: host.application, mode: 'local', close: () => host.stop() };
}

export function noStore(home: string): CmError {
  // Hooks that failed before any store was made leave only their error file: installing them again is not the answer.
  const hookErrors = storeFiles(home).hookErrors;
  if (existsSync(hookErrors))
    return new CmError(
      'not_found',
      `No store in ${home} yet, but hooks ran here and could not record their events: ${hookErrors} says why, one line each. Nothing was created.`,
    );
  // `memory init --scope user` lays out the user memory and makes no store: its files are there to
  // be read into one, which memory sync does; "nothing was recorded" would be false.
  const userMemory = join(home, USER_MEMORY_ROOT);
  if (existsSync(userMemory))
    return new CmError(
      'not_found',
      `No store in ${home} yet: its user memory (${userMemory}) has not been read yet: run common-memory memory sync, which reads it into a new store, and ask again. Nothing was created.`,
    );
  // A fresh clone: the team's memory files are in the repository, and memory sync reads them (file
  // reads find the worktree; this is on the way to an error only).
  const worktree = resolveScopeQuickly(process.cwd());
  const teamMemory = worktree.scope === 'project' ? join(worktree.rootRealpath, PROJECT_MEMORY_ROOT) : null;
  if (teamMemory && existsSync(teamMemory))
    return new CmError(
      'not_found',
      `No store in ${home} yet: this repository's memory files (${teamMemory}) have not been read yet: run common-memory memory sync, which reads them into a new store, and ask again. Nothing was created.`,
    );
  return new CmError(
    'not_found',
    `No store in ${home} yet: nothing was recorded there, and nothing was created. Install the hooks (common-memory install claude|codex|pi), import what you said before (common-memory import claude|codex|pi), write a note or open the TUI; or choose another data home with --home.`,
  );
}
