// The memory pipeline behind the application API: extraction runs in the runners thread (started
// with a real host, which also extracts newly sealed turns by itself unless the setting turns it
// off; on first use when a CLI command holds the lease), reads over read-only connections.
import { AUTO_EXTRACT_ENV } from '../limits.js';
import { memoryRecallAt, memoryReviewAt, memoryStatusAt } from '../memory/memory-access.js';
import { memoryGetAt, memorySearchAt, syncApproved } from '../memory/approved-access.js';
import { holderName } from '../workers/extraction-pipeline.js';
import { storeFiles } from '../home.js';
import type { MemoryExtractRequest, MemoryExtractReport, MemoryStatus } from '../protocol.js';
import { RunnersClient } from '../workers/runners-client.js';
import type { WriterClient } from '../workers/writer-client.js';

/** Whether a host extracts newly sealed turns by itself: on, unless COMMON_MEMORY_AUTO_EXTRACT is "off" or "0". */
export function autoExtractEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[AUTO_EXTRACT_ENV]?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}

export class MemoryService {
  private runners: Promise<RunnersClient> | undefined;

  private constructor(
    private readonly home: string,
    private readonly writer: WriterClient,
    private readonly hostId: string,
    private readonly auto: boolean,
  ) {}

  /** `serve`: a real host, whose runners start now (and extract by themselves when enabled). */
  static async start(home: string, writer: WriterClient, hostId: string, serve: boolean): Promise<MemoryService> {
    const service = new MemoryService(home, writer, hostId, serve && autoExtractEnabled());
    if (serve) {
      service.runners = service.startRunners();
      // A damaged memory-state must not stop the host: the runners report it on first use instead.
      await service.runners.catch(() => (service.runners = undefined));
      // Memory files edited while no host ran are picked up at start; a failure shows in the next
      // `memory sync` or `memory search` (coverage), never stops the host.
      service.startSync = service.sync(process.cwd()).catch(() => undefined);
    }
    return service;
  }

  private startRunners(): Promise<RunnersClient> {
    return RunnersClient.start(storeFiles(this.home).core, this.writer, this.auto, holderName(`host-${this.hostId}`));
  }

  /** The sync a real host runs at start; awaited before the writer goes away. */
  private startSync: Promise<unknown> | undefined;

  async close(): Promise<void> {
    await this.startSync;
    const runners = this.runners;
    this.runners = undefined;
    if (runners) await (await runners.catch(() => undefined))?.close();
  }

  async extract(request: MemoryExtractRequest): Promise<MemoryExtractReport> {
    this.runners ??= this.startRunners();
    const runners = await this.runners.catch((error: unknown) => {
      this.runners = undefined;
      throw error;
    });
    return runners.extract(request);
  }

  async status(): Promise<MemoryStatus> {
    const client = this.runners ? await this.runners.catch(() => undefined) : undefined;
    return memoryStatusAt(storeFiles(this.home).memoryState, this.auto, client?.active ?? null);
  }

  async review(request: { cwd: string }) {
    return memoryReviewAt(storeFiles(this.home).memoryState, request.cwd);
  }

  async recall(request: { text: string; cwd: string; limit?: number | undefined }) {
    return memoryRecallAt(storeFiles(this.home).memoryState, request.text, request.cwd, request.limit);
  }

  /** Scans the memory roots of `cwd` into the approved projection (file reads here, the store in the writer). */
  sync(cwd: string) {
    return syncApproved(
      {
        memoryStatePath: storeFiles(this.home).memoryState,
        home: this.home,
        open: () => this.writer.call('memoryOpen', {}),
        store: (input) => this.writer.call('memorySyncApproved', input),
      },
      cwd,
    );
  }

  async search(request: { query: string; cwd: string; limit?: number | undefined }) {
    return memorySearchAt(storeFiles(this.home).memoryState, request.cwd, request.query, request.limit);
  }

  async get(request: { entryId: string; cwd: string }) {
    return memoryGetAt(storeFiles(this.home).memoryState, request.cwd, request.entryId);
  }
}
