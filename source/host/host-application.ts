// The application API, in process: mutations go to the writer thread, reads to a read-only
// connection. The HTTP server and the TUI both speak to this object.
import { dirname } from 'node:path';
import { storeFiles } from '../home.js';
import { ledgerStatusAt } from '../store/ledger/ledger-status.js';
import { randomUUID } from 'node:crypto';
import { CmError } from '../errors.js';
import type { Application } from '../api/application.js';
import {
  type MemoryReviewRequest,
  type AbortReceipt,
  abortReceiptOf,
  type CreateAgentInput,
  type HostStatus,
  type NoteInput,
  type PageRequest,
  type PromptInput,
  type PromptReceipt,
  promptReceiptOf,
} from '../protocol.js';
import { listAgents, requireAgent, toAgentView } from '../store/core/agents.js';
import type { Db } from '../store/database.js';
import type { AgentsClient } from '../workers/agents-client.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/core/history-reads.js';
import { findOperation } from '../store/core/operations.js';
import { readHeads } from '../store/core/sequences.js';
import type { WriterClient } from '../workers/writer-client.js';
import type { CaptureService } from './capture-service.js';
import type { MemoryService } from './memory-service.js';
import { sessionSearch } from '../store/core/session-search.js';
import type {
  CaptureStatusRequest,
  MemoryApproveRequest,
  MemoryConfirmRequest,
  MemoryDiscardRequest,
  MemoryProposeRequest,
  MemoryExtractRequest,
  MemoryPrepareRequest,
  MemoryPromoteRequest,
  SessionListRequest,
  SessionReadRequest,
  SessionSearchRequest,
} from '../protocol.js';
import { listSessions, readSession } from '../store/core/session-reads.js';

export interface HostIdentity {
  storeId: string;
  hostId: string;
  pid: number;
  startedAt: string;
  mode: 'host' | 'local';
}

export class HostApplication implements Application {
  constructor(
    private readonly writer: WriterClient,
    private readonly reader: Db,
    private readonly identity: HostIdentity,
    private readonly agentsRoot: string,
    /** Only a real host runs agents; a command working alone has none. */
    private readonly agents: AgentsClient | undefined,
  ) {}

  private runtime(): AgentsClient {
    if (!this.agents) {
      throw new CmError(
        'agent_state',
        'Agents run inside a host. Start one with "common-memory host" (or open the TUI), then try again.',
      );
    }
    return this.agents;
  }

  async status(): Promise<HostStatus> {
    const files = storeFiles(dirname(this.reader.name));
    return {
      ...this.identity,
      heads: readHeads(this.reader),
      ledger: ledgerStatusAt(files.ledger, files.ledgerHealth),
    };
  }

  appendNote(input: NoteInput) {
    return this.writer.call('appendNote', { text: input.text, operationId: input.operationId });
  }

  async journal(request: PageRequest) {
    return readJournalPage(this.reader, request);
  }

  async timeline(request: PageRequest) {
    return readTimelinePage(this.reader, request);
  }

  async message({ messageId }: { messageId: string }) {
    return readMessage(this.reader, messageId);
  }

  async operation({ operationId }: { operationId: string }) {
    return readOperation(this.reader, operationId);
  }

  createAgent(input: CreateAgentInput) {
    return this.writer.call('createAgent', {
      name: input.name,
      model: input.model,
      piConfigDir: input.piConfigDir,
      operationId: input.operationId ?? randomUUID(),
      agentsRoot: this.agentsRoot,
    });
  }

  async listAgents() {
    return listAgents(this.reader);
  }

  async startAgent({ agent }: { agent: string }) {
    await this.runtime().start(agent);
    return toAgentView(this.reader, requireAgent(this.reader, agent));
  }

  async stopAgent({ agent }: { agent: string }) {
    requireAgent(this.reader, agent); // an unknown agent is "not found", not "not running"
    await this.runtime().stop(agent);
    return toAgentView(this.reader, requireAgent(this.reader, agent));
  }

