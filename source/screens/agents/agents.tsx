// Agents screen: the agents with their state, create / start / stop / prompt / abort, and the
// selected agent's live timeline (or journal). Owns its state; the parts below only render it.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useEnvironment, useHelp, useKept, useShellActions } from '../shell/shell-context.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { rawRows, rowsText } from '../row-text.js';
import { OutcomeLine, usePromptOutcome } from './prompt-outcome.js';
import { HEADER_LINES } from '../shell/header.js';
import { helpItem, keyLabel } from '../keyboard/key-bindings.js';
import type { HelpItem } from '../shell/shell-state.js';
import { useTerminalSize } from '../terminal-size.js';
import { ErrorLine } from '../widgets/error-line.js';
import { LineInputView } from '../widgets/line-input.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { AgentList } from './agent-list.js';
import { CreateFormView } from './create-form.js';
import { chosenRow, feedContent, FeedRows } from './feed-rows.js';
import { feedKey, latestOperationId, useAgentFeed, type FeedState } from './use-agent-feed.js';
import { useAgentsEffects } from './use-agents-effects.js';
import { useAgentsInput } from './use-agents-input.js';
import { selectedAgent, useAgentsState, type AgentsState } from './use-agents-state.js';

/** Agents listed at once; more scroll with the selection, so the timeline keeps most of the screen. */
const LIST_ROWS_MAX = 5;
/** Lines of this screen that are neither list nor feed rows: title, feed title, outcome, input and error lines. */
const SCREEN_CHROME = 5;
/** Lines outside this screen: the header, the help line and the one spare row. */
const SHELL_LINES = HEADER_LINES + 2;

const TASK_LABELS = {
  create: 'creating…',
  start: 'starting…',
  stop: 'stopping…',
  abort: 'aborting…',
  prompt: 'sending prompt…',
  abandon: 'abandoning…',
} as const;

function helpFor(state: AgentsState): HelpItem[] {
  if (state.task && state.mode !== 'list') return [{ keys: '', label: TASK_LABELS[state.task.kind] }];
  if (state.mode === 'create')
    return [
      helpItem('field', ['nextField', 'previousField'], 'all'),
      helpItem('create', ['submit']),
      helpItem('cancel', ['cancel']),
    ];
  if (state.mode === 'prompt') return [helpItem('send', ['submit']), helpItem('cancel', ['cancel'])];
  // An interrupted generation has nothing to abort; what it may need is an abandon decision.
  const interrupted = selectedAgent(state)?.generation?.state === 'interrupted';
  return [
    helpItem('select', ['selectUp', 'selectDown']),
    helpItem('new', ['createAgent']),
    helpItem('start', ['startAgent']),
    // Nor anything to stop; leaving x out keeps the line within 80 columns (q quit was cut).
    ...(interrupted ? [] : [helpItem('stop', ['stopAgent'])]),
    helpItem('prompt', ['openPrompt']),
    interrupted ? helpItem('abandon', ['abandonPrompt']) : helpItem('abort', ['abortPrompt']),
    helpItem(state.stream === 'timeline' ? 'journal' : 'timeline', ['toggleStream']),
  ];
}

function FeedTitle({ state, feed }: { state: AgentsState; feed: FeedState }) {
  const theme = useTheme();
  const agent = selectedAgent(state);
  const name = state.stream === 'timeline' ? 'Timeline' : 'Journal';
  const parts = agent
    ? [
        `${feed.rows.length === 0 ? 'no rows yet' : `last #${feed.rows.at(-1)?.sequence}`}`,
        feed.caughtUp ? 'following' : 'catching up…',
        // The feed's own keys, here because the help line is full at 80 columns.
        ...(feed.rows.length > 0
          ? [`${keyLabel('olderRow')} ${keyLabel('newerRow')} row`, `${keyLabel('openItem')} in full`]
          : []),
      ]
    : [];
  return (
    <Text wrap="truncate-end">
      <Text bold color={theme.accent}>
        {agent ? `${name} of ${agent.name}` : name}
      </Text>
      {parts.length > 0 ? ` · ${parts.join(' · ')}` : ''}
      {feed.error ? <Text color={theme.error}>{` · read error ${feed.error.code}`}</Text> : ''}
    </Text>
  );
}

