// Sessions: what was captured from Codex, Claude Code and pi, or imported. A list (newest first,
// the first thing the user said), Enter opens a session: its turns with the user's words in full, wrapped, scrolled
// with PgUp/PgDn; c shows or folds the assistant, tool and harness text; Esc goes back.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { CaptureSessionView, SessionList, SessionView } from '../../api/capture.js';
import { visibleText } from '../../memory/visible-text.js';
import { turnCount } from '../../session-text.js';
import { type ShownError, truncate } from '../format.js';
import { helpItem } from '../keyboard/key-bindings.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import { HEADER_LINES } from '../shell/header.js';
import { useEnvironment, useHelp, useKept } from '../shell/shell-context.js';
import { useTerminalSize } from '../terminal-size.js';
import { ErrorLine } from '../widgets/error-line.js';
import { useHeldListKeys } from '../widgets/held-list-keys.js';
import { listWindow, moveSelection } from '../widgets/list-window.js';
import { WrappedText } from '../widgets/wrapped-text.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { useRequest } from '../widgets/use-request.js';
import { sessionLines, sessionRow } from './session-lines.js';

/** Header, help line, the screen's title and its error line. */
const CHROME = HEADER_LINES + 4;
/** Sessions read at a time; the next page is read when the selection nears the end of those read. */
const LIST_SIZE = 100;

/** The client, and whether `import` read the session from a transcript the client stored (as `sessions` says it). */
const clientOf = (session: CaptureSessionView) =>
  session.origin === 'imported' ? `${session.client} (imported)` : session.client;

/** What Sessions keeps while another screen is shown. */
interface KeptSessions {
  list: SessionList | null;
  selected: number;
  open: { key: string; context: boolean } | null;
  view: SessionView | null;
  top: number;
}

