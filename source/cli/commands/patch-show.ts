// `memory patch <patch-id>`: one consolidation patch whole, whatever its status — its operations
// (numbered as `memory prepare --operations` takes them) with what each rests on, where it stands
// (pending, prepared into a plan, applied), and the full text of every scene or doctrine file an
// operation would write. A read: read-only without a host, no schema library.
import type { ConsolidationReview } from '../../api/memory-views.js';
import { connect } from '../../client/connect.js';
import { wholeMemoryId } from '../../client/local-memory.js';
import { CmError, EXIT } from '../../errors.js';
import { consolidationPath } from '../../memory/consolidation/scene-format.js';
import { visibleText } from '../../memory/visible-text.js';
import { fitLines, type Output } from '../output.js';
import { patchLines, patchPhrases } from './patch-lines.js';

/** Where the patch stands: waiting, prepared into a plan, applied by one, or discarded. */
function statusLine(patch: ConsolidationReview): string {
  const plan = patch.planId === null ? '' : ` (common-memory memory plan ${patch.planId})`;
  switch (patch.status) {
    case 'prepared':
      return `  status: prepared, plan ${patch.planId ?? 'unknown'}${plan}; out of memory review`;
    case 'applied':
      return `  status: applied by plan ${patch.planId ?? 'unknown'}${plan}; it is never prepared again`;
    case 'discarded':
      return '  status: discarded';
    default:
      return '  status: pending, waiting in memory review';
  }
}

/** One patch whole: its lines, its status, and the full text of every file an operation would write. */
export function patchText(patch: ConsolidationReview): string {
  // At 80 columns, the commands whole and the plan's id with its label; the files' texts below
  // are printed as they are.
  const keep = [
    ...patchPhrases(patch),
    ...(patch.planId === null ? [] : [`common-memory memory plan ${patch.planId}`, `plan ${patch.planId}`]),
  ];
  const lines = [
    fitLines([...patchLines(patch), statusLine(patch), `  created ${patch.createdAt}`].join('\n'), '  ', keep),
  ];
  patch.operations.forEach((operation, index) => {
    if (operation.newContent === null || operation.target === 'entry') return;
    const path = consolidationPath({ kind: operation.target, name: operation.name });
    lines.push('', `${index + 1}. ${operation.op} ${operation.target} ${operation.name}: ${path}`);
    // Hidden characters shown as ⟨U+XXXX⟩: the bytes as the model would read them.
    for (const line of visibleText(operation.newContent.replace(/\n$/, '')).split('\n')) lines.push(`    ${line}`);
  });
  return lines.join('\n');
}

/** `memory patch <patch-id>`: one consolidation patch by its id (or a unique start), whatever its status. */
export async function memoryPatch(home: string, args: string[], out: Output): Promise<number> {
  if (!args[0])
    throw new CmError(
      'usage',
      'Give the patch: common-memory memory patch <patch-id> (memory review and memory consolidate print it).',
    );
  const taskId = wholeMemoryId(home, 'patch', args[0]);
  const connection = await connect(home, 'read');
  try {
    const patch = await connection.app.memoryPatch({ taskId });
    out.result(patch, () => patchText(patch));
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}
