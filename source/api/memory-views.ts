// The memory area's views: the review queue and proposals, recall, the approved projection
// (sync, search, entries) and the human gate's results (confirm, discard, plans, promote).
import { z } from 'zod';
import { entryUsageSchema } from './memory-usage.js';
import { nullableText, projectOrUser } from './common-schemas.js';
import { pendingAuthorizationSchema } from './memory-runs.js';

/**
 * Which candidates a review lists: `all` (the default) the user scope's and every repository's;
 * `user` the user scope's; `project` the caller's repository's; `here` the caller's own scope (its
 * repository, or the user scope outside git) — the one confirm, discard and prepare act on.
 */
export const reviewScope = z.enum(['all', 'user', 'project', 'here']);
export type MemoryReviewScope = z.infer<typeof reviewScope>;

const severity = z.enum(['block', 'warn']);
const coverage = z.enum(['complete', 'partial']);

export const memoryFindingViewSchema = z.strictObject({
  field: z.string(),
  line: z.number(),
  column: z.number(),
  rule: z.string(),
  severity,
  excerpt: z.string(),
  /** The disguise the lint read through (`base64`, `nfkc`, …): the excerpt is of the decoded text. */
  transform: z.string().optional(),
});
export type MemoryFindingView = z.infer<typeof memoryFindingViewSchema>;

export const memoryCandidateOriginSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('extraction') }),
  z.strictObject({
    kind: z.literal('proposal'),
    /** The client as it named itself to the MCP server (e.g. "claude-code", "codex-mcp-client"). */
    client: z.string(),
    clientVersion: nullableText,
    /** SHA-256 of the proposing conversation's reference; null when the client gave none. */
    conversation: nullableText,
  }),
]);
export type MemoryCandidateOrigin = z.infer<typeof memoryCandidateOriginSchema>;

export const memoryReviewCandidateSchema = z.strictObject({
  candidateId: z.string(),
  status: z.enum(['draft', 'quarantined']),
  adjudication: z.enum(['pending', 'done', 'failed']),
  decision: nullableText,
  /** Masked wherever a finding is. */
  content: z.string(),
  /** A proposal's own title (masked like content); null for an extraction draft (its first line is the title). */
  title: nullableText,
  type: z.string(),
  priority: z.number(),
  confidence: z.string(),
  /** The signals that made the runner draft it ("imperative", "scope", "-now" counted against); empty when it gave none. */
  signals: z.array(z.string()).optional(),
  statements: z.array(
    z.strictObject({
      statementId: z.string(),
      text: z.string(),
      evidence: z.array(
        z.strictObject({ evidenceId: z.string(), client: z.string(), sessionKey: z.string(), turnKey: z.string() }),
      ),
      claimSupport: z.string(),
    }),
  ),
  findings: z.array(memoryFindingViewSchema),
  createdAt: z.string(),
  /** Where it came from: a runner's extraction from captured turns, or an agent's memory_propose. */
  origin: memoryCandidateOriginSchema,
  /** The scope it belongs to: a repository's (`project`) or the user scope. */
  scope: projectOrUser,
  repositoryKey: z.string(),
  /** The name of its worktree's directory (never a path); null for the user scope or an unknown binding. */
  repository: nullableText,
  /**
   * The lines it would give in the SessionStart snapshot once promoted (masked like content), hidden
   * characters written as ⟨U+XXXX⟩: what the model will read. Absent from a host older than this field.
   */
  snapshot: z.string().optional(),
  /**
   * Approved entries this candidate says again (the dedup at extraction found it repeats them): each
   * is an entry that did not do its job — given and not followed, or not given. Absent: none.
   */
  reteaches: z.array(z.string()).optional(),
});
export type MemoryReviewCandidate = z.infer<typeof memoryReviewCandidateSchema>;

export const memoryProposeResultSchema = z.strictObject({
  candidateId: z.string(),
  status: z.enum(['draft', 'quarantined']),
  created: z.boolean(),
  /** Rules of the blocking secret findings that quarantined it (never the secret). */
  blockedBy: z.array(z.string()),
});
export type MemoryProposeResult = z.infer<typeof memoryProposeResultSchema>;

