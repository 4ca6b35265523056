// The capture area behind the application API: status and session reads on the host's read-only connection,
// drains and recoveries in the drain thread (started on first use when this process only holds
// the lease for a CLI command; at start-up in a real host).
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';
import { CmError } from '../errors.js';
import { storeFiles } from '../home.js';
import type {
  CaptureRoutes,
  CaptureStatus,
  CaptureStatusRequest,
  DrainReport,
  FlushExtraction,
  FlushReport,
  FlushRequest,
  ImportRequest,
  ImportRun,
  SessionListRequest,
  SessionReadRequest,
  SessionSearchRequest,
} from '../api/capture.js';
import type { MethodsOf } from '../api/route.js';
import { readCaptureStatus, readRemaining } from '../store/core/capture-reads.js';
import type { Db } from '../store/database.js';
import { listSessions, readSession } from '../store/core/session-reads.js';
import { sessionSearch } from '../store/core/session-search.js';
import { DrainClient } from '../workers/drain-client.js';
import { runImport } from '../hosts/import-run.js';
import { storeImportSink } from '../workers/import-sink.js';
import { parseUtc } from '../memory/window.js';
import { ImportRuns } from './import-runs.js';
import type { WriterClient } from '../workers/writer-client.js';

/** Every method of the capture area (the compiler asks for each one the area declares). */
export class CaptureService implements MethodsOf<CaptureRoutes> {
  private drainClient: Promise<DrainClient> | undefined;

  private constructor(
    private readonly home: string,
    private readonly storeId: string,
    private readonly mode: CaptureStatus['mode'],
    private readonly reader: Db,
    private readonly writer: WriterClient | null,
  ) {}

  /**
   * `autoDrain`: a real host drains whenever the inbox has work, from its start. `drain`: a drain
   * thread a command started already (startDrain), used at its first drain instead of starting one.
   */
  static async start(
    home: string,
    storeId: string,
    mode: CaptureStatus['mode'],
    reader: Db,
    writer: WriterClient | null,
    autoDrain: boolean,
    drain?: Promise<DrainClient>,
  ): Promise<CaptureService> {
    const service = new CaptureService(home, storeId, mode, reader, writer);
    if (autoDrain && writer) {
      service.drainClient = DrainClient.start(home, writer, true);
      await service.drainClient;
    } else if (drain) service.drainClient = drain;
    return service;
  }

  /** A drain thread that drains only when asked; its failure is reported at the first drain (or close). */
  static startDrain(home: string, writer: WriterClient): Promise<DrainClient> {
    const starting = DrainClient.start(home, writer, false);
    starting.catch(() => undefined); // not unhandled while the rest of the start goes on
    return starting;
  }

  /** Stops the drain thread (before the writer closes). */
  async close(): Promise<void> {
    const drain = this.drainClient;
    this.drainClient = undefined;
    if (drain) await (await drain).close();
  }

  async captureStatus(request: CaptureStatusRequest): Promise<CaptureStatus> {
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
    this.drainClient ??= CaptureService.startDrain(this.home, this.writer);
    return this.drainClient;
  }

  async sessionDrain(request: { recover?: string | undefined }): Promise<DrainReport> {
    const drain = await this.drainer();
    return request.recover !== undefined ? drain.recover(request.recover) : drain.drain();
  }

  /**
   * Flush's extraction (the memory area's automatic pass), given by the host once its memory
   * service runs; without it a flush only drains.
   */
  extractSealed: ((sealedByMs: number) => Promise<FlushExtraction>) | undefined;

  async flush(request: FlushRequest): Promise<FlushReport> {
    const report = await (await this.drainer()).drain();
    const remaining = readRemaining(this.reader);
    const complete =
      remaining.buffered === 0 && remaining.inbox === 0 && remaining.watch === 0 && remaining.isolated === 0;
    const drained = { ...report, complete, remaining };
    if (!request.extract || !this.extractSealed) return drained;
    // Everything the drain sealed is in the extraction's window: it ended before this instant.
    const extraction = await this.extractSealed(Date.now());
    const extracted = extraction.state === 'done' && extraction.tasksLeft === 0 && extraction.tasksFailed === 0;
    return { ...drained, complete: complete && (extraction.state === 'off' || extracted), extraction };
  }

  private readonly imports = new ImportRuns();

  /**
   * Imports a client's stored transcripts in this process (the host's, or the command's that holds
   * the lease), then — like flush — drafts candidates from what it sealed.
   */
  async captureImportStart(request: ImportRequest): Promise<ImportRun> {
    if (!this.writer)
      throw new CmError('internal', 'This connection is read-only; importing needs the host or the lease.');
    const writer = this.writer;
    const plan = {
      client: request.client,
      root: request.root,
      sinceMs: request.since === undefined ? Number.NEGATIVE_INFINITY : parseUtc(request.since, '--since'),
      untilMs: request.until === undefined ? Number.POSITIVE_INFINITY : parseUtc(request.until, '--until'),
      repository: request.repository ?? null,
      dryRun: false,
    };
    return this.imports.start({
      run: (onProgress) => runImport(plan, storeImportSink(this.reader, writer, request.client), onProgress),
      extract: (report) =>
        report.turns > 0 && request.extract !== false && this.extractSealed ? this.extractSealed(Date.now()) : null,
    });
  }

  async captureImportRun(request: { importId: string }): Promise<ImportRun> {
    return this.imports.view(request.importId);
  }

  async listSessions(request: SessionListRequest) {
    return listSessions(this.reader, request);
  }

  async readSession(request: SessionReadRequest) {
    return readSession(this.reader, request);
  }

  async sessionSearch(request: SessionSearchRequest) {
    return sessionSearch(this.reader, request);
  }
}
