// `log` (the journal) and `timeline`: keyset pages read until an empty page; with --follow, poll
// after an empty page and retry transient failures from the last displayed position.
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Connection } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import { FOLLOW_BACKOFF_MAX_MS, FOLLOW_POLL_MS, PAGE_LIMIT_DEFAULT } from '../../limits.js';
import type { Application } from '../../api/application.js';
import { isUuid, type HistoryCursor, type Page, type PageRequest, type Stream } from '../../api/common.js';
import type { JournalRow, TimelineRow } from '../../api/history.js';
import { assertCursorDirectory, cursorFileTarget, readCursorFile, writeCursorFile } from '../cursor-file.js';
import { agentIdFor } from '../agent-names.js';
import { messageText } from '../../message-text.js';
import { preview, type Output } from '../output.js';
import { pageLimitFlag } from '../parse.js';

export interface HistoryOptions {
  home: string;
  stream: Stream;
  after?: string | undefined;
  agent?: string | undefined;
  limit?: string | undefined;
  follow: boolean;
  cursorFile?: string | undefined;
}

type Row = JournalRow | TimelineRow;

const TRANSIENT = new Set(['host_unreachable', 'storage_failed']);

/** --after: a journal or timeline position (--limit is parse.ts pageLimitFlag's). */
function positionFlag(value: string): number {
  if (!/^\d{1,16}$/.test(value))
    throw new CmError('invalid_cursor', `--after must be a whole number, not ${JSON.stringify(value)}.`);
  return Number(value);
}

export function formatRow(row: Row): string {
  const agent = row.agentId ? ` agent:${row.agentId.slice(0, 8)}` : '';
  if ('kind' in row) return `J#${row.sequence}  ${row.recordedAt}  ${row.kind}${agent}  ${preview(row.payload, 60)}`;
  return `T#${row.sequence}  ${row.recordedAt}  ${row.role}${agent}  ${preview(messageText(row.payload) ?? row.payload, 60)}  (from J#${row.sourceJournalSequence})`;
}

interface Start {
  after: number;
  storeId?: string;
  /** The filter to read with: the cursor file's, or --agent as typed (a name or an ID prefix is resolved on connecting). */
  agentId?: string;
  /** The cursor file's filter, which --agent must name too. */
  savedAgentId?: string | null;
}

function startingCursor(options: HistoryOptions): Start {
  // Checked before the first page is printed: rows printed and then not saved would be read again.
  if (options.cursorFile) assertCursorDirectory(options.cursorFile);
  const fromFile = options.cursorFile ? readCursorFile(options.cursorFile, options.stream) : undefined;
  if (fromFile && options.after !== undefined)
    throw new CmError('usage', 'Give either --after or --cursor-file with a saved position, not both.');
  if (fromFile)
    return {
      after: fromFile.after,
      storeId: fromFile.storeId,
      agentId: options.agent ?? fromFile.agentId ?? undefined,
      savedAgentId: fromFile.agentId,
    };
  return { after: options.after === undefined ? 0 : positionFlag(options.after), agentId: options.agent };
}

/** --agent as a full ID; with a cursor file, the same filter the file was saved with. */
async function agentFilter(app: Application, start: Start): Promise<string | undefined> {
  const agentId =
    start.agentId === undefined || isUuid(start.agentId) ? start.agentId : await agentIdFor(app, start.agentId);
  if (start.savedAgentId !== undefined && (agentId ?? null) !== start.savedAgentId) {
    const saved = start.savedAgentId === null ? 'all agents' : `agent ${start.savedAgentId}`;
    throw new CmError(
      'invalid_cursor',
      `The cursor file was saved reading ${saved}, not agent ${agentId}; give each agent filter its own cursor file.`,
    );
  }
  return agentId;
}

export async function runHistory(options: HistoryOptions, out: Output): Promise<number> {
  // Each means the opposite of the other: --follow went on past the page --limit said to stop at.
  if (options.follow && options.limit !== undefined)
    throw new CmError(
      'usage',
      '--limit prints one page and stops; --follow never stops. Give one of them; nothing was read.',
    );
  // A cursor file that is a link is the file it names, read and replaced there: the link stays.
  if (options.cursorFile) options = { ...options, cursorFile: cursorFileTarget(options.cursorFile) };
  const start = startingCursor(options);
  const explicitLimit = options.limit !== undefined;
  const limit = pageLimitFlag(options.limit) ?? PAGE_LIMIT_DEFAULT;
  let after = start.after;
  let storeId = start.storeId;
  let agentId = start.agentId;
  let connection: Connection | undefined;
  let stopping = false;
  const onSigint = () => {
    stopping = true;
  };
  process.on('SIGINT', onSigint);
  try {
    let backoff = FOLLOW_POLL_MS;
    const collected: Row[] = [];
    for (;;) {
      if (stopping) return 130;
      let page: Page<Row>;
      try {
        if (!connection) {
          connection = await connect(options.home, 'read');
          // A name or a start of the ID, resolved once: the cursor keeps the agent's full ID.
          agentId = await agentFilter(connection.app, start);
        }
        const request: PageRequest = { after, limit, agentId, storeId };
        page =
          options.stream === 'journal' ? await connection.app.journal(request) : await connection.app.timeline(request);
        backoff = FOLLOW_POLL_MS;
      } catch (error) {
        if (!(options.follow && error instanceof CmError && TRANSIENT.has(error.code))) throw error;
        // The host may be restarting: reconnect from the last displayed position, backing off.
        await connection?.close().catch(() => {});
        connection = undefined;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, FOLLOW_BACKOFF_MAX_MS);
        continue;
      }
      storeId = page.storeId;
      if (page.rows.length > 0) {
        if (options.follow || !out.json)
          for (const row of page.rows) out.line(out.json ? JSON.stringify(row) : formatRow(row));
        else collected.push(...page.rows);
        after = page.nextAfter;
        // Printed first, saved second: a crash may repeat a row on the next run, never skip one.
        if (options.cursorFile)
          writeCursorFile(options.cursorFile, {
            storeId,
            stream: options.stream,
            after,
            agentId: agentId ?? null,
          } satisfies HistoryCursor);
      }
      if (!options.follow && (explicitLimit || page.rows.length === 0)) {
        if (out.json)
          out.line(JSON.stringify({ ...page, rows: explicitLimit ? page.rows : collected, nextAfter: after }));
        // Read from the start and nothing there: said, where a person reads it. Pages from a
        // position (--after, a cursor file) stay quiet, as a script polling them expects.
        else if (after === 0 && options.after === undefined && options.cursorFile === undefined)
          out.line(
            options.stream === 'timeline'
              ? 'No timeline messages yet: it holds what driven agents are sent and answer (common-memory agent create <name>).'
              : 'No journal rows yet.',
          );
        return 0;
      }
      if (page.rows.length === 0) await sleep(FOLLOW_POLL_MS);
    }
  } finally {
    process.off('SIGINT', onSigint);
    await connection?.close();
  }
}
