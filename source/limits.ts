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

/** Results of a memory search or recall at most: a person reads them, an agent takes the first few. */
export const RESULTS_LIMIT_MAX = 100;

/** Follow mode: an empty page means "nothing yet"; polling this often is invisible to a person and idle for the host. */
export const FOLLOW_POLL_MS = 250;

/** Follow mode: transient failures back off up to this, so a restarting host is picked up within seconds. */
export const FOLLOW_BACKOFF_MAX_MS = 4000;

/** SQLite busy timeout: long enough to wait out another short transaction, short enough that a hook stays within host deadlines. */
export const BUSY_TIMEOUT_MS = 1000;

/**
 * A store read where its directory cannot be written (a read-only mount, chmod a-w) is read from a
 * copy in memory (store/database.ts): the whole file is held, so it is bounded. A larger store
 * needs its data home writable (or a copy of it in a writable place) to be read.
 */
export const READ_ONLY_COPY_MAX_BYTES = 1024 * 1024 * 1024;

/** Operation IDs are identities, not documents (agent names are shorter still: 64, AGENT_NAME in api/request-checks.ts). */
export const OPERATION_ID_MAX_CHARS = 128;

/** HTTP request bodies: a note of RECORD_MAX_BYTES plus JSON escaping headroom. */
export const REQUEST_BODY_MAX_BYTES = 4 * RECORD_MAX_BYTES;

/** A hook's stdin: host payloads are small; anything larger is refused, never truncated. */
export const HOOK_STDIN_MAX_BYTES = 4 * 1024 * 1024;

/**
 * `hook pi`'s stdin, from the pi extension's fallback channel: the event is already whole in pi's
 * memory (a tool may have printed a whole file), and a message over HOOK_TAIL_MAX_BYTES is kept
 * without its content, as on the direct channel; only an event beyond this is refused.
 */
export const PI_HOOK_STDIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The first bytes of a hook's stdin kept (quarantine/*.head) when it is over its bound: enough to
 * see which client and event sent it, small enough that a flood of hostile events stays cheap on disk.
 */
export const HOOK_OVER_LIMIT_HEAD_BYTES = 64 * 1024;

/** Sequences are SQLite INTEGERs; JavaScript numbers are exact up to 2^53-1, which is the real ceiling for us. */
export const SEQUENCE_MAX = Number.MAX_SAFE_INTEGER;

/**
 * How long a CLI waits for one answer of the host API before treating it as unreachable. Every
 * request is short: long work (an extraction run) is started, then followed by short reads, so a
 * run may take as long as its runners do.
 */
export const API_TIMEOUT_MS = 10_000;

/** Replaces API_TIMEOUT_MS (whole milliseconds): tests shorten it to show a run outlasts it. */
export const API_TIMEOUT_ENV = 'COMMON_MEMORY_API_TIMEOUT_MS';

/** How long a host keeps a finished extraction run's report for a follower: a terminal closed mid-run is reopened within it. memory-state's record answers after. */
export const EXTRACT_RUNS_KEPT_MS = 60 * 60 * 1000;
/** How many finished runs it keeps at most: a script starting runs in a loop does not make it grow without end. */
export const EXTRACT_RUNS_KEPT = 64;

/** How often a client following an extraction run reads it: progress shows promptly, a host sees about two short reads a second. */
export const EXTRACT_FOLLOW_POLL_MS = 400;
/**
 * The first wait before a followed run is read again, doubled at each read up to EXTRACT_FOLLOW_POLL_MS:
 * most runs (nothing new since the last, a few turns) end within tens of milliseconds, and a flat
 * wait made each such `memory extract` about 400 ms longer than its work.
 */
export const EXTRACT_FOLLOW_FIRST_WAIT_MS = 10;

/** How long a command waits for a host that holds the data home to answer its first request: a host that
 * answers nothing (suspended, wedged) is reported as unreachable instead of being waited out. A loaded 2-core
 * machine answers a status request in well under a second. */
