// Conformance probes a client follows: `memory reverify-runner` through a host runs the runner over
// the probe, which takes as long as the runner does (a model: many seconds), so the host starts it
// and answers with its id, and the client reads it by short requests until it ends. A probe's end
// is kept a while for a follower; a probe nobody follows again is let go.
import { randomUUID } from 'node:crypto';
import { asCmError, CmError } from '../errors.js';
import { EXTRACT_RUNS_KEPT, EXTRACT_RUNS_KEPT_MS } from '../limits.js';
import type { MemoryReverifyResult, MemoryReverifyRun } from '../api/memory-runs.js';

interface Entry {
  view: MemoryReverifyRun;
  finishedAtMs: number | null;
}

export class FollowedProbes {
  private readonly probes = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  start(probe: () => Promise<MemoryReverifyResult>): MemoryReverifyRun {
    this.prune();
    const entry: Entry = {
      view: { probeId: `probe-${randomUUID()}`, state: 'running', result: null, error: null },
      finishedAtMs: null,
    };
    this.probes.set(entry.view.probeId, entry);
    probe().then(
      (result) => {
        entry.view = { ...entry.view, state: 'done', result };
        entry.finishedAtMs = this.now();
      },
      (error: unknown) => {
        entry.view = { ...entry.view, state: 'failed', error: asCmError(error).toJSON() };
        entry.finishedAtMs = this.now();
      },
    );
    return entry.view;
  }

  view(probeId: string): MemoryReverifyRun {
    const entry = this.probes.get(probeId);
    if (!entry)
      throw new CmError(
        'not_found',
        `No conformance probe ${JSON.stringify(probeId.slice(0, 200))} in this host; run memory reverify-runner again.`,
      );
    return entry.view;
  }

  /** Ended probes past the time kept, and the oldest beyond the count kept (the same bounds as followed runs). */
  private prune(): void {
    const ended = [...this.probes.values()].filter((entry) => entry.finishedAtMs !== null);
    const expired = this.now() - EXTRACT_RUNS_KEPT_MS;
    ended.forEach((entry, index) => {
      if (entry.finishedAtMs! < expired || ended.length - index > EXTRACT_RUNS_KEPT)
        this.probes.delete(entry.view.probeId);
    });
  }
}
