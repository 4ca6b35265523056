// `log` (the journal) and `timeline`: keyset pages read until an empty page; with --follow, poll
// after an empty page and retry transient failures from the last displayed position.
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Connection } from '../../client/connect.js';
import { CmError } from '../../errors.js';
import { FOLLOW_BACKOFF_MAX_MS, FOLLOW_POLL_MS, PAGE_LIMIT_DEFAULT } from '../../limits.js';
import type { HistoryCursor, JournalRow, Page, PageRequest, Stream, TimelineRow } from '../../protocol.js';
import { assertCursorDirectory, readCursorFile, writeCursorFile } from '../cursor-file.js';
import { preview, type Output } from '../output.js';

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

function wholeNumber(value: string, name: string): number {
  if (!/^\d{1,16}$/.test(value)) throw new CmError(name === 'after' ? 'invalid_cursor' : 'usage', `--${name} must be a whole number, not ${JSON.stringify(value)}.`);
  return Number(value);
}

export function formatRow(row: Row): string {
  const agent = row.agentId ? ` agent:${row.agentId.slice(0, 8)}` : '';
  if ('kind' in row) return `J#${row.sequence}  ${row.recordedAt}  ${row.kind}${agent}  ${preview(row.payload, 60)}`;
  return `T#${row.sequence}  ${row.recordedAt}  ${row.role}${agent}  ${preview(row.payload, 60)}  (from J#${row.sourceJournalSequence})`;
}

function startingCursor(options: HistoryOptions): { after: number; storeId?: string; agentId?: string } {
  // Checked before the first page is printed: rows printed and then not saved would be read again.
  if (options.cursorFile) assertCursorDirectory(options.cursorFile);
  const fromFile = options.cursorFile ? readCursorFile(options.cursorFile, options.stream) : undefined;
  if (fromFile && options.after !== undefined) throw new CmError('usage', 'Give either --after or --cursor-file with a saved position, not both.');
  if (fromFile && options.agent !== undefined && options.agent !== fromFile.agentId) {
    throw new CmError('invalid_cursor', `The cursor file was made for agent ${fromFile.agentId ?? '(all agents)'}; use a separate cursor file for another filter.`);
  }
  if (fromFile) return { after: fromFile.after, storeId: fromFile.storeId, agentId: fromFile.agentId ?? undefined };
  return { after: options.after === undefined ? 0 : wholeNumber(options.after, 'after'), agentId: options.agent };
}

export async function runHistory(options: HistoryOptions, out: Output): Promise<number> {
  const start = startingCursor(options);
  const explicitLimit = options.limit !== undefined;
  const limit = explicitLimit ? wholeNumber(options.limit!, 'limit') : PAGE_LIMIT_DEFAULT;
  let after = start.after;
  let storeId = start.storeId;
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
        connection ??= await connect(options.home, 'read');
        const request: PageRequest = { after, limit, agentId: start.agentId, storeId };
        page = options.stream === 'journal' ? await connection.app.journal(request) : await connection.app.timeline(request);
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
        if (options.follow || !out.json) for (const row of page.rows) out.line(out.json ? JSON.stringify(row) : formatRow(row));
        else collected.push(...page.rows);
        after = page.nextAfter;
        // Printed first, saved second: a crash may repeat a row on the next run, never skip one.
        if (options.cursorFile) writeCursorFile(options.cursorFile, { storeId, stream: options.stream, after, agentId: start.agentId ?? null } satisfies HistoryCursor);
      }
      if (!options.follow && (explicitLimit || page.rows.length === 0)) {
        if (out.json) out.line(JSON.stringify({ ...page, rows: explicitLimit ? page.rows : collected, nextAfter: after }));
        return 0;
      }
      if (page.rows.length === 0) await sleep(FOLLOW_POLL_MS);
    }
  } finally {
    process.off('SIGINT', onSigint);
    await connection?.close();
  }
}