export function Sessions() {
  const { app } = useEnvironment();
  const { columns, rows } = useTerminalSize();
  const theme = useTheme();
  // Left for another screen and shown again, the list is where it was (read again) and an open
  // session stays open at the same line.
  const [kept, keep] = useKept<KeptSessions>('sessions');
  const [list, setList] = useState<SessionList | null>(kept?.list ?? null);
  const [selected, setSelected] = useState(kept?.selected ?? 0);
  const [open, setOpen] = useState<{ key: string; context: boolean } | null>(kept?.open ?? null);
  const [view, setView] = useState<SessionView | null>(kept?.view ?? null);
  const [top, setTop] = useState(kept?.top ?? 0);
  useEffect(() => keep({ list, selected, open, view, top }));
  const [error, setError] = useState<ShownError | null>(null);
  const [reload, setReload] = useState(0);
  // The `after` key of the next page being read: a long history (an import of months) is listed
  // whole, a page at a time, not cut at the first page.
  const [more, setMore] = useState<string | null>(null);
  const room = Math.max(1, rows - CHROME);

  // A list read again (r, or back on the screen) keeps the selection on its session, wherever
  // sessions captured meanwhile put it.
  const selectedKey = list?.sessions[selected]?.sessionKey;
  useRequest(reload + 1, () => app.listSessions({ limit: LIST_SIZE }), {
    answered: (value) => {
      const row = value.sessions.findIndex((session) => session.sessionKey === selectedKey);
      setList(value);
      setSelected((current) => (row >= 0 ? row : Math.min(current, Math.max(0, value.sessions.length - 1))));
      setMore(null);
      setError(null);
    },
    failed: (shown) => setError(shown),
  });
  useRequest(more, (after) => app.listSessions({ limit: LIST_SIZE, after }), {
    answered: (value, after) =>
      setList((current) =>
        current?.nextAfter === after ? { ...value, sessions: [...current.sessions, ...value.sessions] } : current,
      ),
    failed: (shown) => setError(shown),
  });
  useRequest(
    open ? `${open.key}\u0000${open.context}` : null,
    () => app.readSession({ sessionKey: open!.key, context: open!.context }),
    {
      answered: (value) => (setView(value), setError(null)),
      failed: (shown) => setError(shown),
    },
  );

  const sessions = list?.sessions ?? [];
  const perSession = 2;
  const windowSize = Math.max(1, Math.floor(room / perSession));
  const lines = view && open ? sessionLines(view, columns, open.context) : [];
  const lastTop = Math.max(0, lines.length - room);
  // Within a window of the end of what was read, the next page is read.
  const nextAfter = list?.nextAfter ?? null;
  useEffect(() => {
    if (nextAfter !== null && selected + windowSize >= sessions.length) setMore(nextAfter);
  }, [nextAfter, selected, windowSize, sessions.length]);
  // Typed ahead before the list is read ("6jj⏎"), the moves and Enter wait for its rows
  // (widgets/held-list-keys.ts); r is not a move and acts at once.
  useCommandKeys(['refresh'], () => setReload((n) => n + 1), { isActive: open === null });
  const heldNote = useHeldListKeys(
    ['selectUp', 'selectDown', 'nextPage', 'previousPage', 'openItem'],
    (command) => {
      if (command === 'openItem' && sessions[selected]) {
        setView(null);
        setTop(0);
        setOpen({ key: sessions[selected]!.sessionKey, context: false });
      } else if (command !== 'openItem') {
        const delta = { selectUp: -1, selectDown: 1, nextPage: windowSize, previousPage: -windowSize }[
          command as 'selectUp' | 'selectDown' | 'nextPage' | 'previousPage'
        ];
        setSelected((current) => moveSelection(current, delta, sessions.length));
      }
    },
    { loading: list === null && error === null, length: sessions.length },
    { isActive: open === null },
  );
  useCommandKeys(
    ['nextPage', 'previousPage', 'selectUp', 'selectDown', 'firstPage', 'toggleContext', 'back'],
    (command) => {
      if (command === 'back') return setOpen(null);
      if (command === 'toggleContext')
        return setOpen((current) => current && { ...current, context: !current.context });
      const step =
        command === 'nextPage'
          ? room
          : command === 'previousPage'
            ? -room
            : command === 'selectDown'
              ? 1
              : command === 'selectUp'
                ? -1
                : -top;
      setTop((current) => Math.min(lastTop, Math.max(0, current + step)));
    },
    { isActive: open !== null },
  );
  useHelp(
    open
      ? [
          helpItem('scroll', ['nextPage', 'previousPage']),
          helpItem('line', ['selectUp', 'selectDown']),
          helpItem(open.context ? 'fold context' : 'show context', ['toggleContext']),
          helpItem('back', ['back']),
        ]
      : [
          helpItem('select', ['selectUp', 'selectDown']),
          helpItem('page', ['nextPage', 'previousPage']),
          helpItem('open', ['openItem']),
          helpItem('refresh', ['refresh']),
        ],
  );

  if (open) {
    const session = view?.session ?? sessions.find((candidate) => candidate.sessionKey === open.key);
    const shown = lines.slice(top, top + room);
    return (
      <Box flexDirection="column">
        {/* Where the page is comes first: at 80 columns a long heading is cut at its end, and the
            client, state and turn count are on the list and the turns themselves. */}
        <Text bold color={theme.accent} wrap="truncate-end">
          {`Session ${open.key.slice(0, 12)}${lines.length > room ? ` · lines ${top + 1}–${top + shown.length} of ${lines.length}` : ''}${session ? ` · ${clientOf(session)} · ${session.state} · ${turnCount(session)}` : ''}`}
        </Text>
        {view ? null : <Spinner />}
        {shown.map((line, index) => (
          <Text
            // biome-ignore lint/suspicious/noArrayIndexKey: a session's lines have no identity but their place, and the list is only ever sliced
            key={top + index}
            wrap="truncate-end"
            bold={line.tone === 'heading'}
            color={line.tone === 'muted' || line.tone === 'context' ? theme.muted : undefined}
          >
            {line.text || ' '}
          </Text>
        ))}
        <ErrorLine error={error} prefix="session" />
      </Box>
    );
  }
  const window = listWindow(sessions.length, selected, windowSize);
  return (
    <Box flexDirection="column">
      <Text bold color={theme.accent} wrap="truncate-end">
        {list ? `Sessions · ${list.total} captured, newest first` : 'Sessions'}
      </Text>
      {list === null && !error ? <Spinner /> : null}
      {list && sessions.length === 0 ? (
        // Every client the screen lists, and the import: a first day often starts with months of
        // conversations already on disk.
        <WrappedText>
          {
            'No captured sessions yet. Install the hooks (5 Integrations, or common-memory install claude|codex|pi), then use Claude Code, Codex or pi as usual; or import what you said before: 5 Integrations, m.'
          }
        </WrappedText>
      ) : null}
      {sessions.slice(window.start, window.end).map((session, offset) => {
        const index = window.start + offset;
        const origin = session.origin === 'imported' ? 'imported · ' : '';
        return (
          <Box key={session.sessionKey} flexDirection="column">
            <Text wrap="truncate-end" inverse={index === selected}>
              {sessionRow(session, index === selected)}
            </Text>
            <Text
              wrap="truncate-end"
              color={theme.muted}
            >{`    ${origin}${session.firstPrompt ? `"${truncate(visibleText(session.firstPrompt), columns - 8 - origin.length)}"` : '(nothing said yet)'}`}</Text>
          </Box>
        );
      })}
      {heldNote ? <Text wrap="truncate-end">{heldNote}</Text> : null}
      <ErrorLine error={error} prefix="sessions" />
    </Box>
  );
}
