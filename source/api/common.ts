// What every API area shares: receipts of writes, pages of a stream and their cursors, and the
// identities callers choose. Pure types and tiny pure helpers; the hook may import it (no zod).
export type Stream = 'journal' | 'timeline';

export interface Receipt {
  storeId: string;
  operationId: string;
  /** Always the journal position of the operation's intent. */
  sequence: number;
  /** True when this answer is the original receipt of an earlier identical request. */
  replayed: boolean;
}

export interface PageRequest {
  after: number;
  limit: number;
  agentId?: string | undefined;
  /** The store the caller's cursor belongs to; a different store is a 409. */
  storeId?: string | undefined;
}

export interface Page<Row> {
  storeId: string;
  stream: Stream;
  agentId: string | null;
  rows: Row[];
  /** The last included row's sequence, or the request's `after` on an empty page. */
  nextAfter: number;
  /** The stream's head when the page was read. A short page is not the end: read until an empty page. */
  head: number;
}

export interface HistoryCursor {
  storeId: string;
  stream: Stream;
  after: number;
  agentId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Operation IDs are caller-chosen identities: safe characters only, bounded. */
export const OPERATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The kinds of approved memory: an entry's `type`, its folder under the memory root. */
export const ENTRY_TYPES = ['work_fact', 'work_task', 'work_method', 'work_artifact'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** The clients whose sessions are captured. */
export const CAPTURE_CLIENTS = ['codex', 'claude', 'pi'] as const;
export type CaptureClient = (typeof CAPTURE_CLIENTS)[number];

/** A recovery item's ID as callers see it (`rec-<row>`). */
const RECOVERY_ID = /^rec-([1-9][0-9]{0,15})$/;
export const recoveryIdText = (id: number): string => `rec-${id}`;
/** The row number of a recovery ID, or undefined when the text is not one. */
export const parseRecoveryId = (text: string): number | undefined => {
  const match = RECOVERY_ID.exec(text);
  return match ? Number(match[1]) : undefined;
};
