// The prompt lifecycle in the store: admission (intent + canonical user row + operation + busy in
// one transaction, before any byte reaches pi), attempted, settled, abort requests, abandon.
// Accepted and rejected are evidence from pi's own response, applied in pi-ingest.ts.
import { echoedWord } from '../../echo-text.js';
import { prepared } from '../database.js';
import { crypto } from '../../ground/lazy-builtin.js';
import { z } from 'zod';
import { CmError } from '../../errors.js';
import { type AbortReceipt, abortHint, type PromptReceipt } from '../../api/agents.js';
import type { OperationView } from '../../api/history.js';
import { findGeneration, requireAgent } from './agents.js';
import { command } from '../command.js';
import { appendJournal } from './journal.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { checkOperationId } from '../../api/request-checks.js';
import { findOperation, insertOperation, replayOf, toOperationView, transitionPrompt } from './operations.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import { insertTimeline, newMessageId } from './timeline.js';
import type { Tx } from '../transaction.js';

interface AdmitPrompt {
  agent: string;
  text: string;
  operationId: string;
  piRequestId: string;
}

export interface Admission extends PromptReceipt {
  agentId: string;
  generationId: string;
  piRequestId: string;
}

export function admitPrompt(tx: Tx, storeId: string, input: AdmitPrompt): Admission {
  checkOperationId(input.operationId);
  if (input.text.length === 0) throw new CmError('invalid_input', 'A prompt needs some text.');
  const agent = requireAgent(tx.db, input.agent);
  const canonicalInput = canonicalJson({ text: input.text });
  const earlier = replayOf(tx, input.operationId, 'prompt', agent.agent_id, canonicalInput);
  if (earlier) {
    return {
      storeId,
      operationId: earlier.operation_id,
      sequence: earlier.journal_sequence,
      replayed: true,
      messageId: earlier.user_message_id!,
      agentId: agent.agent_id,
      generationId: earlier.generation_id!,
      piRequestId: earlier.pi_request_id!,
    };
  }
  const generation = agent.current_generation_id ? findGeneration(tx.db, agent.current_generation_id) : undefined;
  if (!generation || generation.state !== 'running') {
    throw new CmError(
      'agent_not_running',
      `Agent ${agent.name} is not running${generation ? ` (generation ${generation.number} is ${generation.state})` : ''}. Start it with: common-memory agent start ${agent.name}`,
    );
  }
  if (generation.projection_error)
    throw new CmError(
      'agent_state',
      `Agent ${agent.name} stopped projecting after a protocol fault (${generation.projection_error}); restart it.`,
    );
  if (agent.active_operation_id) {
    throw new CmError(
      'agent_busy',
      `Agent ${agent.name} is busy with operation ${agent.active_operation_id}; prompts are not queued. Wait for it to settle, or abort it: ${abortHint(agent.name)}.`,
    );
  }
  const messageId = newMessageId();
  const { sequence } = appendJournal(tx, {
    kind: 'prompt.requested',
    agentId: agent.agent_id,
    generationId: generation.generation_id,
    operationId: input.operationId,
    canonicalMessageId: messageId,
    payload: { text: input.text, piRequestId: input.piRequestId },
  });
  insertTimeline(tx, {
    messageId,
    role: 'user',
    payload: { role: 'user', content: [{ type: 'text', text: input.text }] },
    agentId: agent.agent_id,
    generationId: generation.generation_id,
    operationId: input.operationId,
    sourceJournalSequence: sequence,
  });
  insertOperation(tx, {
    operationId: input.operationId,
    kind: 'prompt',
    agentId: agent.agent_id,
    input: canonicalInput,
    state: 'prepared',
    journalSequence: sequence,
    userMessageId: messageId,
    generationId: generation.generation_id,
    piRequestId: input.piRequestId,
  });
  prepared(tx.db, 'UPDATE agents SET active_operation_id = ? WHERE agent_id = ?').run(
    input.operationId,
    agent.agent_id,
  );
  return {
    storeId,
    operationId: input.operationId,
    sequence,
    replayed: false,
    messageId,
    agentId: agent.agent_id,
    generationId: generation.generation_id,
    piRequestId: input.piRequestId,
  };
}

function requirePrompt(tx: Tx, operationId: string) {
  const op = findOperation(tx.db, operationId);
  if (!op || op.kind !== 'prompt') throw new CmError('not_found', `No prompt operation ${echoedWord(operationId)}.`);
  return op;
}

/** The uncertain frontier: from here on, pi may have acted even if we never hear back. */
export function markAttempted(tx: Tx, operationId: string): void {
  const op = requirePrompt(tx, operationId);
  const { sequence } = appendJournal(tx, {
    kind: 'prompt.attempted',
    agentId: op.agent_id,
    generationId: op.generation_id,
    operationId,
    payload: {},
  });
  transitionPrompt(tx, operationId, 'attempted', sequence);
}

