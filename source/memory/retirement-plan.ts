// A retirement plan: a promotion plan whose one file is a removal. Retiring an approved entry takes
// its file out of the memory root (git keeps its history); the plan records the file's exact bytes
// and their blob OID, so promote removes it only while it still holds what the person read, and
// it goes through the same journal, approval and promote as any plan. Pure: built from the memory
// root's current files; removing is effects/promotion-apply.ts.
import { sha256Hex } from '../ground/digests.js';
import { gitBlobOid } from './blob-oid.js';
import { checkEntryPath, parseEntry } from './entry-format.js';
import {
  type CurrentFile,
  type PlanFile,
  type PlanResult,
  type PromotionScope,
  planWithoutCandidates,
} from './promotion-plan.js';

export interface RetirementInput {
  planId: string;
  scope: PromotionScope;
  /** Whose memory root this is (memory-state's owner keys), bound into the digest. */
  ownerKey: string;
  /** Where the root is (the worktree's root or the data home, a real path). */
  anchor: string;
  entryId: string;
  currentFiles: CurrentFile[];
}

/** The files of the root that hold `entryId` (one, unless the root is in disorder). */
export function filesOfEntry(currentFiles: readonly CurrentFile[], entryId: string): CurrentFile[] {
  return currentFiles.filter((file) => {
    const parsed = parseEntry(file.bytes);
    return parsed.ok && parsed.value.entry.id === entryId;
  });
}

/** Builds the plan that removes the file of `entryId`, or says why there cannot be one. */
export function buildRetirementPlan(input: RetirementInput): PlanResult {
  const invalid = (message: string): PlanResult => ({ ok: false, refusal: { reason: 'invalid', message } });
  const found = filesOfEntry(input.currentFiles, input.entryId);
  if (found.length === 0) return invalid(`entry ${input.entryId} is not in the ${input.scope} memory root`);
  if (found.length > 1)
    return invalid(
      `entry ${input.entryId} is held by ${found.length} files (${found.map((f) => f.path).join(', ')}); remove the extra ones by hand first`,
    );
  const file = found[0]!;
  const check = checkEntryPath(file.path, 'existing');
  if (!check.ok) return invalid(check.reason);
  const planFile: PlanFile = {
    path: file.path,
    entryId: input.entryId,
    action: 'remove',
    candidateIds: [],
    targetBlobHash: gitBlobOid(file.bytes),
    content: file.bytes,
    sanitizedContentDigest: sha256Hex(file.bytes),
    findings: [],
  };
  return { ok: true, plan: planWithoutCandidates(input, [planFile], new Map()) };
}

/** A plan that only removes files: a retirement (its candidates are none). */
export const isRetirement = (plan: { files: ReadonlyArray<{ action: string }> }): boolean =>
  plan.files.length > 0 && plan.files.every((file) => file.action === 'remove');
