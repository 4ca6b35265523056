// The agent list: one line per agent with its model, current generation, busy/idle and a
// projection fault. States are spelled in words, so NO_COLOR loses nothing.
import { Box, Text } from 'ink';
import type { AgentView } from '../../api/agents.js';
import { shortId, truncate } from '../format.js';
import { listWindow } from '../widgets/list-window.js';
import { useTheme } from '../widgets/theme.js';

export function agentLine(agent: AgentView, selected: boolean, columns: number): string {
  const generation = agent.generation ? `gen ${agent.generation.number} ${agent.generation.state}` : 'never started';
  const activity = agent.activeOperationId ? `busy ${shortId(agent.activeOperationId)}` : 'idle';
  const fault = agent.generation?.projectionError ? ` · projection fault: ${agent.generation.projectionError}` : '';
  const line = `${selected ? '>' : ' '} ${truncate(agent.name, 14).padEnd(14)} ${truncate(agent.model ?? 'default model', 18).padEnd(18)} ${generation.padEnd(18)} ${activity}${fault}`;
  return truncate(line.replace(/[\u0000-\u001f\u007f]+/g, ' '), columns);
}

export function AgentList({
  agents,
  selectedId,
  height,
  columns,
}: {
  agents: AgentView[] | null;
  selectedId: string | null;
  height: number;
  columns: number;
}) {
  const theme = useTheme();
  if (agents === null) return <Text color={theme.muted}>loading agents…</Text>;
  if (agents.length === 0) return <Text color={theme.muted}>(no agents yet: c creates one)</Text>;
  const selected = Math.max(
    0,
    agents.findIndex((agent) => agent.agentId === selectedId),
  );
  const { start, end } = listWindow(agents.length, selected, height);
  return (
    <Box flexDirection="column">
      {agents.slice(start, end).map((agent) => {
        const isSelected = agent.agentId === selectedId;
        const faulty = Boolean(agent.generation?.projectionError);
        return (
          <Text
            key={agent.agentId}
            bold={isSelected}
            color={faulty ? theme.error : isSelected ? theme.accent : undefined}
            wrap="truncate-end"
          >
            {agentLine(agent, isSelected, columns)}
          </Text>
        );
      })}
    </Box>
  );
}
