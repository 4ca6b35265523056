// Agents and their generations. An agent is a named logical worker that survives restarts; each
// start is a new generation — a fencing token with its own stdout/stderr ordinal heads. Three
// different ends of a generation stay three different commands (seed 003 B1.4): markStopping
// (still capturing), retireGeneration (readers joined, no more appends), reconcileOnStartup (boot).
import { crypto } from '../../ground/lazy-builtin.js';
import { join } from 'node:path';
import { CmError } from '../../errors.js';
import type { AgentView, GenerationState } from '../../api/agents.js';
import { type Db, prepared } from '../database.js';
import { appendJournal } from './journal.js';
import { checkAgentName, checkOperationId } from '../../api/request-checks.js';
import { insertOperation, isPendingPrompt, replayOf, transitionPrompt } from './operations.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import type { Tx } from '../transaction.js';

const TERMINAL_GENERATION: ReadonlySet<string> = new Set(['stopped', 'interrupted']);
const CAPTURING_GENERATION: ReadonlySet<string> = new Set(['starting', 'running', 'stopping']);

export interface AgentRecord {
  agent_id: string;
  name: string;
  model: string | null;
  pi_config_dir: string | null;
  agent_dir: string;
  current_generation_id: string | null;
  active_operation_id: string | null;
  created_at_ms: number;
}

export interface GenerationRecord {
  generation_id: string;
  agent_id: string;
  number: number;
  state: GenerationState;
  host_id: string;
  pid: number | null;
  stdout_head: number;
  stderr_head: number;
  projection_error: string | null;
  /** JSON of the retirement: { orderly, reason, exitCode, signal }; null while the generation runs. */
  exit_detail: string | null;
}

export function findAgent(db: Db, nameOrId: string): AgentRecord | undefined {
  return prepared(db, 'SELECT * FROM agents WHERE name = ? OR agent_id = ?').get(nameOrId, nameOrId) as
    | AgentRecord
    | undefined;
}

export function requireAgent(db: Db, nameOrId: string): AgentRecord {
  const agent = findAgent(db, nameOrId);
  if (!agent)
    throw new CmError(
      'not_found',
      `No agent named ${JSON.stringify(nameOrId)}. Create it with: common-memory agent create ${nameOrId}`,
    );
  return agent;
}

export function findGeneration(db: Db, generationId: string): GenerationRecord | undefined {
  return prepared(db, 'SELECT * FROM generations WHERE generation_id = ?').get(generationId) as
    | GenerationRecord
    | undefined;
}

export const isCapturing = (generation: GenerationRecord) => CAPTURING_GENERATION.has(generation.state);

export function toAgentView(db: Db, agent: AgentRecord): AgentView {
  const generation = agent.current_generation_id ? findGeneration(db, agent.current_generation_id) : undefined;
  return {
    agentId: agent.agent_id,
    name: agent.name,
    model: agent.model,
    generation: generation
      ? {
          generationId: generation.generation_id,
          number: generation.number,
          state: generation.state,
          pid: generation.pid,
          projectionError: generation.projection_error,
          endReason: generation.exit_detail
            ? ((JSON.parse(generation.exit_detail) as { reason?: string }).reason ?? null)
            : null,
        }
      : null,
    activeOperationId: agent.active_operation_id,
    createdAt: new Date(agent.created_at_ms).toISOString(),
  };
}

export function listAgents(db: Db): AgentView[] {
  return (prepared(db, 'SELECT * FROM agents ORDER BY name').all() as AgentRecord[]).map((agent) =>
    toAgentView(db, agent),
  );
}

interface CreateAgent {
  name: string;
  model?: string | undefined;
  piConfigDir?: string | undefined;
  operationId: string;
  agentsRoot: string;
}

