// One verification run for one owner (a repository worktree): the entries' anchors (re-extracted
// only for entries whose text changed), verified against the worktree with the last run's stamp
// cache, stored with their verdicts in one writer command. The seam for `memory sync`, `memory
// status` and the host's tree watcher; the SessionStart hook only reads the stored verdicts.
import { type VerifyCache, type VerifyCounts, verifyAnchors } from '../effects/anchor-verify.js';
import { type Anchor, extractAnchors } from '../memory/anchors.js';
import type { Db } from '../store/database.js';
import {
  type OwnerKeys,
  type RecordAnchorsInput,
  readAnchorState,
  readEntriesForAnchors,
} from '../store/memory/anchor-store.js';
import type { WriterPort } from '../store/writer-commands.js';

export interface AnchorRunPlan {
  input: RecordAnchorsInput;
  counts: VerifyCounts & { extracted: number; entries: number; stale: number };
}

function parseCache(json: string | null): VerifyCache | undefined {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as VerifyCache;
  } catch {
    return undefined; // a damaged cache only costs a full verification
  }
}

/** Reads what the run needs (read-only `db`), verifies, and returns the command input. */
export function planAnchorRun(db: Db, owner: OwnerKeys, worktreeRoot: string): AnchorRunPlan {
  const entries = readEntriesForAnchors(db, owner);
  const state = readAnchorState(db, owner);
  const stored = new Map(state.anchors.map((row) => [row.entryId, row]));
  let extracted = 0;
  const anchored = entries.map((entry) => {
    const before = stored.get(entry.entryId);
    let anchors: Anchor[];
    if (before && before.contentDigest === entry.contentDigest) anchors = JSON.parse(before.anchorsJson) as Anchor[];
    else {
      extracted++;
      anchors = extractAnchors({ title: entry.title, body: entry.body }, { worktreeRoot });
    }
    return { ...entry, anchors };
  });
  const report = verifyAnchors(
    worktreeRoot,
    anchored.map(({ entryId, anchors }) => ({ entryId, anchors })),
    parseCache(state.cacheJson),
  );
  let stale = 0;
  const input: RecordAnchorsInput = {
    owner: { repositoryKey: owner.repositoryKey, worktreeKey: owner.worktreeKey },
    entries: anchored.map((entry) => {
      const verdict = report.verdicts.get(entry.entryId)!;
      if (verdict.verdict === 'stale') stale++;
      return {
        entryId: entry.entryId,
        contentDigest: entry.contentDigest,
        anchors: entry.anchors as unknown as Array<Record<string, unknown>>,
        verdict: verdict.verdict,
        failed: verdict.verdict === 'stale' ? verdict.failed : [],
      };
    }),
    cacheJson: JSON.stringify(report.cache),
  };
  return { input, counts: { ...report.counts, extracted, entries: entries.length, stale } };
}

/** Verifies one owner's entries and stores the verdicts. */
export async function refreshAnchors(
  db: Db,
  writer: WriterPort,
  owner: OwnerKeys,
  worktreeRoot: string,
): Promise<AnchorRunPlan['counts']> {
  const plan = planAnchorRun(db, owner, worktreeRoot);
  await writer.call('memoryRecordAnchors', plan.input);
  return plan.counts;
}
