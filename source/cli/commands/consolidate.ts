// `memory consolidate [--scope project|user]`: a consolidation task over one scope's approved
// entries, run by the built-in runner; its patch waits in `memory review` as one item. No file in
// the memory root changes.
import type { MemoryConsolidateResult } from '../../api/memory-views.js';
import { EXIT } from '../../errors.js';
import type { Output } from '../output.js';
import { patchLines } from './patch-lines.js';
import { scopeOption, withWrite } from './promote.js';

function resultText(result: MemoryConsolidateResult): string {
  // A patch of no operation answers its task but is not kept: there is nothing to review.
  if (result.patch?.operations.length === 0 && result.outcome !== 'stale')
    return `consolidated ${result.entries} approved entries: nothing to propose (consolidation ${result.taskId})`;
  switch (result.outcome) {
    case 'stale':
      return `consolidation of ${result.entries} entries was refused: ${result.reason}`;
    case 'pending':
      return `consolidation task ${result.taskId} over ${result.entries} approved entries is waiting; memory consolidate runs it`;
    case 'unchanged':
      return [
        `the ${result.entries} approved entries are unchanged since consolidation ${result.taskId}; its patch is in memory review`,
        ...(result.patch ? patchLines(result.patch) : []),
      ].join('\n');
    default:
      return [
        `consolidated ${result.entries} approved entries; the patch waits in memory review (nothing in the memory root changed)`,
        ...(result.patch ? patchLines(result.patch) : []),
      ].join('\n');
  }
}

export async function memoryConsolidate(home: string, scope: string | undefined, out: Output): Promise<number> {
  const result = await withWrite(home, (app) =>
    app.memoryConsolidate({ scope: scopeOption(scope), cwd: process.cwd() }),
  );
  out.result(result, () => resultText(result));
  return result.outcome === 'stale' ? EXIT.conflict : EXIT.ok;
}
