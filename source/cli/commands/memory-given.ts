// `memory refresh` and `memory assemble`: memory given back outside a session's start. refresh
// replaces a running session's frozen snapshot the way a hook writes (hook/refresh.ts: one
// transaction on core.sqlite, no host needed); assemble writes a repository's CLAUDE.md / AGENTS.md
// managed block from the approved projection (read-only) and needs no store either.
import { EXIT } from '../../errors.js';
import { refreshSnapshot } from '../../hook/refresh.js';
import { assembleIn } from '../../client/memory-files.js';
import type { Output } from '../output.js';

export function memoryRefresh(home: string, sessions: string[] | undefined, out: Output): number {
  const result = refreshSnapshot(home, { sessionKey: sessions?.[0] });
  out.result(
    result,
    () =>
      `session ${result.sessionKey} (${result.client}): ${result.entries} note${result.entries === 1 ? '' : 's'}` +
      `${result.omitted > 0 ? ` (${result.omitted} more left out by the budget)` : ''}, ${result.bytes} bytes; ` +
      (result.client === 'pi'
        ? "in pi's system prompt from its next prompt on"
        : 'given to the model at its next prompt or tool use'),
  );
  return EXIT.ok;
}

export function memoryAssemble(home: string, provider: string | undefined, dryRun: boolean, out: Output): number {
  const plan = assembleIn(home, process.cwd(), provider, dryRun);
  out.result({ ...plan, dryRun }, () => {
    const what = `${plan.entries} note${plan.entries === 1 ? '' : 's'}${plan.omitted > 0 ? ` (${plan.omitted} more left out by the budget)` : ''}`;
    if (plan.action === 'unchanged') return `${plan.file} is up to date (${what})`;
    const verb = dryRun ? 'would be' : 'was';
    return `${plan.diff}${plan.diff.endsWith('\n') ? '' : '\n'}${plan.file} ${verb} ${plan.action} with ${what}${dryRun ? '; run without --dry-run to write it' : ''}`;
  });
  return EXIT.ok;
}
