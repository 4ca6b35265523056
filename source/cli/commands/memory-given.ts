// `memory refresh` and `memory assemble`: memory given back outside a session's start. refresh
// replaces a running session's frozen snapshot the way a hook writes (hook/refresh.ts: one
// transaction on core.sqlite, no host needed); assemble writes a repository's CLAUDE.md / AGENTS.md
// managed block from the approved projection (read-only) and needs no store either.
import { EXIT } from '../../errors.js';
import { refreshSnapshot } from '../../hook/refresh.js';
import { assembleIn, assembleSkillsIn } from '../../client/memory-files.js';
import { visibleText } from '../../memory/visible-text.js';
import { fitLines, type Output } from '../output.js';

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
    // The diff is shown for review: a terminal control or hidden character in it is labelled
    // (visible-text.ts), never written to the terminal; --json keeps the bytes.
    const diff = visibleText(plan.diff);
    return `${diff}${diff.endsWith('\n') ? '' : '\n'}${fitLines(`${plan.file} ${verb} ${plan.action} with ${what}${dryRun ? '; run without --dry-run to write it' : ''}`)}`;
  });
  return EXIT.ok;
}

export function memoryAssembleSkills(
  home: string,
  provider: string | undefined,
  scope: string | undefined,
  dryRun: boolean,
  out: Output,
): number {
  const result = assembleSkillsIn(home, process.cwd(), { provider, scope, dryRun });
  out.result(result, () => {
    const lines: string[] = [];
    /** The lines after the diffs, wrapped to 80 columns (the diffs are the files' text). */
    const said: string[] = [];
    // Shown for review: controls and hidden characters labelled, as in memory assemble's diff.
    for (const target of result.targets)
      if (target.diff !== '') lines.push(visibleText(target.diff.replace(/\n$/, '')));
    const verb = dryRun ? 'would be ' : '';
    for (const target of result.targets) {
      const count = (action: string) => target.skills.filter((skill) => skill.action === action).length;
      const parts = [
        `${count('create')} ${verb}created`,
        `${count('update')} ${verb}updated`,
        `${count('remove')} ${verb}removed`,
        `${target.unchanged.length} unchanged`,
      ];
      said.push(`${target.directory} (${target.provider}): ${parts.join(', ')}`);
      for (const one of target.renamed)
        said.push(
          `  ${one.name}: the name ${one.wanted} is held by ${one.heldBy === 'user' ? 'a skill of yours' : one.heldBy === 'client' ? "the client's own" : 'another method'}, so entry ${one.sources.join(', ')} got this one`,
        );
      for (const one of target.kept)
        said.push(
          one.reason === 'edited'
            ? `  ${one.name}: edited by hand since common-memory wrote it; left as it is (delete the folder to have it written again)`
            : `  ${one.name}: its SKILL.md ${verb}removed; the folder stays for the files you added`,
        );
    }
    for (const one of result.withheld)
      said.push(`left out ${one.entryId}: stale (${one.reason}); revise it or verify again to have its skill`);
    const methods = `${result.methods} approved work method${result.methods === 1 ? '' : 's'} (${result.scope} scope)`;
    said.push(dryRun ? `${methods}; run without --dry-run to write the skills` : methods);
    return [...lines, fitLines(said.join('\n'))].join('\n');
  });
  return EXIT.ok;
}
