// How an import of stored conversations is told: its report and its progress, shared by `import`
// and the TUI's Integrations screen, so both say the same.
import type { FlushExtraction, ImportReport, ImportRun } from './api/capture.js';

/** Each client's name in text. */
export const IMPORT_CLIENT_NAMES = { claude: 'Claude Code', codex: 'Codex', pi: 'pi' } as const;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** "import: 3/8 files · 2 sessions · 5 turns · 1.2 MB at 4.0 MB/s" (· drafting candidates). */
export function importProgressText(run: ImportRun): string {
  const p = run.progress;
  const rate = p.elapsedMs > 0 ? p.bytes / 1024 / 1024 / (p.elapsedMs / 1000) : 0;
  const phase = run.state === 'extracting' ? ' · drafting candidates' : '';
  return `import: ${p.filesDone}/${p.filesTotal} files · ${p.sessions} sessions · ${p.turns} turns · ${mb(p.bytes)} MB at ${rate.toFixed(1)} MB/s${phase}`;
}

/**
 * The report's lines: what was (or would be) imported, the dates, what was passed over and why,
 * and the repositories. `next` closes a dry run (how to import) or an import (what follows).
 */
export function importReportLines(r: ImportReport, next: string[]): string[] {
  const name = IMPORT_CLIENT_NAMES[r.client];
  const lines = [
    // The folder last, nothing glued to it: a person copies the path alone.
    `${r.dryRun ? 'would import' : 'imported'} from ${name}: ${r.sessions} session(s), ${r.turns} turn(s), ${mb(r.bytes)} MB in ${r.files} file(s) under ${r.root}`,
  ];
  if (r.firstAt !== null) lines.push(`dates: ${r.firstAt} to ${r.lastAt}`);
  if (r.alreadyImported > 0 || r.capturedLive > 0)
    lines.push(
      `already imported: ${r.alreadyImported} session(s) · captured live: ${r.capturedLive} session(s) — not ${r.dryRun ? 'counted above' : 'imported again'}`,
    );
  if (r.turnsAlreadyStored > 0)
    lines.push(
      `already stored (captured live or imported from another file): ${r.turnsAlreadyStored} turn(s), not stored again`,
    );
  lines.push(`skipped: ${r.skipped} file(s) · quarantined: ${r.quarantined} file(s) · open turns: ${r.openTurns}`);
  if (r.repositories.length > 0) lines.push('repositories:');
  for (const repo of r.repositories)
    lines.push(
      `  ${repo.cwd ?? '(no directory recorded)'}: ${repo.sessions} session(s)${repo.exists ? '' : ' — no longer exists: its memory binds to your user scope'}`,
    );
  for (const note of r.notes) lines.push(`${note.what}: ${note.path}: ${note.reason}`);
  if (r.dryRun)
    lines.push(
      'Nothing was written. An import stores what you said in these sessions as evidence, the rest as context.',
    );
  lines.push(...next);
  if (!r.dryRun && r.quarantined > 0)
    lines.push(
      'Quarantined files are untouched and recorded (status counts them); import again once repaired (exit 3).',
    );
  return lines;
}

/**
 * What the drafting pass after an import (or a flush) made, every kind counted — a quarantined
 * candidate is one too, waiting on Review: "extracted: 5 turn(s) in 1 run(s) → candidates: 1 new,
 * 0 updated, 0 merged, 2 quarantined".
 */
export function extractedText(x: FlushExtraction): string {
  const c = x.candidates;
  return `extracted: ${x.turns} turn(s) in ${x.runs} run(s) → candidates: ${c.created} new, ${c.updated} updated, ${c.merged} merged, ${c.quarantined} quarantined`;
}

/** Whether the pass made anything to review (quarantined candidates included). */
export const draftedAny = (x: FlushExtraction): boolean =>
  x.candidates.created + x.candidates.updated + x.candidates.merged + x.candidates.quarantined > 0;
