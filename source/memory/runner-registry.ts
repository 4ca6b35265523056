// The runners of a data home by name: the offline `builtin` and one per profile in runners.json.
import { builtinRunner } from './builtin-runner.js';
import { clientRunner } from './client-runners.js';
import { commandRunner, runnerLogDirectory } from './command-runner.js';
import type { Runner, RunnerRegistry } from './runner.js';
import { loadRunnerProfiles } from './runner-profiles.js';

/** The builtin runner never depends on runners.json: a broken file fails only runs that name a profile. */
export function runnerRegistry(home: string, wanted: string): RunnerRegistry {
  const runners = new Map<string, Runner>([[builtinRunner.name, builtinRunner]]);
  if (wanted === builtinRunner.name) return runners;
  const profiles = loadRunnerProfiles(home);
  if (profiles.length === 0) return runners;
  const logs = runnerLogDirectory(home);
  for (const profile of profiles)
    runners.set(profile.name, profile.kind === 'command' ? commandRunner(profile, logs) : clientRunner(profile, logs));
  return runners;
}
