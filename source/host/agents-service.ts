// The agents area behind the application API: agents and their prompts are written by the writer
// thread and driven by the agents thread (a real host's only: a command working alone runs none).
import { randomUUID } from 'node:crypto';
import {
  type AbortReceipt,
  abortReceiptOf,
  type AgentsRoutes,
  type CreateAgentInput,
  type PromptInput,
  type PromptReceipt,
  promptReceiptOf,
} from '../api/agents.js';
import type { MethodsOf } from '../api/route.js';
import { CmError } from '../errors.js';
import { listAgents, requireAgent, toAgentView } from '../store/core/agents.js';
import type { Db } from '../store/database.js';
import { checkOperationId } from '../api/request-checks.js';
import { findOperation } from '../store/core/operations.js';
import type { AgentsClient } from '../workers/agents-client.js';
import type { WriterClient } from '../workers/writer-client.js';

/** Every method of the agents area (the compiler asks for each one the area declares). */
export class AgentsService implements MethodsOf<AgentsRoutes> {
  constructor(
    private readonly writer: WriterClient,
    private readonly reader: Db,
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
    // A malformed ID is the caller's to fix whatever the agent is doing: said before "busy" or
    // "not running", so that waiting for the agent never ends in a refusal known now.
    checkOperationId(operationId);
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
    if (operationId !== undefined) checkOperationId(operationId);
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
}