/** Settlement derived by the runtime (pi 0.73.1 has no settle event). No final answer → interrupted, never an invented one. */
export function settlePrompt(tx: Tx, operationId: string, outcome: string, detail: unknown): void {
  const op = requirePrompt(tx, operationId);
  if (op.state !== 'attempted' && op.state !== 'accepted') return; // already terminal: settlement evidence is idempotent
  const interrupted = outcome === 'no-answer';
  const { sequence } = appendJournal(tx, {
    kind: interrupted ? 'prompt.interrupted' : 'prompt.settled',
    agentId: op.agent_id,
    generationId: op.generation_id,
    operationId,
    payload: { outcome, detail },
  });
  transitionPrompt(tx, operationId, interrupted ? 'interrupted' : 'settled', sequence, outcome);
  prepared(tx.db, 'UPDATE agents SET active_operation_id = NULL WHERE agent_id = ? AND active_operation_id = ?').run(
    op.agent_id,
    operationId,
  );
}

/** An abort is pinned to the operation active at its admission; it never reaches later work. */
export function requestAbort(
  tx: Tx,
  storeId: string,
  agentName: string,
  operationId: string,
): AbortReceipt & { piRequestId: string; generationId: string } {
  checkOperationId(operationId);
  const agent = requireAgent(tx.db, agentName);
  const existing = findOperation(tx.db, operationId);
  if (existing) {
    if (existing.kind !== 'abort' || existing.agent_id !== agent.agent_id)
      throw new CmError('operation_conflict', `Operation ID ${operationId} was already used for a ${existing.kind}.`);
    const target = findOperation(tx.db, existing.target_operation_id!)!;
    return {
      storeId,
      operationId,
      sequence: existing.journal_sequence,
      replayed: true,
      targetOperationId: target.operation_id,
      piRequestId: target.pi_request_id!,
      generationId: target.generation_id!,
    };
  }
  if (!agent.active_operation_id)
    throw new CmError('agent_state', `Agent ${agent.name} has no prompt in progress; nothing to abort.`);
  const target = requirePrompt(tx, agent.active_operation_id);
  const { sequence } = appendJournal(tx, {
    kind: 'prompt.abort_requested',
    agentId: agent.agent_id,
    generationId: target.generation_id,
    operationId,
    payload: { targetOperationId: target.operation_id },
  });
  insertOperation(tx, {
    operationId,
    kind: 'abort',
    agentId: agent.agent_id,
    input: canonicalJson({ target: target.operation_id }),
    state: 'recorded',
    journalSequence: sequence,
    generationId: target.generation_id,
    targetOperationId: target.operation_id,
  });
  return {
    storeId,
    operationId,
    sequence,
    replayed: false,
    targetOperationId: target.operation_id,
    piRequestId: target.pi_request_id!,
    generationId: target.generation_id!,
  };
}

/** A person's decision about interrupted work: recorded, every message kept, nothing replayed. */
export function abandonPrompt(tx: Tx, typed: string): OperationView {
  const operationId = resolveIdPrefix(tx.db, 'operations', 'operation_id', typed, 'operation');
  const op = requirePrompt(tx, operationId);
  if (op.state === 'abandoned') return toOperationView(op);
  if (op.state !== 'interrupted')
    throw new CmError(
      'agent_state',
      `Operation ${operationId} is ${op.state}; only interrupted prompts can be abandoned.`,
    );
  const { sequence } = appendJournal(tx, {
    kind: 'prompt.abandoned',
    agentId: op.agent_id,
    generationId: op.generation_id,
    operationId,
    payload: {},
  });
  return toOperationView(transitionPrompt(tx, operationId, 'abandoned', sequence));
}

export const promptCommands = {
  admitPrompt: command({
    schema: z.object({ agent: z.string(), text: z.string(), operationId: z.string(), piRequestId: z.string() }),
    run: (tx, context, input) => admitPrompt(tx, context.storeId, input),
  }),
  markAttempted: command({
    schema: z.object({ operationId: z.string() }),
    run: (tx, _context, input) => markAttempted(tx, input.operationId),
  }),
  settlePrompt: command({
    schema: z.object({ operationId: z.string(), outcome: z.string(), detail: z.unknown() }),
    run: (tx, _context, input) => settlePrompt(tx, input.operationId, input.outcome, input.detail),
  }),
  requestAbort: command({
    schema: z.object({ agent: z.string(), operationId: z.string().default(() => crypto().randomUUID()) }),
    run: (tx, context, input) => requestAbort(tx, context.storeId, input.agent, input.operationId),
  }),
  abandonPrompt: command({
    schema: z.object({ operationId: z.string() }),
    run: (tx, _context, input) => abandonPrompt(tx, input.operationId),
  }),
};
