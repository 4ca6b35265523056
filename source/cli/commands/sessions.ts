// `sessions` and `session <key>`: what was captured from Codex and Claude Code, read back. The
// user's words are printed in full; assistant, tool and harness text only with --context. What the
// secret lint finds is masked (the API masks it, so --json too); `session <key> --reveal` is the one
// reader of the text as typed.
import { connect } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import type { SessionSummary, SessionView } from '../../api/capture.js';
import { foldedText, turnHeading, turnCount } from '../../session-text.js';
import { wrapText } from '../../text-wrap.js';
import { fitLine, fitLines, type Output } from '../output.js';
import { pageLimitFlag } from '../parse.js';
import { checkedCaptureClient } from '../../api/request-checks.js';
import { waitingWithoutHost } from '../waiting.js';
import { FLUSH_COMMAND, SERVICE_COMMAND, waitingText } from '../../waiting-text.js';
import { visibleText } from '../../memory/visible-text.js';

export interface SessionsFlags {
  client?: string | undefined;
  limit?: string | undefined;
  after?: string | undefined;
}

/** The words typed: wrapped to the terminal when there is one; a pipe gets each text line as it is. */
const width = (): number => process.stdout.columns ?? Number.MAX_SAFE_INTEGER;

/**
 * The listing's own lines, at 80 columns as the memory commands' (output.ts), terminal or pipe:
 * a command to copy whole on its line.
 */
const fit = (text: string, keep: readonly string[] = []): string => fitLine(text, '  ', keep).join('\n');

const INSTALL_COMMAND = 'common-memory install claude|codex|pi';
const IMPORT_COMMAND = 'common-memory import claude|codex|pi';

export async function runSessions(home: string, flags: SessionsFlags, out: Output): Promise<number> {
  const limit = pageLimitFlag(flags.limit);
  checkedCaptureClient(flags.client);
  const connection = await connect(home, 'read');
  try {
    const list = await connection.app.listSessions({
      client: flags.client,
      limit,
      after: flags.after,
    });
    const waiting = await waitingWithoutHost(connection);
    const note = waiting === null ? [] : [fitLines(waitingText(waiting)!, '  ', [FLUSH_COMMAND, SERVICE_COMMAND])];
    out.result({ ...list, waiting }, () => {
      // Past the last page (the key of the oldest session given to --after) the store is not empty.
      if (list.sessions.length === 0 && flags.after !== undefined)
        return [fit(`No sessions older than ${flags.after}: it was the last of ${list.total}.`), ...note].join('\n');
      if (list.sessions.length === 0 && flags.client !== undefined)
        return [
          fit(`No ${flags.client} session was captured; common-memory sessions lists every client's.`),
          ...note,
        ].join('\n');
      if (list.sessions.length === 0)
        return [
          waiting === null
            ? // Every client captured (pi too), and the import: a first day often starts with months of
              // conversations already on disk (the TUI's empty Sessions screen says the same).
              fit(
                `No captured sessions yet. Install the hooks (${INSTALL_COMMAND}), then use Claude Code, Codex or pi as usual; or import what you said before: ${IMPORT_COMMAND}.`,
                [INSTALL_COMMAND, IMPORT_COMMAND],
              )
            : 'No session has a sealed turn yet.',
          ...note,
        ].join('\n');
      const lines = list.sessions.flatMap((session) => [...summaryLines(session), '']);
      lines.push(
        fit(
          `${list.sessions.length} of ${list.total} session(s), newest first. Read one: common-memory session <key>`,
          ['common-memory session <key>'],
        ),
      );
      // The next page of the same listing: the filter and page size go with the cursor.
      const older = `common-memory sessions${flags.client ? ` --client ${flags.client}` : ''}${flags.limit ? ` --limit ${flags.limit}` : ''} --after ${list.nextAfter}`;
      if (list.nextAfter) lines.push(fit(`Older ones: ${older}`, [older]));
      lines.push(...note);
      return lines.join('\n');
    });
    return 0;
  } finally {
    await connection.close();
  }
}

export async function runSession(
  home: string,
  key: string | undefined,
  flags: { context: boolean; reveal: boolean },
  out: Output,
): Promise<number> {
  if (!key)
    throw new CmError(
      'usage',
      'usage: common-memory session <session-key> [--context] [--reveal]   (common-memory sessions lists the keys)',
    );
  const connection = await connect(home, 'read');
  try {
    const view = await connection.app.readSession({ sessionKey: key, context: flags.context, reveal: flags.reveal });
    out.result(view, () => sessionText(view, flags.context));
    return 0;
  } finally {
    await connection.close();
  }
}

function summaryLines(session: SessionSummary): string[] {
  const when = session.startedAt.replace('T', ' ').slice(0, 16);
  const client = `${session.client}${session.origin === 'imported' ? ' (imported)' : ''}`;
  return [
    fit(`${session.sessionKey}  ${client}  ${session.state}  ${turnCount(session)}  ${when} UTC`, [
      client,
      turnCount(session),
      `${when} UTC`,
    ]),
    `  in ${session.cwd ?? '(unknown directory)'}`,
    ...(session.firstPrompt
      ? wrapText(`"${visibleText(session.firstPrompt)}"`, width(), '  ')
      : ['  (nothing said yet)']),
  ];
}

function sessionText(view: SessionView, context: boolean): string {
  const lines = summaryLines(view.session).slice(0, 2);
  view.turns.forEach((turn, index) => {
    lines.push('', turnHeading(turn, index));
    for (const message of turn.messages) {
      const who =
        message.classification === 'evidence' ? 'you' : `${message.role} (${message.kind.replace(/_/g, ' ')})`;
      // What was typed, its hidden characters and terminal controls as ⟨U+XXXX⟩ (--json keeps the bytes).
      lines.push(`  ${who}:`, ...wrapText(visibleText(message.text ?? '(no text kept)'), width(), '    '));
    }
    const folded = foldedText(turn.folded);
    if (folded) lines.push(`  … ${folded} folded${context ? '' : ' (--context shows them)'}`);
  });
  if (view.turns.length === 0)
    lines.push('', fit('No turn sealed yet (they appear once a turn ends and the host drains the inbox).'));
  if (view.revealed) lines.push('', 'Shown as typed (--reveal): secrets are not masked.');
  else if (view.secretsMasked > 0) {
    const reveal = `common-memory session ${view.session.sessionKey} --reveal`;
    lines.push('', fit(`${view.secretsMasked} secret finding(s) masked; ${reveal} shows the text as typed.`, [reveal]));
  }
  return lines.join('\n');
}