function BottomLine({ state, columns }: { state: AgentsState; columns: number }) {
  const theme = useTheme();
  const agent = selectedAgent(state);
  if (state.mode === 'prompt') {
    return (
      <Box>
        <LineInputView
          prompt={`prompt ${agent?.name ?? ''}> `}
          line={state.prompt}
          width={columns - (state.task ? 20 : 0)}
          disabled={state.task !== null}
        />
        {state.task ? <Spinner label={TASK_LABELS[state.task.kind]} /> : null}
      </Box>
    );
  }
  if (state.task)
    return <Spinner label={`${TASK_LABELS[state.task.kind]} ${'agent' in state.task ? state.task.agent : ''}`} />;
  if (state.notice)
    return (
      <Text color={theme.ok} wrap="truncate-end">
        {state.notice}
      </Text>
    );
  return <Text> </Text>;
}

/** The feed row Enter opens, chosen with [ and ] for one agent and stream (its feedKey). */
type Choice = { key: string; sequence: number };

export function Agents() {
  const { app } = useEnvironment();
  const { rows, columns } = useTerminalSize();
  // Left for another screen and shown again, Agents is where it was (its list read again).
  const [kept, keep] = useKept<{ state: AgentsState; choice: Choice | null }>('agents');
  const [state, dispatch] = useAgentsState(kept?.state);
  const theme = useTheme();
  const feed = useAgentFeed(app, state.selectedId, state.stream);
  const latest = latestOperationId(feed.rows);
  const outcome = usePromptOutcome(app, latest, feed.rows.at(-1)?.sequence);
  const { read } = useShellActions();
  useAgentsEffects(app, state, dispatch);
  const heldNote = useAgentsInput(state, dispatch, latest);
  const shown = feedContent(feed.rows);
  // The row Enter opens: chosen with [ and ] for this agent and stream, the newest until then.
  const [choice, setChoice] = useState<Choice | null>(kept?.choice ?? null);
  useEffect(() => keep({ state, choice }));
  const key = feedKey(state.selectedId, state.stream);
  const chosen = choice?.key === key ? choice.sequence : null;
  const row = chosenRow(shown, chosen);
  useCommandKeys(
    ['olderRow', 'newerRow'],
    (command) => {
      const at = shown.findIndex((item) => item.sequence === row?.sequence);
      const next = shown[Math.min(shown.length - 1, Math.max(0, at + (command === 'olderRow' ? -1 : 1)))];
      if (next) setChoice({ key, sequence: next.sequence });
    },
    { isActive: state.mode === 'list' && shown.length > 0 },
  );
  useCommandKeys(
    ['openItem'],
    () => {
      if (!row) return;
      read({
        title: `${state.stream === 'timeline' ? 'Timeline' : 'Journal'} row #${row.sequence} of ${selectedAgent(state)?.name ?? ''} in full`,
        text: rowsText([row]),
        raw: rawRows([row]),
      });
    },
    { isActive: state.mode === 'list' && row !== undefined },
  );
  useHelp(helpFor(state), state.mode === 'list');
  const listRows = Math.min(LIST_ROWS_MAX, Math.max(1, state.agents?.length ?? 1));
  const feedRows = Math.max(1, rows - SHELL_LINES - SCREEN_CHROME - listRows - (heldNote ? 1 : 0));
  const error = state.error
    ? { prefix: state.error.action, error: state.error.error }
    : state.listError
      ? { prefix: 'list', error: state.listError }
      : null;
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          Agents
        </Text>
        {state.agents ? ` · ${state.agents.length}` : ''}
      </Text>
      <AgentList agents={state.agents} selectedId={state.selectedId} height={listRows} columns={columns} />
      {heldNote ? <Text wrap="truncate-end">{heldNote}</Text> : null}
      {state.mode === 'create' ? (
        <Box flexDirection="column" flexGrow={1}>
          <CreateFormView form={state.form} columns={columns} submitting={state.task !== null} />
        </Box>
      ) : (
        <Box flexDirection="column" flexGrow={1}>
          <FeedTitle state={state} feed={feed} />
          <Box flexDirection="column" flexGrow={1} overflow="hidden">
            <FeedRows
              rows={feed.rows}
              chosen={row?.sequence ?? null}
              height={feedRows}
              columns={columns}
              emptyText={state.selectedId ? '(nothing yet: s starts the agent, p sends a prompt)' : ' '}
            />
          </Box>
        </Box>
      )}
      <OutcomeLine operation={state.mode === 'create' ? null : outcome} columns={columns} />
      <BottomLine state={state} columns={columns} />
      <ErrorLine error={error?.error ?? null} prefix={error?.prefix} typing={state.mode !== 'list'} />
    </Box>
  );
}
