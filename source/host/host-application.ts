// The application API, in process: mutations go to the writer thread, reads to a read-only
// connection. The HTTP server and the TUI both speak to this object.
import { randomUUID } from 'node:crypto';
import { CmError } from '../errors.js';
import type { Application, CreateAgentInput, HostStatus, NoteInput, PageRequest, PromptInput } from '../protocol.js';
import { listAgents, requireAgent, toAgentView } from '../store/agents.js';
import type { Db } from '../store/database.js';
import type { AgentsClient } from '../workers/agents-client.js';
import { readJournalPage, readMessage, readOperation, readTimelinePage } from '../store/history-reads.js';
import { readHeads } from '../store/sequences.js';
import type { WriterClient } from '../workers/writer-client.js';

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
      throw new CmError('agent_state', 'Agents run inside a host. Start one with "common-memory host" (or open the TUI), then try again.');
    }
    return this.agents;
  }

  async status(): Promise<HostStatus> {
    return { ...this.identity, heads: readHeads(this.reader) };
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

  async message(messageId: string) {
    return readMessage(this.reader, messageId);
  }

  async operation(operationId: string) {
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

  async startAgent(agent: string) {
    await this.runtime().start(agent);
    return toAgentView(this.reader, requireAgent(this.reader, agent));
  }

  async stopAgent(agent: string) {
    await this.runtime().stop(agent);
    return toAgentView(this.reader, requireAgent(this.reader, agent));
  }

  prompt(input: PromptInput) {
    return this.runtime().prompt(input.agent, input.text, input.operationId ?? randomUUID());
  }

  abort(agent: string, operationId?: string) {
    return this.runtime().abort(agent, operationId);
  }

  abandon(operationId: string) {
    return this.writer.call('abandonPrompt', { operationId });
  }
}
