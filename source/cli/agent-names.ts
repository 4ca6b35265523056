// Agents as people type them: the name, the whole ID, or a unique start of the ID.
import { CmError } from '../errors.js';
import type { Application } from '../api/application.js';
import type { AgentView } from '../api/agents.js';
import { ID_PREFIX_MIN } from '../limits.js';

/** The agent `typed` names; undefined when none does (the host then says "no agent named …"). */
export async function findAgentTyped(app: Application, typed: string): Promise<AgentView | undefined> {
  const agents = await app.listAgents();
  const exact = agents.find((agent) => agent.name === typed || agent.agentId === typed.toLowerCase());
  if (exact || typed.length < ID_PREFIX_MIN) return exact;
  const matches = agents.filter((agent) => agent.agentId.startsWith(typed.toLowerCase()));
  if (matches.length > 1) {
    throw new CmError(
      'invalid_input',
      `"${typed}" is the start of more than one agent ID (${matches.map((agent) => `${agent.name} ${agent.agentId}`).join(', ')}); type more of it.`,
    );
  }
  return matches[0];
}

/** The agent's name for a command that takes one; what was typed when no agent matches. */
export const agentNameFor = async (app: Application, typed: string): Promise<string> =>
  (await findAgentTyped(app, typed))?.name ?? typed;

/** The agent ID for a history filter; an unknown agent is "not found", never an empty filter. */
export async function agentIdFor(app: Application, typed: string): Promise<string> {
  const agent = await findAgentTyped(app, typed);
  if (!agent)
    throw new CmError(
      'not_found',
      `No agent named ${JSON.stringify(typed)} and no agent ID starting with it; see common-memory agent list.`,
    );
  return agent.agentId;
}
