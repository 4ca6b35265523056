// The lines around the rows: a title with the page position, and the note line (input,
// "saving…", or the last receipt).
import { Box, Text } from 'ink';
import { shortId } from '../format.js';
import { LineInputView } from '../widgets/line-input.js';
import { Spinner } from '../widgets/spinner.js';
import { useTheme } from '../widgets/theme.js';
import { currentPage, type HistoryState, type NoteState } from './use-history-state.js';

export function HistoryTitle({ state }: { state: HistoryState }) {
  const theme = useTheme();
  const page = currentPage(state);
  const name = state.stream === 'journal' ? 'Journal' : 'Timeline';
  const first = page?.rows[0]?.sequence;
  const last = page?.rows.at(-1)?.sequence;
  const parts = [`page ${state.pageStarts.length + 1}`];
  if (page) {
    parts.push(first === undefined ? `after #${page.after}: no rows` : `#${first}–#${last}`, `head ${page.head}`);
    if (page.nextAfter >= page.head) parts.push('end');
  }
  if (state.following) parts.push('following');
  return (
    <Box>
      <Text bold color={theme.accent}>
        {name}
      </Text>
      <Text wrap="truncate-end"> · {parts.join(' · ')} </Text>
      {state.read && !state.read.quiet ? <Spinner /> : null}
    </Box>
  );
}

export function NoteLine({ note, columns }: { note: NoteState; columns: number }) {
  const theme = useTheme();
  if (note.open) {
    return (
      <Box>
        <LineInputView
          prompt="note> "
          line={note.line}
          width={columns - (note.submitting ? 12 : 0)}
          disabled={note.submitting !== null}
        />
        {note.submitting ? <Spinner label="saving…" /> : null}
      </Box>
    );
  }
  if (note.receipt) {
    const { sequence, operationId, replayed } = note.receipt;
    return (
      <Text color={theme.ok} wrap="truncate-end">
        note saved: journal #{sequence} · operation {shortId(operationId)}
        {replayed ? ' · replayed (already saved earlier)' : ''}
      </Text>
    );
  }
  return <Text> </Text>;
}
