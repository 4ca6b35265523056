// The agents area: driven pi agents, their generations, prompts and aborts.
import { z } from 'zod';
import { shellQuote } from '../shell-quote.js';
import { nullableText, receiptSchema } from './common-schemas.js';
import { type OperationView, operationViewSchema } from './history.js';
import { body, read, write } from './route.js';

const createAgentBody = z.strictObject({
  name: z.string(),
  model: z.string().optional(),
  /** A pi agent dir whose models.json/auth.json/settings.json are copied into the agent's private dir. */
  piConfigDir: z.string().optional(),
  operationId: z.string().optional(),
});
export type CreateAgentInput = z.infer<typeof createAgentBody>;

const promptBody = z.strictObject({ text: z.string(), operationId: z.string().optional() });
export type PromptInput = { agent: string } & z.infer<typeof promptBody>;

const optionalOperation = z.strictObject({ operationId: z.string().optional() });

export const generationStateSchema = z.enum(['starting', 'running', 'stopping', 'stopped', 'interrupted']);
export type GenerationState = z.infer<typeof generationStateSchema>;

export const agentViewSchema = z.strictObject({
  agentId: z.string(),
  name: z.string(),
  model: nullableText,
  /**
   * The current (latest) generation, if the agent was ever started. endReason: why it ended (a
   * stop request, pi exiting, a storage failure, an oversized record …); null while it runs.
   */
  generation: z
    .strictObject({
      generationId: z.string(),
      number: z.number(),
      state: generationStateSchema,
      pid: z.number().nullable(),
      projectionError: nullableText,
      endReason: nullableText,
    })
    .nullable(),
  /** The prompt operation the agent is working on; null when idle. */
  activeOperationId: nullableText,
  createdAt: z.string(),
});
export type AgentView = z.infer<typeof agentViewSchema>;

export const promptReceiptSchema = z.strictObject({
  ...receiptSchema.shape,
  /** The canonical user message created at admission. */
  messageId: z.string(),
});
export type PromptReceipt = z.infer<typeof promptReceiptSchema>;

export const abortReceiptSchema = z.strictObject({
  ...receiptSchema.shape,
  /** The prompt operation the abort was pinned to. */
  targetOperationId: z.string(),
});
export type AbortReceipt = z.infer<typeof abortReceiptSchema>;

export const agentsApi = {
  listAgents: read('/v1/agents', z.array(agentViewSchema)),
  createAgent: write<CreateAgentInput, AgentView>('/v1/agents', agentViewSchema, {
    body: body(createAgentBody),
    created: () => true,
  }),
  /** Starts a new generation (a pi process) of the named agent. */
  startAgent: write<{ agent: string }, AgentView>('/v1/agents/:agent/start', agentViewSchema),
  /** Orderly stop of the agent's current generation. */
  stopAgent: write<{ agent: string }, AgentView>('/v1/agents/:agent/stop', agentViewSchema),
  prompt: write<PromptInput, PromptReceipt>('/v1/agents/:agent/prompts', promptReceiptSchema, {
    body: body(promptBody),
    created: (receipt) => !receipt.replayed,
  }),
  /** Without an operation ID the abort is pinned to the agent's active prompt. */
  abort: write<{ agent: string } & z.infer<typeof optionalOperation>, AbortReceipt>(
    '/v1/agents/:agent/abort',
    abortReceiptSchema,
    { body: body(optionalOperation) },
  ),
  /** Records the decision to give up an interrupted prompt; keeps every message. */
  abandon: write<{ operationId: string }, OperationView>('/v1/operations/:operationId/abandon', operationViewSchema),
};

export type AgentsRoutes = typeof agentsApi;

/** What a caller is told of a prompt admission; the pi request and generation stay inside the host. */
/** How a person aborts an agent's prompt, named where a prompt is refused because one is running. */
export const abortHint = (agent: string): string => `common-memory abort ${shellQuote(agent)} (a on the Agents screen)`;

export function promptReceiptOf(admission: PromptReceipt): PromptReceipt {
  const { storeId, operationId, sequence, replayed, messageId } = admission;
  return { storeId, operationId, sequence, replayed, messageId };
}

/** What a caller is told of an abort admission; the pi request and generation stay inside the host. */
export function abortReceiptOf(admission: AbortReceipt): AbortReceipt {
  const { storeId, operationId, sequence, replayed, targetOperationId } = admission;
  return { storeId, operationId, sequence, replayed, targetOperationId };
}
