// The agents area: driven pi agents, their generations, prompts and aborts.
import { z } from 'zod';
import type {
  AbortReceipt,
  AgentView,
  CreateAgentInput,
  OperationView,
  PromptInput,
  PromptReceipt,
} from '../protocol.js';
import { read, write } from './route.js';

const optionalOperation = {
  schema: z.object({ operationId: z.string().optional() }).strict(),
  shape: '{"operationId"?: string}',
};

export const agentsApi = {
  listAgents: read<void, AgentView[]>('/v1/agents'),
  createAgent: write<CreateAgentInput, AgentView>('/v1/agents', {
    body: {
      schema: z
        .object({
          name: z.string(),
          model: z.string().optional(),
          piConfigDir: z.string().optional(),
          operationId: z.string().optional(),
        })
        .strict(),
      shape: '{"name": string, "model"?, "piConfigDir"?, "operationId"?}',
    },
    created: () => true,
  }),
  /** Starts a new generation (a pi process) of the named agent. */
  startAgent: write<{ agent: string }, AgentView>('/v1/agents/:agent/start'),
  /** Orderly stop of the agent's current generation. */
  stopAgent: write<{ agent: string }, AgentView>('/v1/agents/:agent/stop'),
  prompt: write<PromptInput, PromptReceipt>('/v1/agents/:agent/prompts', {
    body: {
      schema: z.object({ text: z.string(), operationId: z.string().optional() }).strict(),
      shape: '{"text": string, "operationId"?: string}',
    },
    created: (receipt) => !receipt.replayed,
  }),
  /** Without an operation ID the abort is pinned to the agent's active prompt. */
  abort: write<{ agent: string; operationId?: string | undefined }, AbortReceipt>('/v1/agents/:agent/abort', {
    body: optionalOperation,
  }),
  /** Records the decision to give up an interrupted prompt; keeps every message. */
  abandon: write<{ operationId: string }, OperationView>('/v1/operations/:operationId/abandon'),
};