/** One operation of a consolidation patch as a reviewer reads it (source/memory/consolidation/patch.ts). */
export const consolidationOperationViewSchema = z.strictObject({
  op: z.enum(['create', 'update', 'merge', 'delete', 'retire']),
  target: z.enum(['scene', 'doctrine', 'entry']),
  name: z.string(),
  newContent: nullableText,
  /** The entries it rests on, at the revision the task saw. */
  basedOn: z.array(z.strictObject({ entryId: z.string(), revision: z.number() })),
  mergeSources: z.array(z.string()),
  supersededBy: nullableText,
  reason: z.string(),
});
export type ConsolidationOperationView = z.infer<typeof consolidationOperationViewSchema>;

/** A consolidation patch (in review: one waiting item), all its operations. */
export const consolidationReviewSchema = z.strictObject({
  taskId: z.string(),
  scope: projectOrUser,
  repositoryKey: z.string(),
  runner: z.string(),
  createdAt: z.string(),
  /** pending: waiting for review; prepared: a plan was made from it (planId); applied: that plan was promoted. */
  status: z.enum(['pending', 'discarded', 'prepared', 'applied']),
  /** The plan last prepared from this patch (its plan's `consolidation.taskId` names the patch back). */
  planId: nullableText,
  operations: z.array(consolidationOperationViewSchema),
});
export type ConsolidationReview = z.infer<typeof consolidationReviewSchema>;

/** What `memory consolidate` did: the task it made (or found), and its patch once accepted. */
export const memoryConsolidateResultSchema = z.strictObject({
  taskId: z.string(),
  scope: projectOrUser,
  repositoryKey: z.string(),
  runner: z.string(),
  /** Approved entries the task covers. */
  entries: z.number(),
  /**
   * accepted: the patch waits in the review queue; unchanged: the same entries were consolidated
   * before; stale: refused; pending: a preview made the task, which `memory consolidate` runs, or
   * an external runner's plan awaits approval (`pendingPlan`); rejected: the runner failed or its
   * patch was refused (`reason`), nothing kept.
   */
  outcome: z.enum(['accepted', 'unchanged', 'stale', 'pending', 'rejected']),
  reason: nullableText,
  /** Files of the memory root that could not be read as entries or scenes: consolidated as if absent. */
  problems: z.array(z.string()),
  patch: consolidationReviewSchema.nullable(),
  /** An external runner's plan: the exact bytes it would be sent, to approve by digest first. */
  pendingPlan: pendingAuthorizationSchema.nullable(),
  /** Operations left out of the patch for a blocking secret or poisoning finding in their text. */
  blocked: z.number(),
  /** The memory lint's findings in the patch's texts (masked), blocking and warnings. */
  findings: z.array(
    z.strictObject({
      operation: z.string(),
      field: z.enum(['file', 'reason']),
      line: z.number(),
      column: z.number(),
      rule: z.string(),
      severity: z.enum(['block', 'warn']),
      excerpt: z.string(),
      transform: z.string().optional(),
    }),
  ),
});
export type MemoryConsolidateResult = z.infer<typeof memoryConsolidateResultSchema>;

/**
 * A consolidation that proposed nothing: its patch of no operation answers the task but is not kept
 * (nothing to review, no id handed out). A stale refusal says so instead.
 */
export const proposedNothing = (result: MemoryConsolidateResult): boolean =>
  result.patch?.operations.length === 0 && result.outcome !== 'stale';

export const memoryReviewSchema = z.strictObject({
  /** The filter the page was read with. */
  scope: reviewScope,
  /** The scope of the caller's directory (`project` inside a git worktree) and its repository key. */
  callerScope: projectOrUser,
  repositoryKey: z.string(),
  /** Newest first. */
  candidates: z.array(memoryReviewCandidateSchema),
  /** Draft and quarantined candidates the filter matches, on every page. */
  total: z.number(),
  /** Give it as `after` (`--after`) for the next, older page; null on the last page. */
  nextAfter: nullableText,
  /** Consolidation patches waiting for review, newest first (on the first page only). */
  patches: z.array(consolidationReviewSchema),
});
export type MemoryReview = z.infer<typeof memoryReviewSchema>;