export const HOST_PROBE_TIMEOUT_MS = 5_000;

/** pi 0.73.1 has no agent_settled: after agent_end a retry/compaction continuation comes in the same tick; if neither it nor the barrier response arrives within this, the prompt is settled. Long enough for a loaded 2-core machine, short enough to stay unnoticed. */
export const PI_SETTLE_GRACE_MS = 500;

/** One line of a host transcript (Codex rollout, Claude JSONL): room for an inlined screenshot; a longer line fails the session instead of growing the parser's memory without bound. */
export const TRANSCRIPT_LINE_MAX_BYTES = 16 * 1024 * 1024;

/** Bytes a transcript reader asks the OS for at a time: big enough to amortise syscalls and JSON framing, small enough to keep a parse far below the memory budget. */
export const TRANSCRIPT_READ_CHUNK_BYTES = 1024 * 1024;

/** Orderly stop: how long a busy agent gets to finish its abort before stdin is closed. */
export const PI_STOP_SETTLE_MS = 5_000;

/** Orderly stop: how long pi gets to exit after stdin EOF (it exits at once) before SIGTERM, then SIGKILL. */
export const PI_STOP_EXIT_MS = 3_000;

/** A child that never answers the prompt at all (not even "accepted") is given up after this. */
export const PI_ACCEPT_TIMEOUT_MS = 30_000;

// ---- host capture: hooks, inbox, drain, recovery ----

/** Transcript bytes one hook may copy into its envelope: a long turn fits; anything larger is an explicit over-limit envelope, never a truncated one, and keeps the hook inside host deadlines. */
export const HOOK_TAIL_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A kept tail is stored in rows of at most this many bytes. Why not one blob: reading an 8 MiB
 * blob makes SQLite and better-sqlite3 each allocate it whole, and fresh multi-MiB allocations
 * page-fault on every use (measured: ~150 MB/s for 8 MiB blobs against ~450-800 MB/s for 256 KiB
 * rows); rows this size are served from reused heap memory, and the drain parses them one at a time.
 */
export const HOOK_TAIL_CHUNK_BYTES = 256 * 1024;

/** Body capacity of one capture session (seed 002 sessionCache default maxSessionBytes): conservative, no empirical sizing behind it. */
export const SESSION_BODY_MAX_BYTES = 8 * 1024 * 1024;

/** Body capacity of the whole capture store (seed 002 maxTotalBytes): pending tails + candidates + session bodies. */
export const TOTAL_BODY_MAX_BYTES = 64 * 1024 * 1024;

/** Tests and benchmarks may raise or lower the capacity with "<session>:<total>" bytes; unset in normal use. */
export const CAPACITY_ENV = 'COMMON_MEMORY_CAPACITY_BYTES';

/** One transcript file an import reads: a larger file (a 2 GB log gone wrong) is refused whole with an over-limit record, never read in part. */
export const IMPORT_FILE_MAX_BYTES = 512 * 1024 * 1024;

/** Transcript bytes an import parses before it commits them as one step: a kill loses at most this much work, and the writer's lock is held briefly. */
export const IMPORT_STEP_BYTES = 4 * 1024 * 1024;

/**
 * Import steps sent to the writer and not yet answered, from one file or the next: the parse waits
 * for the step before the one it just sent, never for that one. With one in flight, and a file's
 * first step waiting for the file before it, each thread waited for the other 15–35 % of the time
 * (docs/benchmarks.md). Each step in flight holds at most IMPORT_STEP_BYTES of transcript.
 */
export const IMPORT_STEPS_IN_FLIGHT = 2;

/**
 * A Claude Code transcript not written for this long is at rest: its open last turn, ended on the
 * model's answer, is imported as settled (Claude records no end of a turn when no Stop hook ran).
 */
export const IMPORT_REST_MS = 10 * 60 * 1000;

/** Bytes of a transcript's start read for its recorded working directory (Codex: line 0; Claude: the first lines that carry one). */
export const IMPORT_HEADER_BYTES = 256 * 1024;

