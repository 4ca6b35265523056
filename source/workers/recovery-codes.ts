// The fixed set of codes a recovery item may carry. Each names a defect of one activation's data;
// environment failures (SQLite, file I/O, capacity) are never filed under any of them.
import type { TranscriptErrorCode } from '../hosts/transcript-model.js';

export type RecoveryCode =
  | TranscriptErrorCode
  /** The transcript is shorter than what was captured, or a tail does not continue the last one. */
  | 'transcript_cursor_mismatch'
  /** The transcript names another host session than the hook payloads. */
  | 'transcript_session_mismatch'
  /** A hook found more new transcript bytes than it may copy (HOOK_TAIL_MAX_BYTES). */
  | 'transcript_tail_over_limit'
  /** A hook could not read the transcript (permissions, a directory, …). */
  | 'transcript_unreadable'
  /** A transcript user message matches no UserPromptSubmit candidate: unconfirmed delivery. */
  | 'delivery_unconfirmed'
  /** A candidate was already delivered to another message. */
  | 'delivery_conflict'
  /** A sealed turn came back with different content. */
  | 'turn_conflict';

export const RECOVERY_CODES: ReadonlySet<string> = new Set<RecoveryCode>([
  'transcript_invalid_json',
  'transcript_invalid_utf8',
  'transcript_invalid_record',
  'transcript_unknown_record',
  'transcript_order',
  'transcript_line_too_long',
  'transcript_unsupported_version',
  'transcript_invalid_state',
  'transcript_cursor_mismatch',
  'transcript_session_mismatch',
  'transcript_tail_over_limit',
  'transcript_unreadable',
  'delivery_unconfirmed',
  'delivery_conflict',
  'turn_conflict',
]);