export const memoryRecallResultSchema = z.strictObject({
  recallQueryDigest: z.string(),
  resultSetDigest: z.string(),
  items: z.array(z.strictObject({ rank: z.number(), sourceKind: z.string(), id: z.string() })),
});
export type MemoryRecallResult = z.infer<typeof memoryRecallResultSchema>;

// ---- the memory half: the approved projection ----

export const memoryProblemViewSchema = z.strictObject({
  scope: projectOrUser,
  kind: z.string(),
  /** Relative to the scope's memory root. */
  path: z.string(),
  line: z.number().nullable(),
  message: z.string(),
  /** `blocked`: the memory lint's rule that keeps the scene or doctrine file out (e.g. `github-token`). */
  rule: z.string().optional(),
});
export type MemoryProblemView = z.infer<typeof memoryProblemViewSchema>;

/** One owner of approved memory as the projection knows it. */
const memoryScopeFields = { scope: projectOrUser, generation: z.number(), coverage, entries: z.number() };
export const memoryScopeViewSchema = z.strictObject(memoryScopeFields);
export type MemoryScopeView = z.infer<typeof memoryScopeViewSchema>;

/** One verification run of a worktree's entries: how many were verified and how many are stale. */
export const memoryAnchorRunSchema = z.strictObject({
  state: z.enum(['verified', 'skipped', 'failed']),
  entries: z.number(),
  stale: z.number(),
  reason: nullableText,
});
export type MemoryAnchorRun = z.infer<typeof memoryAnchorRunSchema>;

/** A failed anchor of a stale entry: the claim as a person reads it, and why it no longer holds. */
const failedAnchorSchema = z.strictObject({ anchor: z.string(), reason: z.string() });

export const memorySyncResultSchema = z.strictObject({
  /** The sum of the scopes' generations: it grows whenever either scope's projection changes. */
  generation: z.number(),
  /** partial when any scope's last scan was partial (its previous projection is kept). */
  coverage,
  entries: z.number(),
  problems: z.array(memoryProblemViewSchema),
  scopes: z.array(z.strictObject({ ...memoryScopeFields, outcome: z.enum(['replaced', 'unchanged', 'partial']) })),
  /**
   * The verification of the worktree's entries against the tree that followed the sync
   * (docs/memory-staleness.md): skipped outside git; failed with the reason (the sync stands).
   * Absent from a host older than this field.
   */
  anchors: memoryAnchorRunSchema.optional(),
});
export type MemorySyncResult = z.infer<typeof memorySyncResultSchema>;

export const memorySearchResultSchema = z.strictObject({
  generation: z.number(),
  coverage,
  /** When coverage is partial because the projection could not be brought up to date with the files now: why. */
  reason: z.string().optional(),
  /**
   * When that reason is a promotion plan stopped part-way through the files: its id
   * (`memory promote <id>` finishes it). Absent from a host older than this field.
   */
  unfinishedPlan: z.string().optional(),
  /** Stale entries (an anchor no longer holds) come last, marked `stale: true` with the first failed anchor's note. */
  results: z.array(
    z.strictObject({
      entryId: z.string(),
      title: z.string(),
      scope: projectOrUser,
      path: z.string(),
      stale: z.boolean().optional(),
      staleNote: z.string().optional(),
      /**
       * A scene (a group of entries, `scenes/<name>.md`) or a doctrine (a principle citing entries,
       * `doctrine/<name>.md`), read with get like an entry; absent for an entry. A doctrine whose
       * basis changed is `stale`, its `staleNote` the first change.
       */
      kind: z.enum(['scene', 'doctrine']).optional(),
      /** A scene's approved entries; the entries a doctrine cites. */
      entries: z.number().optional(),
    }),
  ),
  scopes: z.array(memoryScopeViewSchema),
});
export type MemorySearchResult = z.infer<typeof memorySearchResultSchema>;