/** Envelopes one drain step takes from an activation: one transaction stays short so a hook never waits past its deadline. */
export const DRAIN_STEP_MAX_ENVELOPES = 64;

/**
 * Tail bytes one drain step takes (at least one envelope, so an envelope of HOOK_TAIL_MAX_BYTES is
 * a step of its own): bounds the drain's memory whatever the transcript size. While the writer
 * applies one step, the next waits in its queue and the drain plans the one after, so three steps
 * are in memory at once (the host's peak RSS target is 200 MB). Measured on the 100 MB bench: 4 MiB peaks about 20 MB below 8 MiB, at the
 * same throughput.
 */
export const DRAIN_STEP_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Tail bytes the first step of a run takes: nothing overlaps the planning of a run's first step
 * (the writer idles until it arrives), so a small one starts the writer sooner; the steps after it
 * are planned while the one before is applied.
 */
export const DRAIN_FIRST_STEP_MAX_BYTES = 1024 * 1024;

/**
 * Young generation of the drain thread's heap. Parsing allocates fast and almost all of it dies at
 * once (one object per transcript line); V8 would grow the young generation to tens of MB and keep
 * it resident. Measured on the 100 MB bench: 6 MB adds ~0.1 s of scavenges; 16 MB took them from 145
 * to 53 but moved the drain's wall time no more than the noise (docs/benchmarks.md), while it adds
 * about 15 MB to the host's peak RSS, whose target is 200 MB.
 */
export const DRAIN_YOUNG_GENERATION_MB = 6;

/** How often an idle host drain looks for new envelopes: a hook's event is sealed within a second, and an idle host does almost nothing. */
export const DRAIN_POLL_MS = 300;

/** Recovery items per status page (PRODUCT.md: at most 20). */
export const RECOVERY_PAGE_SIZE = 20;

/** Sessions listed by status: newest first; the total is always reported. */
export const STATUS_SESSIONS_MAX = 50;

/** Host timeout (s) written for common-memory's hooks: a hook commits in ~0.1 s; this covers a loaded machine plus a full busy wait, and bounds how long a hung common-memory can hold up the user's agent. */
export const HOOK_TIMEOUT_SEC = 10;

/**
 * Of a hook's deadline, what it keeps after its wait for the write lock: the commit itself (a
 * durable fsync) and the reply, on a loaded machine.
 */
export const HOOK_REPLY_MARGIN_MS = 300;

/** The shortest wait for the write lock a hook allows itself, even past its deadline (hook/busy-wait.ts). */
export const HOOK_LOCK_WAIT_MIN_MS = 500;

/**
 * A hook whose wait ran into its host's deadline quarantines the event (what survives the host
 * stopping it), then, if it is still running, waits this much longer and resolves the quarantine
 * by committing (hook/main.ts). Only a host that did not stop it at its deadline is held this long:
 * as long as the longest deadline `install` writes (HOOK_TIMEOUT_SEC), which covers the longest
 * lock queue measured at twice the documented concurrency on a loaded 2-core machine (a few s).
 */
export const HOOK_LATE_LOCK_WAIT_MS = HOOK_TIMEOUT_SEC * 1000;

/**
 * The writer thread's busy timeout: hooks take the write lock between its transactions, and it has
 * no host deadline to meet, so it waits them out rather than failing a step.
 */
export const WRITER_BUSY_TIMEOUT_MS = 10_000;

/**
 * WAL pages after which the writer's commit checkpoints core.sqlite (SQLite's default is 1,000).
 * Each checkpoint copies the WAL into the database and syncs both files: at 1,000 pages a drain or
 * an import checkpointed every step or two. In a replay of the 100 MB drain, 4,096 and 16,384
 * pages cut the writer's time in its steps by about a quarter and a third (docs/benchmarks.md).
 * Commits still sync the WAL (synchronous = FULL), so nothing committed is less durable; the WAL
 * grows to about 32 MiB before it is reused.
 */
export const WRITER_WAL_AUTOCHECKPOINT_PAGES = 8192;

