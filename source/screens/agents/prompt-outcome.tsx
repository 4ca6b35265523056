// What became of the newest prompt on screen, in one line: answered, or why not — pi's refusal
// (no API key), the provider's error, retries, an abort — as `operation <id>` says it; o opens the
// whole text. Read again while the prompt is still open, so a refusal that adds no timeline row
// still shows.
import { Text } from 'ink';
import { useState } from 'react';
import type { Application } from '../../api/application.js';
import { FOLLOW_BACKOFF_MAX_MS, FOLLOW_POLL_MS } from '../../limits.js';
import type { OperationView } from '../../api/history.js';
import { shortId, truncate } from '../format.js';
import { keyLabel } from '../keyboard/key-bindings.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { useShellActions } from '../shell/shell-context.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { useTheme } from '../widgets/theme.js';

const OPEN_STATES = new Set(['prepared', 'attempted', 'accepted']);
const MORE = ` · ${keyLabel('showOutcome')} in full`;

/** "settled · answered", "rejected — pi refused the prompt: No API key found for anthropic". */
export function outcomeText(operation: OperationView, detail: string | null | undefined): string {
  const state =
    operation.outcome && operation.outcome !== operation.state
      ? `${operation.state} (${operation.outcome})`
      : operation.state;
  return `${state}${detail ? ` — ${detail}` : OPEN_STATES.has(operation.state) ? ' …' : ''}`;
}

const failed = (operation: OperationView): boolean =>
  !OPEN_STATES.has(operation.state) && !operation.detail?.startsWith('answered');

export function usePromptOutcome(app: Application, operationId: string | null, changed: unknown): OperationView | null {
  const [operation, setOperation] = useState<OperationView | null>(null);
  useRequestLoop(() => {
    setOperation(null);
    if (!operationId) return undefined;
    let failures = 0;
    return {
      run: () => app.operation({ operationId }),
      answered: (view) => {
        failures = 0;
        setOperation(view);
        // Settled for good: read again only when the feed moves (the `changed` dependency).
        return OPEN_STATES.has(view.state) || !view.detail ? FOLLOW_POLL_MS : 2 ** 31 - 1;
      },
      failed: () => Math.min(FOLLOW_POLL_MS * 2 ** ++failures, FOLLOW_BACKOFF_MAX_MS),
    };
  }, [app, operationId, changed]);
  return operation?.operationId === operationId ? operation : null;
}

export function OutcomeLine({ operation, columns }: { operation: OperationView | null; columns: number }) {
  const theme = useTheme();
  const { read } = useShellActions();
  const title = operation ? `last prompt ${shortId(operation.operationId)}` : '';
  useCommandKeys(
    ['showOutcome'],
    () =>
      operation &&
      read({
        title: `operation ${operation.operationId}`,
        text: [
          `${title}: ${outcomeText(operation, operation.detailText ?? operation.detail)}`,
          '',
          `kind ${operation.kind} · state ${operation.state} · outcome ${operation.outcome ?? '-'}`,
          `intent at journal #${operation.journalSequence} · created ${operation.createdAt} · updated ${operation.updatedAt}`,
        ].join('\n'),
        raw: JSON.stringify(operation, null, 2),
      }),
    { isActive: operation !== null },
  );
  if (!operation) return <Text> </Text>;
  const line = `${title}: ${outcomeText(operation, operation.detail)}`;
  const cut = Array.from(line).length > columns || (operation.detailText ?? '') !== (operation.detail ?? '');
  return (
    <Text color={failed(operation) ? theme.error : theme.muted} wrap="truncate-end">
      {cut ? `${truncate(line, Math.max(1, columns - MORE.length))}${MORE}` : line}
    </Text>
  );
}
