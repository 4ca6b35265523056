// The agents screen's requests: the list, refreshed every AGENTS_REFRESH_MS and at once after a
// command; and the one command in flight. Each answer is dispatched with its task ID, so an answer
// that arrives after the screen moved on is dropped, and every rejection becomes an on-screen error.
import type { Dispatch } from 'react';
import type { Application } from '../../api/application.js';
import type { AgentView } from '../../api/agents.js';
import { shortId } from '../format.js';
import { AGENTS_REFRESH_MS } from '../timing.js';
import { useRequest, useRequestLoop } from '../widgets/use-request.js';
import type { AgentsAction, AgentsState, AgentTask } from './use-agents-state.js';

async function perform(app: Application, task: AgentTask): Promise<{ notice: string; created?: AgentView }> {
  switch (task.kind) {
    case 'create': {
      const agent = await app.createAgent(task.input);
      return {
        notice: `created agent ${agent.name} (${shortId(agent.agentId)}); s starts it`,
        created: agent,
      };
    }
    case 'start': {
      const agent = await app.startAgent({ agent: task.agent });
      return {
        notice:
          `${agent.name} started: generation ${agent.generation?.number ?? '?'} ${agent.generation?.state ?? ''}`.trim(),
      };
    }
    case 'stop': {
      const agent = await app.stopAgent({ agent: task.agent });
      return {
        notice:
          `${agent.name} stopped: generation ${agent.generation?.number ?? '?'} ${agent.generation?.state ?? ''}`.trim(),
      };
    }
    case 'abort': {
      const receipt = await app.abort({ agent: task.agent });
      return {
        notice: `abort requested for operation ${shortId(receipt.targetOperationId)} · journal #${receipt.sequence}${receipt.replayed ? ' · replayed' : ''}`,
      };
    }
    case 'prompt': {
      const receipt = await app.prompt({ agent: task.agent, text: task.text, operationId: task.operationId });
      return {
        notice: `prompt admitted: operation ${shortId(receipt.operationId)} · journal #${receipt.sequence}${receipt.replayed ? ' · replayed (already admitted earlier)' : ''}`,
      };
    }
    case 'abandon': {
      const operation = await app.abandon({ operationId: task.operationId });
      return {
        notice: `operation ${shortId(operation.operationId)} abandoned (${operation.state}); its messages are kept`,
      };
    }
  }
}

export function useAgentsEffects(app: Application, state: AgentsState, dispatch: Dispatch<AgentsAction>): void {
  const { listNonce, task } = state;

  useRequestLoop(
    () => ({
      run: () => app.listAgents(),
      answered: (agents) => {
        dispatch({ type: 'listLoaded', agents });
        return AGENTS_REFRESH_MS;
      },
      failed: (error) => {
        dispatch({ type: 'listFailed', error });
        return AGENTS_REFRESH_MS;
      },
    }),
    [app, listNonce, dispatch],
  );

  useRequest(task, (started) => perform(app, started), {
    answered: (done, { id }) => dispatch({ type: 'taskDone', id, ...done }),
    failed: (error, { id }) => dispatch({ type: 'taskFailed', id, error }),
  });
}