/** The stale entries of the caller's worktree, for the Memory screen: each with its failed anchors. */
export const memoryStaleResultSchema = z.strictObject({
  /** unavailable: the verdicts cannot be read (the reason says why) — never "everything is stale". */
  state: z.enum(['verified', 'unverified', 'unavailable']),
  reason: nullableText,
  /** Stale entries in all; `entries` holds the first of them by id. */
  total: z.number(),
  entries: z.array(
    z.strictObject({
      entryId: z.string(),
      title: z.string(),
      scope: projectOrUser,
      path: z.string(),
      failedAnchors: z.array(failedAnchorSchema),
      verifiedAt: z.string(),
    }),
  ),
});
export type MemoryStaleResult = z.infer<typeof memoryStaleResultSchema>;

export const memoryEntryViewSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  appliesWhen: nullableText,
  /** sha256 of the file's bytes. */
  contentDigest: z.string(),
  sources: z.array(z.strictObject({ scope: projectOrUser, path: z.string() })),
  body: z.string(),
  type: z.string(),
  priority: z.number(),
  /**
   * What the last verification of its anchors said about this text of the entry: stale (an anchor
   * no longer holds: failedAnchors says which), fresh, unknown (none could be checked), unverified
   * (no verdict for this text yet) or unavailable (the verdicts cannot be read). Absent from a host
   * older than these fields.
   */
  verification: z.enum(['fresh', 'stale', 'unknown', 'unverified', 'unavailable']).optional(),
  stale: z.boolean().optional(),
  failedAnchors: z.array(failedAnchorSchema).optional(),
  /** Given, read and re-taught counts of this entry on this machine (absent from a host older than them). */
  usage: entryUsageSchema.optional(),
  /** A scene read by its id (`scene:<name>`, type "scene"): its entries; `body` is its summary and them. */
  scene: z
    .strictObject({
      name: z.string(),
      entries: z.array(
        z.strictObject({
          entryId: z.string(),
          title: z.string(),
          appliesWhen: nullableText,
          /** Absent past the bound on a scene's bodies: read the entry by its id. */
          body: z.string().optional(),
          /** The last verification found this entry stale (absent when fresh or unverified). */
          stale: z.literal(true).optional(),
          staleNote: z.string().optional(),
        }),
      ),
      /** Ids the scene names that are not approved entries of its scope. */
      missing: z.array(z.string()),
      bodiesLeftOut: z.number(),
    })
    .optional(),
  /**
   * A doctrine read by its id (`doctrine:<name>`, type "doctrine"): the entries it cites (`title`
   * null for one that is not an approved entry now) and why it is not given as true (empty: its
   * basis holds; else `stale` is true and `body` says so first).
   */
  doctrine: z
    .strictObject({
      name: z.string(),
      cites: z.array(z.strictObject({ entryId: z.string(), title: nullableText })),
      basisChanged: z.array(z.string()),
    })
    .optional(),
});
export type MemoryEntryView = z.infer<typeof memoryEntryViewSchema>;

// ---- the memory half: the human gate (confirm, discard, prepare, approve, promote) ----

export const memoryConfirmResultSchema = z.strictObject({
  candidateId: z.string(),
  statementId: z.string(),
  claimSupport: z.literal('human-confirmed'),
  /** The candidate has a blocking finding: confirming a statement does not lift it, and it is never promoted. */
  quarantined: z.boolean(),
  /** The assessment's revision after the confirmation. */
  revision: z.number(),
  /** The statement was confirmed already: nothing changed. */
  replayed: z.boolean(),
});
export type MemoryConfirmResult = z.infer<typeof memoryConfirmResultSchema>;

export const memoryDiscardResultSchema = z.strictObject({
  candidateId: z.string(),
  status: z.literal('discarded'),
  revision: z.number(),
  /** The candidate was discarded already: nothing changed. */
  replayed: z.boolean(),
});
export type MemoryDiscardResult = z.infer<typeof memoryDiscardResultSchema>;

