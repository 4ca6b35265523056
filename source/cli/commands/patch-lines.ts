// A consolidation patch as lines for a person (memory consolidate, memory review, memory patch):
// what each operation does and the entries, with revisions, it rests on. No schema library: review
// is a read.
import type { ConsolidationReview } from '../../api/memory-views.js';
import { describeOperation } from '../../memory/consolidation/patch.js';

/** The lines of a patch for a person: one per operation, numbered, with what it rests on; then how to prepare it. */
export function patchLines(patch: ConsolidationReview): string[] {
  const counts = new Map<string, number>();
  for (const operation of patch.operations) {
    const key = `${operation.op} ${operation.target}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const where = patchWhere(patch);
  return [
    `${patch.taskId}  consolidation  ${patch.operations.length} operation(s)  (${where}, ${patch.runner})`,
    `  ${[...counts].map(([key, count]) => `${count} × ${key}`).join(', ') || 'nothing to propose'}`,
    // Numbered as `memory prepare --operations` takes them.
    ...patch.operations.map(
      (operation, index) => `  ${index + 1}. ${describeOperation(operation).replace(/\s+/g, ' ')}`,
    ),
    ...(patch.operations.length > 0 && patch.status !== 'applied' ? [`  prepare it: ${prepareCommand(patch)}`] : []),
  ];
}

const patchWhere = (patch: ConsolidationReview): string =>
  patch.scope === 'user' ? 'user scope' : `project ${patch.repositoryKey.slice(0, 12)}`;

const prepareCommand = (patch: ConsolidationReview): string =>
  `common-memory memory prepare ${patch.taskId} [--operations 1,3]`;

/** What patchLines says that wrapping at 80 columns must not break: the command to copy, a label and its value. */
export const patchPhrases = (patch: ConsolidationReview): string[] => [
  prepareCommand(patch),
  `${patch.operations.length} operation(s)`,
  `(${patchWhere(patch)},`,
];
