// The writer's commands on agents and their generations, each input checked by its schema. Apart
// from agents.ts so that the CLI's reads of agents (listAgents) load no zod schema.
import { z } from 'zod';
import { command } from '../command.js';
import {
  beginGeneration,
  createAgent,
  markGenerationRunning,
  markGenerationStopping,
  reconcileOnStartup,
  retireGeneration,
} from './agents.js';

export const agentCommands = {
  createAgent: command({
    schema: z.object({
      name: z.string(),
      model: z.string().optional(),
      piConfigDir: z.string().optional(),
      operationId: z.string(),
      agentsRoot: z.string(),
    }),
    run: (tx, _context, input) => createAgent(tx, input),
  }),
  beginGeneration: command({
    schema: z.object({ agent: z.string(), hostId: z.string() }),
    run: (tx, _context, input) => {
      const { agent, generation } = beginGeneration(tx, input.agent, input.hostId);
      return {
        agentId: agent.agent_id,
        agentDir: agent.agent_dir,
        model: agent.model,
        piConfigDir: agent.pi_config_dir,
        generationId: generation.generation_id,
        number: generation.number,
      };
    },
  }),
  markGenerationRunning: command({
    schema: z.object({ generationId: z.string(), pid: z.number().int() }),
    run: (tx, _context, input) => markGenerationRunning(tx, input.generationId, input.pid),
  }),
  markGenerationStopping: command({
    schema: z.object({ generationId: z.string(), reason: z.string() }),
    run: (tx, _context, input) => markGenerationStopping(tx, input.generationId, input.reason),
  }),
  retireGeneration: command({
    schema: z.object({
      generationId: z.string(),
      orderly: z.boolean(),
      reason: z.string(),
      exitCode: z.number().int().nullable(),
      signal: z.string().nullable(),
    }),
    run: (tx, _context, input) => retireGeneration(tx, input.generationId, input),
  }),
  reconcileOnStartup: command({
    schema: z.object({ hostId: z.string() }),
    run: (tx, _context, input) => reconcileOnStartup(tx, input.hostId),
  }),
};
