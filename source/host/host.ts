// The host: exactly one per data home. Start-up order (seed 003): take the lease, say so in
// host.json (starting), open the store and load its identity and heads (the writer), new host ID,
// reconcile, append host.started (a serving host only), then admit clients (host.json: ready).
// Shutdown runs the same steps backwards.
import { randomBytes, randomUUID } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { ensureHome, storeFiles } from '../home.js';
import { openDatabase, type Db } from '../store/database.js';
import { join } from 'node:path';
import { type Application, applicationOf } from '../api/application.js';
import { AgentsClient } from '../workers/agents-client.js';
import type { DrainClient } from '../workers/drain-client.js';
import { WriterClient } from '../workers/writer-client.js';
import { startApiServer } from './api-server.js';
import { CaptureService } from './capture-service.js';
import { MemoryService } from './memory-service.js';
import { AgentsService } from './agents-service.js';
import { HistoryService } from './history-service.js';
import { HOST_LEASE_LOCAL_WAIT_MS } from '../limits.js';
import { acquireLease, acquireLeaseForHost, processStartTime, type Lease } from './lease.js';

export interface HostOptions {
  home: string;
  /** Serve the loopback API (a real host) or not (a CLI command working alone for its own duration). */
  serve: boolean;
  port?: number;
  /** How long to wait for a short-lived holder of the lease to finish. */
  leaseWaitMs?: number;
  /**
   * A command about to drain (session-drain, flush): its drain thread starts as soon as the writer
   * is ready, alongside the rest of the start, instead of at the first drain call. A real host
   * starts its drain thread anyway.
   */
  drain?: boolean;
  /**
   * A command that works on this thread while its writes commit (an import parses its files here):
   * its writer runs on a thread of its own, as a serving host's does, instead of on this one.
   */
  writerThread?: boolean;
}

/**
 * host.json, written by the lease holder as soon as it holds the lease: `starting` while it opens and
 * migrates the store and starts its threads (no store ID, port or token yet), `ready` once it works —
 * for a host, once it serves its API. Commands wait for a starting host instead of failing.
 */
export interface HostInfoFile {
  hostId: string;
  storeId: string | null;
  pid: number;
  processStartedAt: string | null;
  role: 'host' | 'local';
  startedAt: string;
  state: 'starting' | 'ready';
  port: number | null;
  token: string | null;
}

export class Host {
  private stopped = false;

  private constructor(
    readonly home: string,
    readonly application: Application,
    readonly info: HostInfoFile,
    private readonly lease: Lease,
    private readonly writer: WriterClient,
    private readonly reader: Db,
    private readonly server: Server | undefined,
    private readonly agents: AgentsClient | undefined,
    private readonly capture: CaptureService,
    private readonly memory: MemoryService,
  ) {}

  static async start(options: HostOptions): Promise<Host> {
    const { home } = options;
    ensureHome(home);
    const role = options.serve ? 'host' : 'local';
    const hostId = randomUUID();
    const startedAt = new Date().toISOString();
    const processStartedAt = processStartTime(process.pid);
    const holder = { hostId, pid: process.pid, processStartedAt, role, startedAt } as const;
    const lease = options.serve
      ? await acquireLeaseForHost(home, holder, HOST_LEASE_LOCAL_WAIT_MS)
      : acquireLease(home, holder, options.leaseWaitMs ?? 0);
    let writer: WriterClient | undefined;
    let reader: Db | undefined;
    let server: Server | undefined;
    let agents: AgentsClient | undefined;
    let capture: CaptureService | undefined;
    let memory: MemoryService | undefined;
    let drain: Promise<DrainClient> | undefined;
    try {
      // Said at once, so that a command run meanwhile waits for this host rather than failing.
      writeInfoFile(home, { ...holder, storeId: null, state: 'starting', port: null, token: null });
      // A serving host writes on a thread of its own; a command working alone on its own thread,
      // unless it has work of its own to do meanwhile.
      writer =
        options.serve || options.writerThread
          ? await WriterClient.start(storeFiles(home).core)
          : await (await import('../workers/writer-inline.js')).startInlineWriter(storeFiles(home).core);
      if (options.drain && !options.serve) drain = CaptureService.startDrain(home, writer);
      // Work an earlier host left unfinished is interrupted, never replayed; history is not rebuilt.
      await writer.call('reconcileOnStartup', { hostId });
      // Only a real host is an activation worth a journal row; a command holding the lease for its
      // own few milliseconds would otherwise fill a fresh journal with host.started/host.stopped pairs.
      if (options.serve) await writer.call('hostStarted', { hostId, pid: process.pid, processStartedAt, role });
      reader = openDatabase(storeFiles(home).core, { readonly: true });
      if (options.serve)
        agents = AgentsClient.start(writer, hostId, maxRecordBytesFromEnv(), storeFiles(home).memoryState);
      const info: HostInfoFile = {
        hostId,
        storeId: writer.storeId,
        pid: process.pid,
        processStartedAt,
        role,
        startedAt,
        state: 'ready',
        port: null,
        token: null,
      };
      const identity = { storeId: writer.storeId, hostId, pid: process.pid, startedAt, mode: role } as const;
      capture = await CaptureService.start(home, writer.storeId, role, reader, writer, options.serve, drain);
      memory = await MemoryService.start(home, writer, hostId, options.serve);
      const extractor = memory;
      capture.extractSealed = (sealedByMs) => extractor.extractSealed(sealedByMs);
      const application = applicationOf({
        history: new HistoryService(writer, reader, identity),
        agents: new AgentsService(writer, reader, join(home, 'agents'), agents),
        capture,
        memory,
      });
      if (options.serve) {
        info.token = randomBytes(32).toString('hex');
        const served = await startApiServer(application, info.token, options.port ?? 0);
        server = served.server;
        info.port = served.port;
      }
      writeInfoFile(home, info);
      return new Host(home, application, info, lease, writer, reader, server, agents, capture, memory);
    } catch (error) {
      server?.close();
      await agents?.shutdown().catch(() => undefined);
      // The drain thread stops before the writer, whoever owns it by now.
      await (capture?.close() ?? drain?.then((client) => client.close()))?.catch(() => undefined);
      reader?.close();
      await writer?.close();
      rmSync(storeFiles(home).hostInfo, { force: true });
      lease.release();
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    }
    try {
      // Admission closes first; every agent is stopped and its generation retired before the store is released.
      await this.agents?.shutdown();
      // The drain stops before the writer: no capture step is left half-submitted.
      await this.capture.close();
      // Runs stop before the writer too: a run resumes from its last committed step.
      await this.memory.close();
      if (this.info.role === 'host') await this.writer.call('hostStopped', { hostId: this.info.hostId });
    } finally {
      this.reader.close();
      await this.writer.close();
      rmSync(storeFiles(this.home).hostInfo, { force: true });
      this.lease.release();
    }
  }
}

/** Drills lower the record limit (COMMON_MEMORY_DRILL_RECORD_BYTES) to reach the over-limit path with small lines. */
function maxRecordBytesFromEnv(): number | undefined {
  const value = Number(process.env['COMMON_MEMORY_DRILL_RECORD_BYTES']);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** host.json: how clients find the API (port + bearer token). 0600, replaced atomically. */
function writeInfoFile(home: string, info: HostInfoFile): void {
  const path = storeFiles(home).hostInfo;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
