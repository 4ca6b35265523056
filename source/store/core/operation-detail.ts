// What happened to an operation, in one line a person reads: pi's refusal, the provider's error,
// retries, an abort — taken from the journal rows the operation owns, never invented.
import type { Db } from '../database.js';

/** A prompt's records follow its intent closely; the scan stops after this many journal rows. */
const DETAIL_SCAN_ROWS = 20_000;
const DETAIL_CHARS = 300;

interface Row {
  kind: string;
  payload: string;
}

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS - 1)}…` : line;
};

export interface OperationDetail {
  /** One line: what happened. */
  line: string;
  /** The same with the refusal or error as pi or the provider wrote it, whole. */
  text: string;
}

export function operationDetail(db: Db, operationId: string, intentSequence: number): OperationDetail | null {
  const rows = db
    .prepare(
      'SELECT kind, payload FROM journal WHERE sequence >= ? AND sequence < ? AND operation_id = ? ORDER BY sequence',
    )
    .all(intentSequence, intentSequence + DETAIL_SCAN_ROWS, operationId) as Row[];
  let retries = 0;
  let said: string | null = null;
  let whole: string | null = null;
  for (const row of rows) {
    const payload = JSON.parse(row.payload) as {
      success?: boolean;
      error?: string;
      message?: { role?: string; stopReason?: string; errorMessage?: string };
    };
    if (row.kind === 'pi.auto_retry_start') retries += 1;
    if (row.kind === 'pi.response' && payload.success === false) {
      said = `pi refused the prompt: ${firstLine(payload.error ?? 'no reason given')}`;
      whole = `pi refused the prompt: ${payload.error ?? 'no reason given'}`;
    }
    if (row.kind === 'pi.message_end' && payload.message?.role === 'assistant') {
      const stop = payload.message.stopReason;
      if (stop === 'error') {
        said = `the provider failed: ${firstLine(payload.message.errorMessage ?? 'no reason given')}`;
        whole = `the provider failed: ${payload.message.errorMessage ?? 'no reason given'}`;
      } else [said, whole] = stop === 'aborted' ? ['aborted while answering', null] : ['answered', null];
    }
    if (row.kind === 'prompt.interrupted') [said, whole] = ['interrupted before a final answer', null];
  }
  if (said === null) return null;
  const after = retries > 0 ? ` (after ${retries} automatic retr${retries === 1 ? 'y' : 'ies'})` : '';
  return { line: `${said}${after}`, text: `${whole ?? said}${after}` };
}