/**
 * While a hook waits for the write lock (ground/lock-waiters.ts), the drain looks again this often
 * before its next step.
 */
export const DRAIN_STEP_ASIDE_POLL_MS = 5;

/**
 * The longest the drain steps aside before it takes one more step whoever still waits. SQLite's
 * busy handler sleeps at most 100 ms between a hook's tries, so every waiting hook tries at least
 * twice in a pause; a burst of hooks larger than a pause can serve still lets the drain go on.
 */
export const DRAIN_STEP_ASIDE_MAX_MS = 250;

/**
 * A hook's notice that it waits counts for no more than the longest a hook lives: its longest
 * deadline and then the late wait of keepLate. Older, its process was stopped without withdrawing it.
 */
export const LOCK_WAITER_STALE_MS = HOOK_TIMEOUT_SEC * 1000 + HOOK_LATE_LOCK_WAIT_MS + 5000;

/** Codex clamps SessionEnd and Interrupt hooks to 3 s and warns when asked for more, so we ask for exactly that. */
export const CODEX_CLAMPED_HOOK_TIMEOUT_SEC = 3;

/** Claude's SessionEnd default of 1.5 s can be overrun by a node start on a loaded 2-core machine; a per-hook timeout lifts it, and it delays exit only while our hook runs. */
export const CLAUDE_SESSION_END_TIMEOUT_SEC = 5;

/**
 * A client config file `install` reads (settings.json, .claude.json, hooks.json, config.toml): real ones are a few
 * KiB (a long-used .claude.json a few MiB of project history); a larger one is refused before it is read (a
 * 100 MB settings.json took 86 s and 2.7 GB), and nothing is written.
 */
export const CONFIG_FILE_MAX_BYTES = 16 * 1024 * 1024;

// ---- memory files (canonical Markdown entries, promotion, approved projection) ----

/** Candidates in one review page: a screenful by default, and a page whose masked findings stay a small reply at most. */
export const REVIEW_PAGE_DEFAULT = 50;
export const REVIEW_PAGE_MAX = 200;

/** One entry file: a note a person reviews in a diff and a model reads at session start; 64 KiB is a long document. A larger file is refused, never truncated. */
export const MEMORY_ENTRY_MAX_BYTES = 64 * 1024;

/** A slug (`<type>/<slug>.md`): readable in a diff and a file list, far below every filesystem's 255-byte name limit. */
export const MEMORY_SLUG_MAX_CHARS = 80;

/** An entry id is an identity, not a document (as OPERATION_ID_MAX_CHARS). */
export const MEMORY_ENTRY_ID_MAX_CHARS = 128;

/** A title is one line a person scans in a list. */
export const MEMORY_TITLE_MAX_CHARS = 200;

/** `appliesWhen` says when an entry matters in a sentence or two. */
export const MEMORY_APPLIES_WHEN_MAX_CHARS = 500;

/** Entry files one memory root may hold: a scan keeps every entry's bytes in memory (at most ~6 MB of metadata at this count for typical entries); a larger root is reported as partial, never read without bound. */
export const MEMORY_ROOT_MAX_FILES = 100_000;

/** The SessionStart memory snapshot: about 2k tokens, a small fraction of any model's context, room for a dozen or more entries' headlines. */
export const MEMORY_SNAPSHOT_MAX_BYTES = 8 * 1024;

/** Body lines of each entry shown in the snapshot; the rest is one `get` away. */
export const MEMORY_SNAPSHOT_BODY_LINES = 3;

/** Characters of one displayed line in the snapshot (title, appliesWhen, body line). */
export const MEMORY_SNAPSHOT_LINE_MAX_CHARS = 240;

/**
 * How long the SessionStart hook (and a refresh) may spend bringing the approved projection up to
 * date with changed memory files — reading and linting the changed files and waiting for
 * memory-state's write lock — before it answers with the previous projection marked `coverage:
 * partial`. The lint's first use in a process costs about 0.1–0.3 s (loading it and compiling its
 * expressions; more on a loaded machine), then each file about a millisecond: a pull that touches
 * tens of entries fits with room to spare, a fresh clone of a few thousand is left to memory sync.
 * Well inside the hook's own deadline (HOOK_TIMEOUT_SEC).
 */
