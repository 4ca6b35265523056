// One page of recovery items (at most twenty), shown through a window that keeps the selection
// visible. Nothing here depends on the total: 10 000 items render like 20.
import { Box, Text } from 'ink';
import type { RecoveryItemView } from '../../api/capture.js';
import { truncate } from '../format.js';
import { listWindow } from '../widgets/list-window.js';
import { useTheme } from '../widgets/theme.js';

export function recoveryLine(item: RecoveryItemView, selected: boolean, columns: number): string {
  const detail = item.detail.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  const line = `${selected ? '>' : ' '} ${item.id.padEnd(9)} ${truncate(item.code, 26).padEnd(26)} ${item.client.padEnd(6)} ${truncate(item.sessionKey, 12).padEnd(12)} tries ${item.attempts}  ${detail}`;
  return truncate(line, columns);
}

export function RecoveryRows({
  items,
  selected,
  height,
  columns,
}: {
  items: readonly RecoveryItemView[];
  selected: number;
  height: number;
  columns: number;
}) {
  const theme = useTheme();
  const { start, end } = listWindow(items.length, selected, height);
  return (
    <Box flexDirection="column">
      {items.slice(start, end).map((item, offset) => {
        const isSelected = start + offset === selected;
        return (
          <Text key={item.id} bold={isSelected} color={isSelected ? theme.accent : undefined} wrap="truncate-end">
            {recoveryLine(item, isSelected, columns)}
          </Text>
        );
      })}
    </Box>
  );
}