  /**
   * An operation ID that is already stored is a replay, answered by the store — the original
   * receipt or a conflict — whatever the runtime's state: after a lost reply the agent may still
   * be busy with that very prompt, or, after a host restart, not running at all (seed 003 B3.1,
   * B3.6). Nothing reaches pi a second time.
   */
  async prompt(input: PromptInput): Promise<PromptReceipt> {
    const operationId = input.operationId ?? randomUUID();
    const earlier = findOperation(this.reader, operationId);
    if (earlier) {
      const admission = await this.writer.call('admitPrompt', {
        agent: input.agent,
        text: input.text,
        operationId,
        piRequestId: earlier.pi_request_id ?? '',
      });
      return promptReceiptOf(admission);
    }
    requireAgent(this.reader, input.agent);
    return this.runtime().prompt(input.agent, input.text, operationId);
  }

  async abort({ agent, operationId }: { agent: string; operationId?: string | undefined }): Promise<AbortReceipt> {
    if (operationId && findOperation(this.reader, operationId)) {
      const receipt = await this.writer.call('requestAbort', { agent, operationId });
      return abortReceiptOf(receipt);
    }
    requireAgent(this.reader, agent);
    return this.runtime().abort(agent, operationId);
  }

  abandon({ operationId }: { operationId: string }) {
    return this.writer.call('abandonPrompt', { operationId });
  }

  /** Set by Host.start. */
  capture: CaptureService | undefined;

  private captureService(): CaptureService {
    if (!this.capture) throw new CmError('internal', 'Host capture is not started in this process.');
    return this.capture;
  }

  captureStatus(request: CaptureStatusRequest) {
    return this.captureService().status(request);
  }

  sessionDrain(request: { recover?: string | undefined }) {
    return this.captureService().sessionDrain(request);
  }

  flush() {
    return this.captureService().flush();
  }

  async sessionSearch(request: SessionSearchRequest) {
    return sessionSearch(this.reader, request);
  }

  async listSessions(request: SessionListRequest) {
    return listSessions(this.reader, request);
  }

  async readSession(request: SessionReadRequest) {
    return readSession(this.reader, request);
  }

  /** Set by Host.start. */
  memory: MemoryService | undefined;

  private memoryService(): MemoryService {
    if (!this.memory) throw new CmError('internal', 'The memory pipeline is not started in this process.');
    return this.memory;
  }

  memoryExtract(request: MemoryExtractRequest) {
    return this.memoryService().extract(request);
  }

  memoryExtractStart(request: MemoryExtractRequest) {
    return this.memoryService().startExtract(request);
  }

  memoryExtractRun(request: { runId: string }) {
    return this.memoryService().extractRun(request);
  }

  memoryReverifyRunner(request: { runner: string }) {
    return this.memoryService().reverify(request.runner);
  }

  memoryReverifyStart(request: { runner: string }) {
    return this.memoryService().startReverify(request.runner);
  }

  memoryReverifyProbe(request: { probeId: string }) {
    return this.memoryService().reverifyProbe(request.probeId);
  }

  memoryRetry(request: { taskId: string }) {
    return this.writer.call('memoryRetryTask', { taskId: request.taskId });
  }

  memoryStatus() {
    return this.memoryService().status();
  }

  memoryReview(request: MemoryReviewRequest) {
    return this.memoryService().review(request);
  }

  memoryRecall(request: { text: string; cwd: string; limit?: number | undefined }) {
    return this.memoryService().recall(request);
  }

  memorySync(request: { cwd: string }) {
    return this.memoryService().sync(request.cwd);
  }

  memorySearch(request: { query: string; cwd: string; limit?: number | undefined }) {
    return this.memoryService().search(request);
  }

  memoryGet(request: { entryId: string; cwd: string }) {
    return this.memoryService().get(request);
  }

  memoryConfirm(request: MemoryConfirmRequest) {
    return this.memoryService().confirm(request);
  }

  memoryDiscard(request: MemoryDiscardRequest) {
    return this.memoryService().discard(request);
  }

  memoryPropose(request: MemoryProposeRequest) {
    return this.memoryService().propose(request);
  }

  memoryPrepare(request: MemoryPrepareRequest) {
    return this.memoryService().prepare(request);
  }

  memoryPlan(request: { planId: string }) {
    return this.memoryService().plan(request);
  }

  memoryApprove(request: MemoryApproveRequest) {
    return this.memoryService().approve(request);
  }

  memoryPromote(request: MemoryPromoteRequest) {
    return this.memoryService().promote(request);
  }
}