export function createAgent(tx: Tx, input: CreateAgent): AgentView {
  checkAgentName(input.name);
  checkOperationId(input.operationId);
  const canonicalInput = canonicalJson({
    name: input.name,
    model: input.model ?? null,
    piConfigDir: input.piConfigDir ?? null,
  });
  const earlier = replayOf(tx, input.operationId, 'agent.create', null, canonicalInput);
  if (earlier) return toAgentView(tx.db, requireAgent(tx.db, earlier.outcome!));
  if (findAgent(tx.db, input.name))
    throw new CmError('operation_conflict', `An agent named ${input.name} already exists; choose another name.`);
  const agentId = crypto().randomUUID();
  const agentDir = join(input.agentsRoot, agentId);
  const { sequence } = appendJournal(tx, {
    kind: 'agent.created',
    agentId,
    operationId: input.operationId,
    payload: { name: input.name, model: input.model ?? null, agentDir },
  });
  prepared(
    tx.db,
    'INSERT INTO agents (agent_id, name, model, pi_config_dir, agent_dir, created_journal_sequence, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(agentId, input.name, input.model ?? null, input.piConfigDir ?? null, agentDir, sequence, tx.nowMs);
  insertOperation(tx, {
    operationId: input.operationId,
    kind: 'agent.create',
    agentId: null,
    input: canonicalInput,
    state: 'recorded',
    journalSequence: sequence,
    outcome: agentId,
  });
  return toAgentView(tx.db, requireAgent(tx.db, agentId));
}

export function beginGeneration(
  tx: Tx,
  agentName: string,
  hostId: string,
): { agent: AgentRecord; generation: GenerationRecord } {
  const agent = requireAgent(tx.db, agentName);
  const current = agent.current_generation_id ? findGeneration(tx.db, agent.current_generation_id) : undefined;
  if (current && !TERMINAL_GENERATION.has(current.state)) {
    throw new CmError(
      'agent_state',
      `Agent ${agent.name} is already ${current.state} (generation ${current.number}); stop it first.`,
    );
  }
  const number = (current?.number ?? 0) + 1;
  const generationId = crypto().randomUUID();
  const { sequence } = appendJournal(tx, {
    kind: 'generation.started',
    agentId: agent.agent_id,
    generationId,
    payload: { number, hostId },
  });
  prepared(
    tx.db,
    "INSERT INTO generations (generation_id, agent_id, number, state, host_id, started_journal_sequence) VALUES (?, ?, ?, 'starting', ?, ?)",
  ).run(generationId, agent.agent_id, number, hostId, sequence);
  prepared(tx.db, 'UPDATE agents SET current_generation_id = ?, active_operation_id = NULL WHERE agent_id = ?').run(
    generationId,
    agent.agent_id,
  );
  return { agent, generation: findGeneration(tx.db, generationId)! };
}

function requireGeneration(tx: Tx, generationId: string): GenerationRecord {
  const generation = findGeneration(tx.db, generationId);
  if (!generation) throw new CmError('not_found', `No generation ${generationId}.`);
  return generation;
}

export function markGenerationRunning(tx: Tx, generationId: string, pid: number): void {
  const generation = requireGeneration(tx, generationId);
  if (generation.state !== 'starting')
    throw new CmError('agent_state', `Generation ${generationId} is ${generation.state}, not starting.`);
  appendJournal(tx, { kind: 'generation.running', agentId: generation.agent_id, generationId, payload: { pid } });
  prepared(tx.db, "UPDATE generations SET state = 'running', pid = ? WHERE generation_id = ?").run(pid, generationId);
}

/** Closes admission for the generation; its readers may still append what the child wrote. */
export function markGenerationStopping(tx: Tx, generationId: string, reason: string): void {
  const generation = requireGeneration(tx, generationId);
  if (!isCapturing(generation) || generation.state === 'stopping') return;
  appendJournal(tx, { kind: 'generation.stopping', agentId: generation.agent_id, generationId, payload: { reason } });
  prepared(tx.db, "UPDATE generations SET state = 'stopping' WHERE generation_id = ?").run(generationId);
}

/** Pending work of a generation becomes interrupted: never resent, never given an invented answer. */
export function interruptPendingWork(tx: Tx, agentId: string, generationId: string, reason: string): void {
  const pending = prepared(
    tx.db,
    "SELECT operation_id AS id, state FROM operations WHERE kind = 'prompt' AND generation_id = ? AND state IN ('prepared', 'attempted', 'accepted')",
  ).all(generationId) as { id: string; state: string }[];
  for (const op of pending) {
    const { sequence } = appendJournal(tx, {
      kind: 'prompt.interrupted',
      agentId,
      generationId,
      operationId: op.id,
      payload: { reason, previousState: op.state },
    });
    transitionPrompt(tx, op.id, 'interrupted', sequence, 'interrupted');
  }
  prepared(tx.db, 'UPDATE agents SET active_operation_id = NULL WHERE agent_id = ? AND current_generation_id = ?').run(
    agentId,
    generationId,
  );
}

/** After the child is reaped and its readers joined: the final state; no more appends. */
export function retireGeneration(
  tx: Tx,
  generationId: string,
  end: { orderly: boolean; reason: string; exitCode: number | null; signal: string | null },
): void {
  const generation = requireGeneration(tx, generationId);
  if (TERMINAL_GENERATION.has(generation.state)) return;
  const state = end.orderly && !generation.projection_error ? 'stopped' : 'interrupted';
  interruptPendingWork(tx, generation.agent_id, generationId, end.reason);
  const { sequence } = appendJournal(tx, {
    kind: `generation.${state}`,
    agentId: generation.agent_id,
    generationId,
    payload: end,
  });
  prepared(
    tx.db,
    'UPDATE generations SET state = ?, exit_detail = ?, ended_journal_sequence = ? WHERE generation_id = ?',
  ).run(state, JSON.stringify(end), sequence, generationId);
}

/** At boot, before clients are admitted: what an earlier host left running is interrupted. No replay, no rebuild. */
export function reconcileOnStartup(tx: Tx, hostId: string): { generations: number } {
  const orphans = prepared(
    tx.db,
    "SELECT generation_id AS id FROM generations WHERE state IN ('starting', 'running', 'stopping')",
  ).all() as { id: string }[];
  for (const orphan of orphans)
    retireGeneration(tx, orphan.id, {
      orderly: false,
      reason: `host restarted (${hostId})`,
      exitCode: null,
      signal: null,
    });
  return { generations: orphans.length };
}

export { isPendingPrompt };
