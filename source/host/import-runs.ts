// Imports a client follows: `import --yes` reads months of transcripts, which takes as long as the
// files are large, so the host starts it and answers with its id, and the client reads its
// progress by short requests until it ends (as memory extract and reverify-runner do). An import's
// end is kept a while for a follower; one nobody follows again is let go.
import { randomUUID } from 'node:crypto';
import { asCmError, CmError } from '../errors.js';
import { EXTRACT_RUNS_KEPT, EXTRACT_RUNS_KEPT_MS } from '../limits.js';
import type { FlushExtraction, ImportProgress, ImportReport, ImportRun } from '../api/capture.js';

interface Entry {
  view: ImportRun;
  finishedAtMs: number | null;
}

export interface ImportWork {
  run(onProgress: (progress: ImportProgress) => void): Promise<ImportReport>;
  /** Drafts candidates from what was imported; null when nothing was (or extraction is not asked for). */
  extract(report: ImportReport): Promise<FlushExtraction> | null;
}

export class ImportRuns {
  private readonly runs = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  start(work: ImportWork): ImportRun {
    this.prune();
    const entry: Entry = {
      view: {
        importId: `import-${randomUUID()}`,
        state: 'running',
        progress: { filesDone: 0, filesTotal: 0, sessions: 0, turns: 0, bytes: 0, elapsedMs: 0 },
        report: null,
        error: null,
      },
      finishedAtMs: null,
    };
    this.runs.set(entry.view.importId, entry);
    const follow = async () => {
      const report = await work.run((progress) => {
        entry.view = { ...entry.view, progress };
      });
      const extracting = work.extract(report);
      if (extracting) {
        entry.view = { ...entry.view, state: 'extracting' };
        report.extraction = await extracting;
      }
      return report;
    };
    follow().then(
      (report) => {
        entry.view = { ...entry.view, state: 'done', report };
        entry.finishedAtMs = this.now();
      },
      (error: unknown) => {
        entry.view = { ...entry.view, state: 'failed', error: asCmError(error).toJSON() };
        entry.finishedAtMs = this.now();
      },
    );
    return entry.view;
  }

  view(importId: string): ImportRun {
    const entry = this.runs.get(importId);
    if (!entry)
      throw new CmError(
        'not_found',
        `No import ${JSON.stringify(importId.slice(0, 200))} in this host; run common-memory import again (it goes on where it stopped).`,
      );
    return entry.view;
  }

  private prune(): void {
    const ended = [...this.runs.values()].filter((entry) => entry.finishedAtMs !== null);
    const expired = this.now() - EXTRACT_RUNS_KEPT_MS;
    ended.forEach((entry, index) => {
      if (entry.finishedAtMs! < expired || ended.length - index > EXTRACT_RUNS_KEPT)
        this.runs.delete(entry.view.importId);
    });
  }
}
