// Host capture behind the application API: status reads on the host's read-only connection,
// drains and recoveries in the drain thread (started on first use when this process only holds
// the lease for a CLI command; at start-up in a real host).
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import type { CaptureStatus, CaptureStatusRequest, DrainReport, FlushReport } from '../protocol.js';
import { readCaptureStatus, readRemaining } from '../store/core/capture-reads.js';
import type { Db } from '../store/database.js';
import { DrainClient } from '../workers/drain-client.js';
import type { WriterClient } from '../workers/writer-client.js';

export class CaptureService {
  private drainClient: Promise<DrainClient> | undefined;

  private constructor(
    private readonly home: string,
    private readonly storeId: string,
    private readonly mode: CaptureStatus['mode'],
    private readonly reader: Db,
    private readonly writer: WriterClient | null,
  ) {}

  /** `autoDrain`: a real host drains whenever the inbox has work, from its start. */
  static async start(
    home: string,
    storeId: string,
    mode: CaptureStatus['mode'],
    reader: Db,
    writer: WriterClient | null,
    autoDrain: boolean,
  ): Promise<CaptureService> {
    const service = new CaptureService(home, storeId, mode, reader, writer);
    if (autoDrain && writer) {
      service.drainClient = DrainClient.start(storeFiles(home).core, writer, true);
      await service.drainClient;
    }
    return service;
  }

  /** Stops the drain thread (before the writer closes). */
  async close(): Promise<void> {
    const drain = this.drainClient;
    this.drainClient = undefined;
    if (drain) await (await drain).close();
  }

  async status(request: CaptureStatusRequest): Promise<CaptureStatus> {
    return readCaptureStatus(this.reader, {
      storeId: this.storeId,
      mode: this.mode,
      ...request,
      hookErrorsPath: storeFiles(this.home).hookErrors,
      ledger: () => ledgerStatusAt(storeFiles(this.home).ledger, storeFiles(this.home).ledgerHealth),
    });
  }

  private async drainer(): Promise<DrainClient> {
    if (!this.writer)
      throw new CmError('internal', 'This connection is read-only; draining needs the host or the lease.');
    this.drainClient ??= DrainClient.start(storeFiles(this.home).core, this.writer, false);
    return this.drainClient;
  }

  async sessionDrain(request: { recover?: string | undefined }): Promise<DrainReport> {
    const drain = await this.drainer();
    return request.recover !== undefined ? drain.recover(request.recover) : drain.drain();
  }

  async flush(): Promise<FlushReport> {
    const report = await (await this.drainer()).drain();
    const remaining = readRemaining(this.reader);
    const complete =
      remaining.buffered === 0 && remaining.inbox === 0 && remaining.watch === 0 && remaining.isolated === 0;
    return { ...report, complete, remaining };
  }
}