export const memoryPlanStatusSchema = z.enum(['generated', 'approved', 'applying', 'applied', 'voided']);
export type MemoryPlanStatus = z.infer<typeof memoryPlanStatusSchema>;

export const memoryPlanFileViewSchema = z.strictObject({
  /** Relative to the scope's memory root. */
  path: z.string(),
  entryId: z.string(),
  /** remove: a retirement (memory retire), which takes the entry's file out of the root. */
  action: z.enum(['create', 'update', 'remove']),
  candidateIds: z.array(z.string()),
  /** The target's git blob OID when the plan was made; null for a new file. */
  targetBlobHash: nullableText,
  /** sha256 of the exact bytes approval binds. */
  sanitizedContentDigest: z.string(),
  bytes: z.number(),
  /**
   * pending until promote reaches it; skipped: it already held the approved bytes (a removal: it was
   * gone already); removed: a retirement's file taken out; drifted: it changed since prepare.
   */
  state: z.enum(['pending', 'written', 'skipped', 'drifted', 'removed']),
  /** Lint findings below `block` in these bytes (masked). */
  findings: z.array(
    z.strictObject({ line: z.number(), column: z.number(), rule: z.string(), severity, excerpt: z.string() }),
  ),
});
export type MemoryPlanFileView = z.infer<typeof memoryPlanFileViewSchema>;

const memoryPlanFields = {
  planId: z.string(),
  planDigest: z.string(),
  status: memoryPlanStatusSchema,
  scope: projectOrUser,
  candidates: z.array(z.strictObject({ candidateId: z.string(), revision: z.number() })),
  files: z.array(memoryPlanFileViewSchema),
  /** Unified diff of every target, before → after. */
  diff: z.string(),
  /** Why a voided plan was voided (a drifted target, a candidate that changed). */
  voidReason: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * A retirement plan as memory retire answers it only: where the removed file's text stays once it
   * is gone. committed: this worktree's HEAD holds these exact bytes (git keeps them); changed:
   * HEAD holds another version of the file (git keeps that one; these bytes stay only in the plan);
   * uncommitted: no commit at HEAD holds the file; none: the user memory, its data home in no
   * repository (a data home in one is asked like a worktree);
   * unknown: git could not tell. In every case the plan keeps the bytes (memory plan shows them).
   */
  history: z.enum(['committed', 'changed', 'uncommitted', 'none', 'unknown']).optional(),
  /**
   * A consolidation patch's plan only: the patch (its task id), the operations it carries by their
   * number in the patch (from 1) with the entries each rests on, and the numbers left out.
   */
  consolidation: z
    .strictObject({
      taskId: z.string(),
      operations: z.array(
        z.strictObject({
          number: z.number(),
          op: z.string(),
          target: z.string(),
          name: z.string(),
          basedOn: z.array(z.strictObject({ entryId: z.string(), revision: z.number() })),
        }),
      ),
      leftOut: z.array(z.number()),
    })
    .optional(),
};
export const memoryPlanViewSchema = z.strictObject(memoryPlanFields);
export type MemoryPlanView = z.infer<typeof memoryPlanViewSchema>;

/** A plan a person withdrew: its view (status voided), and whether it was voided already. */
export const memoryVoidResultSchema = z.strictObject({
  ...memoryPlanFields,
  /** True when the plan was voided before this request (nothing changed). */
  alreadyVoided: z.boolean(),
});
export type MemoryVoidResult = z.infer<typeof memoryVoidResultSchema>;

export const memoryPromoteResultSchema = z.strictObject({
  ...memoryPlanFields,
  /** The approved projection after promotion (promote runs sync). */
  sync: z.strictObject({ generation: z.number(), coverage, entries: z.number() }).nullable(),
  /**
   * The plan was applied before this promote began (another promote, or an earlier one, did it):
   * this run wrote and removed nothing, whatever its files' states say.
   */
  alreadyApplied: z.boolean(),
});
export type MemoryPromoteResult = z.infer<typeof memoryPromoteResultSchema>;
