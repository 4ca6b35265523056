// The runners of a data home by name: the offline `builtin` and one per profile in runners.json,
// each with its conformance probe.
import { builtinRunner } from '../memory/builtin-runner.js';
import { clientRunner, clientVersion } from './client-runners.js';
import { commandRunner, runnerLogDirectory } from './command-runner.js';
import { conformanceFingerprint, runProbe } from './conformance.js';
import type { ExternalRunner, Runner, RunnerRegistry } from '../memory/runner.js';
import { loadRunnerProfiles, type RunnerProfile } from './runner-profiles.js';

/** The runner of a profile; `logDir` holds each task's stderr (null: dropped). */
export function externalRunner(profile: RunnerProfile, logDir: string | null): ExternalRunner {
  const bare = profile.kind === 'command' ? commandRunner(profile, logDir) : clientRunner(profile, logDir);
  return {
    ...bare,
    run: (work, options) => bare.run(work, options),
    send: (input, work, options) => bare.send(input, work, options),
    conformanceKey: () =>
      conformanceFingerprint(profile, profile.kind === 'command' ? null : clientVersion(profile).fingerprint),
    probe: () => runProbe(profile),
  };
}

/** The builtin runner never depends on runners.json: a broken file fails only runs that name a profile. */
export function runnerRegistry(home: string, wanted: string): RunnerRegistry {
  const runners = new Map<string, Runner>([[builtinRunner.name, builtinRunner]]);
  if (wanted === builtinRunner.name) return runners;
  const logs = runnerLogDirectory(home);
  for (const profile of loadRunnerProfiles(home)) runners.set(profile.name, externalRunner(profile, logs));
  return runners;
}