export const MEMORY_FOLLOW_HOOK_BUDGET_MS = 3_000;

/**
 * Up to this many entry files in a root, the hook checks each file's stamp at every session start
 * (about a millisecond per thousand); above it, it checks the directories' stamps only, which every
 * added, removed or renamed file changes, and leaves a write into an existing file to the reads
 * and the host's watcher (approved-follow.ts).
 */
export const MEMORY_FOLLOW_HOOK_FILE_STAMPS_MAX = 1_000;

/** The same bound for `get`, `memory search` and the MCP reads, which no host deadline presses. */
export const MEMORY_FOLLOW_READ_BUDGET_MS = 5_000;

/**
 * A file whose modification time is this close to (or after) the previous scan may have changed
 * within the filesystem's timestamp granularity without its size or mtime changing ("racily
 * clean", as git calls it), so the unchanged-tree short circuit re-reads it.
 */
export const MEMORY_SCAN_RACY_MS = 2_000;

/**
 * How long a starting host, or a command, waits for a one-shot command that holds the lease. A read
 * holds it for tens of milliseconds, but an extraction, an import or a sync holds it for its whole
 * run: seconds on a loaded machine (3 s made a script's second `memory extract` fail beside the first).
 */
export const HOST_LEASE_LOCAL_WAIT_MS = 10_000;

/**
 * How long a command waits for a host that holds the lease but does not serve yet (it migrates the
 * store, starts its threads): a start takes a second or two on a loaded 2-core machine, and this
 * covers a slow one without leaving a command hanging behind a migration of a large store.
 */
export const HOST_START_WAIT_MS = 10_000;

/** How often a command waiting for a starting host reads host.json again: unnoticeable, and idle for the host. */
export const HOST_START_POLL_MS = 50;

/** A typed ID prefix shorter than this matches too much to be worth a lookup (and is usually a typing mistake). */
export const ID_PREFIX_MIN = 4;

// ---- the memory half ----

/** A session-search query as typed: a question or a few words; a pasted document is refused, not cut. */
export const SEARCH_QUERY_MAX_CHARS = 4096;

/** How often a host looks for newly sealed turns to extract: soon enough to feel automatic, rare enough to cost nothing idle. */
export const AUTO_EXTRACT_POLL_MS = 2_000;

/** Automatic extraction reads turns sealed at least this long ago: a seal whose transaction began earlier may still be committing. */
export const AUTO_EXTRACT_GRACE_MS = 2_000;

/** Set to "off" (or 0) to stop a host from extracting newly sealed turns by itself. */
export const AUTO_EXTRACT_ENV = 'COMMON_MEMORY_AUTO_EXTRACT';

/** An MCP `memory_search` query: a few words an agent types, not a document; the API's own 4096-character bound is
 * for people. Larger is refused with a structured error, never cut (a cut query would search for something else). */
export const MCP_QUERY_MAX_CHARS = 1024;

/** A pi model id (`provider/id`) as `agent create --model` takes it: pi's own names are a few dozen characters. A
 * longer one is a paste gone wrong, refused before it is stored and shown on every `agent list` line. */
export const AGENT_MODEL_MAX_CHARS = 256;

/** Input a caller sent (an id, a tool name) quoted back in an error message: enough to recognise it; a message
 * never grows with what a hostile caller sends (a 100 KB id was echoed whole). The full length is said instead. */
export const ECHO_INPUT_MAX_CHARS = 80;

/** An MCP error message written to the client: a message that quotes input (a method, an internal error) is cut here. */
export const MCP_ERROR_MESSAGE_MAX_CHARS = 1024;

/** One JSON-RPC line an MCP client sends: a proposal is a few KiB; a longer line is answered with an error and
 * dropped as it arrives, so the server never holds more than this of one line. */
