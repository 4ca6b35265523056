// The memory area's views: the review queue and proposals, recall, the approved projection
// (sync, search, entries) and the human gate's results (confirm, discard, plans, promote).
import { z } from 'zod';

/**
 * Which candidates a review lists: `all` (the default) the user scope's and every repository's;
 * `user` the user scope's; `project` the caller's repository's; `here` the caller's own scope (its
 * repository, or the user scope outside git) — the one confirm, discard and prepare act on.
 */
export const reviewScope = z.enum(['all', 'user', 'project', 'here']);
export type MemoryReviewScope = z.infer<typeof reviewScope>;

export interface MemoryFindingView {
  field: string;
  line: number;
  column: number;
  rule: string;
  severity: 'block' | 'warn';
  excerpt: string;
}

export interface MemoryReviewCandidate {
  candidateId: string;
  status: 'draft' | 'quarantined';
  adjudication: 'pending' | 'done' | 'failed';
  decision: string | null;
  /** Masked wherever a finding is. */
  content: string;
  /** A proposal's own title (masked like content); null for an extraction draft (its first line is the title). */
  title: string | null;
  type: string;
  priority: number;
  confidence: string;
  /** The signals that made the runner draft it ("imperative", "scope", "-now" counted against); empty when it gave none. */
  signals?: string[];
  statements: Array<{
    statementId: string;
    text: string;
    evidence: Array<{ evidenceId: string; client: string; sessionKey: string; turnKey: string }>;
    claimSupport: string;
  }>;
  findings: MemoryFindingView[];
  createdAt: string;
  /** Where it came from: a runner's extraction from captured turns, or an agent's memory_propose. */
  origin: MemoryCandidateOrigin;
  /** The scope it belongs to: a repository's (`project`) or the user scope. */
  scope: 'project' | 'user';
  repositoryKey: string;
  /** The name of its worktree's directory (never a path); null for the user scope or an unknown binding. */
  repository: string | null;
  /**
   * The lines it would give in the SessionStart snapshot once promoted (masked like content), hidden
   * characters written as ⟨U+XXXX⟩: what the model will read. Absent from a host older than this field.
   */
  snapshot?: string;
}

export type MemoryCandidateOrigin =
  | { kind: 'extraction' }
  | {
      kind: 'proposal';
      /** The client as it named itself to the MCP server (e.g. "claude-code", "codex-mcp-client"). */
      client: string;
      clientVersion: string | null;
      /** SHA-256 of the proposing conversation's reference; null when the client gave none. */
      conversation: string | null;
    };

export interface MemoryProposeResult {
  candidateId: string;
  status: 'draft' | 'quarantined';
  created: boolean;
  /** Rules of the blocking secret findings that quarantined it (never the secret). */
  blockedBy: string[];
}

export interface MemoryReview {
  /** The filter the page was read with. */
  scope: MemoryReviewScope;
  /** The scope of the caller's directory (`project` inside a git worktree) and its repository key. */
  callerScope: 'project' | 'user';
  repositoryKey: string;
  /** Newest first. */
  candidates: MemoryReviewCandidate[];
  /** Draft and quarantined candidates the filter matches, on every page. */
  total: number;
  /** Give it as `after` (`--after`) for the next, older page; null on the last page. */
  nextAfter: string | null;
}

export interface MemoryRecallResult {
  recallQueryDigest: string;
  resultSetDigest: string;
  items: Array<{ rank: number; sourceKind: string; id: string }>;
}

// ---- the memory half: the approved projection ----

export interface MemoryProblemView {
  scope: 'project' | 'user';
  kind: string;
  /** Relative to the scope's memory root. */
  path: string;
  line: number | null;
  message: string;
}

/** One owner of approved memory as the projection knows it. */
export interface MemoryScopeView {
  scope: 'project' | 'user';
  generation: number;
  coverage: 'complete' | 'partial';
  entries: number;
}

export interface MemorySyncResult {
  /** The sum of the scopes' generations: it grows whenever either scope's projection changes. */
  generation: number;
  /** partial when any scope's last scan was partial (its previous projection is kept). */
  coverage: 'complete' | 'partial';
  entries: number;
  problems: MemoryProblemView[];
  scopes: Array<MemoryScopeView & { outcome: 'replaced' | 'unchanged' | 'partial' }>;
}

export interface MemorySearchResult {
  generation: number;
  coverage: 'complete' | 'partial';
  results: Array<{ entryId: string; title: string; scope: 'project' | 'user'; path: string }>;
  scopes: MemoryScopeView[];
}

export interface MemoryEntryView {
  id: string;
  title: string;
  appliesWhen: string | null;
  /** sha256 of the file's bytes. */
  contentDigest: string;
  sources: Array<{ scope: 'project' | 'user'; path: string }>;
  body: string;
  type: string;
  priority: number;
}

// ---- the memory half: the human gate (confirm, discard, prepare, approve, promote) ----

export interface MemoryConfirmResult {
  candidateId: string;
  statementId: string;
  claimSupport: 'human-confirmed';
  /** The assessment's revision after the confirmation. */
  revision: number;
  /** The statement was confirmed already: nothing changed. */
  replayed: boolean;
}

export interface MemoryDiscardResult {
  candidateId: string;
  status: 'discarded';
  revision: number;
  /** The candidate was discarded already: nothing changed. */
  replayed: boolean;
}

export type MemoryPlanStatus = 'generated' | 'approved' | 'applying' | 'applied' | 'voided';

export interface MemoryPlanFileView {
  /** Relative to the scope's memory root. */
  path: string;
  entryId: string;
  action: 'create' | 'update';
  candidateIds: string[];
  /** The target's git blob OID when the plan was made; null for a new file. */
  targetBlobHash: string | null;
  /** sha256 of the exact bytes approval binds. */
  sanitizedContentDigest: string;
  bytes: number;
  /** pending until promote reaches it; skipped: it already held the approved bytes; drifted: it changed since prepare. */
  state: 'pending' | 'written' | 'skipped' | 'drifted';
  /** Lint findings below `block` in these bytes (masked). */
  findings: Array<{ line: number; column: number; rule: string; severity: 'block' | 'warn'; excerpt: string }>;
}

export interface MemoryPlanView {
  planId: string;
  planDigest: string;
  status: MemoryPlanStatus;
  scope: 'project' | 'user';
  candidates: Array<{ candidateId: string; revision: number }>;
  files: MemoryPlanFileView[];
  /** Unified diff of every target, before → after. */
  diff: string;
  /** Why a voided plan was voided (a drifted target, a candidate that changed). */
  voidReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type MemoryPromoteResult = MemoryPlanView & {
  /** The approved projection after promotion (promote runs sync). */
  sync: { generation: number; coverage: 'complete' | 'partial'; entries: number } | null;
};
