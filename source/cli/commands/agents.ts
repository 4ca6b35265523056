// `agent create|start|stop|list`, `prompt`, `abort`, `abandon`: driving pi agents through the host.
import { checkAgentName, checkOperationId } from '../../api/request-checks.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { connect, type Connection } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import type { AgentView } from '../../api/agents.js';
import type { Output } from '../output.js';
import { isBlank, readStdinText } from '../stdin.js';
import { agentNameFor } from '../agent-names.js';
import { piSettingsProblem } from '../../hosts/pi/agent-dir.js';
import { writeWithRetry } from './retry.js';

export interface AgentFlags {
  model?: string | undefined;
  piConfig?: string | undefined;
  operationId?: string | undefined;
}

async function withConnection<T>(
  home: string,
  need: 'read' | 'write' | 'host',
  run: (connection: Connection) => Promise<T>,
): Promise<T> {
  const connection = await connect(home, need);
  try {
    return await run(connection);
  } finally {
    await connection.close();
  }
}

export function formatAgent(agent: AgentView): string {
  const generation = agent.generation
    ? `generation ${agent.generation.number} ${agent.generation.state}${agent.generation.pid ? ` (pid ${agent.generation.pid})` : ''}`
    : 'never started';
  const work = agent.activeOperationId ? `busy with ${agent.activeOperationId}` : 'idle';
  const fault = agent.generation?.projectionError ? `  FAULT: ${agent.generation.projectionError}` : '';
  // An interrupted generation says why, so a failure is visible where the user looks first.
  const ended =
    agent.generation?.state === 'interrupted' && agent.generation.endReason ? `  (${agent.generation.endReason})` : '';
  return `${agent.name}  ${agent.agentId}  ${agent.model ?? '(pi default model)'}  ${generation}  ${work}${fault}${ended}`;
}

export async function runAgent(home: string, words: string[], flags: AgentFlags, out: Output): Promise<number> {
  const [action, name] = words;
  const usage =
    'usage: common-memory agent create <name> [--model provider/id] [--pi-config DIR] | start <name> | stop <name> | list';
  if (action === 'list') {
    const agents = await withConnection(home, 'read', (c) => c.app.listAgents());
    out.result(agents, () =>
      agents.length === 0
        ? 'no agents yet — create one with: common-memory agent create <name>'
        : agents.map(formatAgent).join('\n'),
    );
    return 0;
  }
  if (!name) throw new CmError('usage', usage);
  let agent: AgentView;
  switch (action) {
    case 'create': {
      checkAgentName(name); // a name no agent can have is refused before the store is opened
      const piConfigDir = flags.piConfig ? resolve(flags.piConfig) : undefined;
      const problem = piSettingsProblem(flags.model, piConfigDir);
      if (problem) throw new CmError('usage', `${problem} Nothing was created.`);
      agent = await withConnection(home, 'write', (c) =>
        c.app.createAgent({ name, model: flags.model, piConfigDir, operationId: flags.operationId ?? randomUUID() }),
      );
      break;
    }
    case 'start':
      agent = await withConnection(home, 'host', async (c) =>
        c.app.startAgent({ agent: await agentNameFor(c.app, name) }),
      );
      break;
    case 'stop':
      // Like start: agents run only inside a host, so without one this is "host unreachable"
      // (exit 8, saying how to start it), not the conflict a command working alone would report.
      agent = await withConnection(home, 'host', async (c) =>
        c.app.stopAgent({ agent: await agentNameFor(c.app, name) }),
      );
      break;
    default:
      throw new CmError('usage', usage);
  }
  out.result(agent, () => formatAgent(agent));
  return 0;
}

export async function runPrompt(
  home: string,
  words: string[],
  operationId: string | undefined,
  out: Output,
): Promise<number> {
  const [agent, ...rest] = words;
  const text = rest.length === 1 && rest[0] === '-' ? await readStdinText('prompt') : rest.join(' ');
  const usage = 'usage: common-memory prompt <agent> <text> [--operation-id ID]   ("-" reads the text from stdin)';
  if (!agent) throw new CmError('usage', usage);
  // An agent but no text (blank, or an empty stdin for "-"): say which part is missing, as note does.
  if (isBlank(text)) throw new CmError('usage', `A prompt needs some text (whitespace alone is refused). ${usage}`);
  const chosenId = operationId ?? randomUUID();
  const receipt = await writeWithRetry(
    home,
    async (app) => app.prompt({ agent: await agentNameFor(app, agent), text, operationId: chosenId }),
    'host',
  );
  out.result(
    receipt,
    () =>
      `${receipt.replayed ? 'already admitted' : 'admitted'}: journal #${receipt.sequence}, user message ${receipt.messageId} (operation ${receipt.operationId}). Follow it with: common-memory timeline --follow; if pi refuses it (no API key), that shows only in: common-memory operation ${receipt.operationId}`,
  );
  return 0;
}

export async function runAbort(
  home: string,
  agent: string | undefined,
  operationId: string | undefined,
  out: Output,
): Promise<number> {
  if (!agent) throw new CmError('usage', 'usage: common-memory abort <agent> [--operation-id ID]');
  const abortId = operationId ?? randomUUID();
  const receipt = await writeWithRetry(
    home,
    async (app) => app.abort({ agent: await agentNameFor(app, agent), operationId: abortId }),
    'host',
  );
  out.result(
    receipt,
    () => `abort requested for operation ${receipt.targetOperationId} (journal #${receipt.sequence})`,
  );
  return 0;
}

export async function runAbandon(home: string, operationId: string | undefined, out: Output): Promise<number> {
  if (!operationId) throw new CmError('usage', 'usage: common-memory abandon <operation-id>');
  checkOperationId(operationId);
  const op = await withConnection(home, 'write', (c) => c.app.abandon({ operationId }));
  out.result(op, () => `operation ${op.operationId} is ${op.state}; its messages are kept`);
  return 0;
}