export const MCP_LINE_MAX_BYTES = 1024 * 1024;

/** An MCP `memory_propose` text (UTF-8 bytes): one memory is a few sentences; a person reviews every proposal, so it
 * stays readable. Over a cap the proposal is refused with a structured error, never cut. */
export const MCP_PROPOSAL_MAX_BYTES = 4096;

/** A proposal's title and appliesWhen (UTF-8 bytes): display lines; the same caps as the read ledger's, so an entry
 * promoted from a proposal can always be recorded when an agent reads it. */
export const MCP_PROPOSAL_TITLE_MAX_BYTES = 512;
export const MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES = 512;

// The read ledger (what a root agent read, hinted to its subagents). The numbers are starting
// points to calibrate against real use: each bounds one thing a hook must read or a hint must say.

/** Entries remembered per root conversation: a hint lists them all, so this bounds the hint (about 100 bytes each). */
export const LEDGER_ENTRIES_PER_ROOT = 64;

/** Versions (content digests) kept per entry id: the one read before an edit and the one after, never a history. */
export const LEDGER_DIGESTS_PER_ID = 2;

/** Root conversations kept in all: a week of busy use; the least recently seen beyond this are dropped. */
export const LEDGER_ROOTS_MAX = 256;

/** A root not seen for this long is expired (swept lazily by the next write): no end event is relied on. */
export const LEDGER_IDLE_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

/** Per-field caps of a record (UTF-8 bytes): ids and titles are display lines, not documents. Over a cap the
 * read is skipped with a reason, never truncated into a record of something that was not read. */
export const LEDGER_ID_MAX_BYTES = 256;
export const LEDGER_TITLE_MAX_BYTES = 512;
export const LEDGER_APPLIES_WHEN_MAX_BYTES = 512;
export const LEDGER_SOURCES_MAX_BYTES = 4096;

/** Turns remembered per root (which generation each began in): enough for a late tool event of a recent turn. */
export const LEDGER_TURNS_PER_ROOT = 64;

/** How long a hook waits for the ledger's write lock: a hint is worth little next to the user's turn. */
export const LEDGER_BUSY_TIMEOUT_MS = 250;

/** Automatic attempts of one task before it waits for `memory retry` (seed 002's recovery budget). */
export const TASK_ATTEMPTS_MAX = 5;
/** `memory suggestions`: an entry neither read nor re-taught for this many days is named (--days changes it). */
export const USAGE_SUGGEST_DAYS_DEFAULT = 90;
/** The most days --days takes: ten years, far past any memory-state's age. */
export const USAGE_SUGGEST_DAYS_MAX = 3650;
/** `memory status` lists at most this many most re-taught entries per scope. */
export const USAGE_TOP_RETAUGHT = 5;
/**
 * One collection commit folds at most this many activations' snapshots (or ledger reads): about 0.3 s
 * of the writer on a loaded 2-core machine with 20 entries a snapshot; a backlog goes on in next commits.
 */
export const USAGE_COLLECT_BATCH = 2_000;
/** An activation younger than this whose snapshot is not stored yet holds the collector back: its SessionStart may still come. */
export const USAGE_SNAPSHOT_SETTLE_MS = 10 * 60 * 1000;

/** A skill's name (its folder's name too): Codex 0.171.0 refuses a longer `name` ("exceeds maximum length of 64 characters"); Claude Code 2.1.332 ignores one over 256. docs/agents.md, Skills. */
export const SKILL_NAME_MAX_CHARS = 64;

/** A skill's description: Codex 0.171.0 cuts its listing of a skill at 1024 characters (Claude Code 2.1.332 at 1536), so a longer one would reach the model cut. */
export const SKILL_DESCRIPTION_MAX_CHARS = 1024;

/** A SKILL.md: Claude Code 2.1.332 skips a larger one (1 MB); a skill folder found larger than this is never ours. */
export const SKILL_FILE_MAX_BYTES = 1_000_000;
