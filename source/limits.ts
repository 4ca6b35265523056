// Every limit of common-memory, each with the reason for its order of magnitude.
// Tests of behaviour import these instead of repeating the numbers.

/** One journal/timeline record (raw or canonical JSON). Large enough for a long answer, small enough that one row never stalls a page. */
export const RECORD_MAX_BYTES = 1024 * 1024;

/** One encoded page of journal/timeline rows. Bounds client memory and HTTP body size while always fitting at least one maximal record. */
export const PAGE_MAX_BYTES = 8 * 1024 * 1024;

/** Rows per page: keyset pages stay cheap and a client never asks for the whole history at once. */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 100;

/** Follow mode: an empty page means "nothing yet"; polling this often is invisible to a person and idle for the host. */
export const FOLLOW_POLL_MS = 250;

/** Follow mode: transient failures back off up to this, so a restarting host is picked up within seconds. */
export const FOLLOW_BACKOFF_MAX_MS = 4000;

/** SQLite busy timeout: long enough to wait out another short transaction, short enough that a hook stays within host deadlines. */
export const BUSY_TIMEOUT_MS = 1000;

/** Operation IDs and agent names are identities, not documents. */
export const OPERATION_ID_MAX_CHARS = 128;

/** HTTP request bodies: a note of RECORD_MAX_BYTES plus JSON escaping headroom. */
export const REQUEST_BODY_MAX_BYTES = 4 * RECORD_MAX_BYTES;

/** A hook's stdin: host payloads are small; anything larger is refused, never truncated. */
export const HOOK_STDIN_MAX_BYTES = 4 * 1024 * 1024;

/** Sequences are SQLite INTEGERs; JavaScript numbers are exact up to 2^53-1, which is the real ceiling for us. */
export const SEQUENCE_MAX = Number.MAX_SAFE_INTEGER;

/** How long a CLI waits for the host API before treating it as unreachable. */
export const API_TIMEOUT_MS = 10_000;

/** pi 0.73.1 has no agent_settled: after agent_end a retry/compaction continuation comes in the same tick; if neither it nor the barrier response arrives within this, the prompt is settled. Long enough for a loaded 2-core machine, short enough to stay unnoticed. */
export const PI_SETTLE_GRACE_MS = 500;

/** One line of a host transcript (Codex rollout, Claude JSONL): room for an inlined screenshot; a longer line fails the session instead of growing the parser's memory without bound. */
export const TRANSCRIPT_LINE_MAX_BYTES = 16 * 1024 * 1024;

/** Bytes a transcript reader asks the OS for at a time: big enough to amortise syscalls and JSON framing, small enough to keep a parse far below the memory budget. */
export const TRANSCRIPT_READ_CHUNK_BYTES = 1024 * 1024;
