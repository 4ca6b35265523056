// `memory status` as the host and a read-only connection answer it: memory-state's counts with the
// runners of the data home (the builtin and each profile of runners.json). Apart from the other
// memory reads (memory-access.ts) because reading the profiles loads their zod schemas, which
// `get`, `sessions` and `memory review` do not need (whole processes started in loops).
import { dirname } from 'node:path';
import { CmError } from '../errors.js';
import { loadRunnerProfiles } from '../effects/runner-profiles.js';
import type { MemoryStatus } from '../api/memory-runs.js';
import { emptyMemoryStatus, readMemoryStatus } from '../store/memory/memory-reads.js';
import { withMemoryState } from '../store/memory/state-database.js';

const BUILTIN: MemoryStatus['runners'][number] = { name: 'builtin', offline: true };

/** The runners of the data home holding memory-state: the builtin and each readable profile. */
function runnersOf(memoryStatePath: string): { runners: MemoryStatus['runners']; problem: string | null } {
  try {
    const profiles = loadRunnerProfiles(dirname(memoryStatePath)).map((profile) => ({
      name: profile.name,
      offline: false,
      provider: profile.provider,
      model: profile.model,
      endpoint: profile.endpoint,
      budget: profile.budget,
    }));
    return { runners: [BUILTIN, ...profiles], problem: null };
  } catch (error) {
    return { runners: [BUILTIN], problem: (error as Error).message };
  }
}

export function memoryStatusAt(path: string, autoExtract: boolean, active: MemoryStatus['activeRun']): MemoryStatus {
  const { runners, problem } = runnersOf(path);
  try {
    const status = withMemoryState(
      path,
      () => emptyMemoryStatus('empty', null, runners, autoExtract),
      (db) => readMemoryStatus(db, runners, autoExtract),
    );
    const sent = new Map(status.spend.byProfile.map((row) => [row.profile, row.bytes]));
    for (const runner of status.runners) if (!runner.offline) runner.sentToday = sent.get(runner.name) ?? 0;
    return { ...status, runnersProblem: problem, activeRun: active };
  } catch (error) {
    if (error instanceof CmError && error.code === 'memory_unavailable')
      return { ...emptyMemoryStatus('unavailable', error.message, runners, autoExtract), runnersProblem: problem };
    throw error;
  }
}
