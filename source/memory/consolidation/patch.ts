// ConsolidationPatch@v1 (seed 004 §9): what a consolidation runner returns for one task over a
// scope's approved entries. Plain values and checks, no schema library: the read paths (review)
// show patches and must not load zod; the strict wire schema is in ../contracts.ts' sibling
// `patch-schema.ts`, loaded only by the commands that write.
//
// Every operation names the entries it rests on with the revision it read (`basedOn`): a patch
// whose entries changed since the task was made is stale and refused, never applied to text
// nobody reviewed. Scene and doctrine operations carry the new file content; entry operations
// (merge, retire) carry none — what becomes of the entry files is the promotion plan's business.

import { counted } from '../../ground/count-text.js';

export const CONSOLIDATION_FORMATS = {
  task: 'common-memory-consolidation-task@v1',
  patch: 'common-memory-consolidation-patch@v1',
} as const;

export const CONSOLIDATION_OPS = ['create', 'update', 'merge', 'delete', 'retire'] as const;
export type ConsolidationOp = (typeof CONSOLIDATION_OPS)[number];

export const CONSOLIDATION_TARGETS = ['scene', 'doctrine', 'entry'] as const;
export type ConsolidationTarget = (typeof CONSOLIDATION_TARGETS)[number];

/** An entry an operation rests on, at the revision the task saw. */
export interface BasedOn {
  entryId: string;
  revision: number;
}

export interface ConsolidationOperation {
  op: ConsolidationOp;
  target: ConsolidationTarget;
  /**
   * What the operation acts on: a scene's or doctrine's name (a slug), or for an entry operation
   * the entry that stays (merge: the survivor) or goes (retire: the superseded entry).
   */
  name: string;
  /** The full new file for create / update / merge of a scene or doctrine; null otherwise. */
  newContent: string | null;
  basedOn: BasedOn[];
  /** merge: the scenes or doctrine folded into `name`, or the entries folded into the survivor. */
  mergeSources: string[];
  /** retire: the entry that replaces `name`; null otherwise. */
  supersededBy: string | null;
  /** Why, in one line a reviewer can check against the cited entries (no free prose). */
  reason: string;
}

export interface ConsolidationPatch {
  format: typeof CONSOLIDATION_FORMATS.patch;
  taskId: string;
  /** The task's binding, returned as it was given. */
  binding: unknown;
  operations: ConsolidationOperation[];
}

/** Which (op, target) pairs exist: scenes and doctrine are files; entries are merged or retired. */
export const ALLOWED_OPERATIONS: Readonly<Record<ConsolidationTarget, readonly ConsolidationOp[]>> = {
  scene: ['create', 'update', 'merge', 'delete'],
  doctrine: ['create', 'update', 'merge', 'delete'],
  entry: ['merge', 'retire'],
};

/**
 * Why an operation does not hold together, or null: the (op, target) pair exists; content is given
 * exactly when the operation writes a file; merges name their sources; a retirement names its
 * replacement; nothing rests on no entry; an entry is cited once.
 */
export function checkOperation(operation: ConsolidationOperation): string | null {
  const { op, target } = operation;
  if (!ALLOWED_OPERATIONS[target]?.includes(op)) return `\`${op}\` is not an operation on a ${target}`;
  const writesFile = target !== 'entry' && op !== 'delete';
  if (writesFile && operation.newContent === null) return `${op} ${target} "${operation.name}" has no newContent`;
  if (!writesFile && operation.newContent !== null) return `${op} ${target} "${operation.name}" carries newContent`;
  if (op === 'merge' && operation.mergeSources.length === 0) return `merge "${operation.name}" names no source`;
  if (op !== 'merge' && operation.mergeSources.length > 0) return `${op} "${operation.name}" names merge sources`;
  if (op === 'retire' && operation.supersededBy === null) return `retire "${operation.name}" names no replacement`;
  if (op !== 'retire' && operation.supersededBy !== null) return `${op} "${operation.name}" names a replacement`;
  if (operation.basedOn.length === 0) return `${op} ${target} "${operation.name}" rests on no entry`;
  const ids = operation.basedOn.map((item) => item.entryId);
  if (new Set(ids).size !== ids.length) return `${op} ${target} "${operation.name}" cites an entry twice`;
  if (target === 'entry') {
    const cited = new Set(ids);
    for (const id of [
      operation.name,
      ...operation.mergeSources,
      ...(operation.supersededBy ? [operation.supersededBy] : []),
    ]) {
      if (!cited.has(id)) return `${op} entry "${operation.name}" does not rest on ${id}`;
    }
  }
  return null;
}

/** Entries whose revision now differs from what the patch rests on (missing entries included): stale if any. */
export function staleEntries(
  patch: Pick<ConsolidationPatch, 'operations'>,
  current: ReadonlyMap<string, number>,
): BasedOn[] {
  const seen = new Map<string, BasedOn>();
  for (const operation of patch.operations)
    for (const item of operation.basedOn)
      if (current.get(item.entryId) !== item.revision) seen.set(`${item.entryId}@${item.revision}`, item);
  return [...seen.values()].sort((a, b) =>
    a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : a.revision - b.revision,
  );
}

/** One line per operation for a reviewer: what it does and what it rests on. */
export function describeOperation(operation: ConsolidationOperation): string {
  const cited = operation.basedOn.map((item) => `${item.entryId}@${item.revision}`).join(', ');
  switch (operation.target) {
    case 'entry':
      return operation.op === 'merge'
        ? `merge entries ${operation.mergeSources.join(', ')} into ${operation.name} (${operation.reason}; rests on ${cited})`
        : `retire entry ${operation.name}, superseded by ${operation.supersededBy} (${operation.reason}; rests on ${cited})`;
    default:
      return `${operation.op} ${operation.target} ${operation.name}${operation.mergeSources.length > 0 ? ` from ${operation.mergeSources.join(', ')}` : ''} (${counted(operation.basedOn.length, 'entry', 'entries')}: ${cited})`;
  }
}
