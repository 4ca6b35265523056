// What the Entries view says after `c` consolidated a scope (memory consolidate's outcomes, in the
// TUI's words: where the patch is now and which key reaches it, never a command to type).
import { type MemoryConsolidateResult, proposedNothing } from '../../api/memory-views.js';
import { counted } from '../../ground/count-text.js';

const approved = (count: number): string => counted(count, 'approved entry', 'approved entries');

export function consolidationNotice(result: MemoryConsolidateResult): string {
  const scope = result.scope === 'project' ? 'this repository' : 'your user memory';
  const over = `${approved(result.entries)} of ${scope}`;
  const notes = [
    ...(result.blocked > 0
      ? [`${result.blocked} operation(s) left out: their text holds a secret or an instruction to the model.`]
      : []),
    ...(result.problems.length > 0
      ? [
          `${counted(result.problems.length, 'file', 'files')} could not be read and were left out (memory sync lists each).`,
        ]
      : []),
  ];
  const said = (text: string) => [text, ...notes].join(' ');
  const patch = result.patch;
  if (proposedNothing(result))
    return said(
      result.entries === 0
        ? `No approved entries in ${result.scope === 'project' ? "this repository's memory" : 'your user memory'}: nothing to consolidate.`
        : `Consolidated ${over}: nothing to propose.`,
    );
  switch (result.outcome) {
    case 'stale':
      return said(`Consolidation of ${over} was refused: ${result.reason}`);
    case 'rejected':
      return said(`Consolidation ${result.taskId} kept nothing: ${result.reason}`);
    case 'pending':
      return said(`Consolidation ${result.taskId} over ${over} is waiting; c runs it.`);
    case 'unchanged': {
      const where =
        patch?.status === 'prepared' && patch.planId
          ? `its patch was prepared as plan ${patch.planId} (Prepare & promote)`
          : patch?.status === 'applied' && patch.planId
            ? `its patch was applied by plan ${patch.planId}`
            : 'its patch waits on Review (c opens it there)';
      return said(
        `The ${approved(result.entries)} ${result.entries === 1 ? 'is' : 'are'} unchanged since consolidation ${result.taskId}; ${where}.`,
      );
    }
    default:
      return said(
        `Consolidation patch ${result.taskId}: ${patch?.operations.length ?? 0} operation(s) over ${over} waits on Review (c opens it there).`,
      );
  }
}
