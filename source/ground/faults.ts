// Deterministic fault injection for drills. COMMON_MEMORY_FAULTS="appendNote.beforeCommit=throw,appendNote.afterCommit=kill"
// makes the named commit boundary fail: "throw" rolls the transaction back as a storage failure
// would; "kill" ends the whole process with SIGKILL, as a power cut would; "delay:MS" holds the
// thread at that boundary for MS milliseconds, as a slow disk or a long migration would. Unset in
// normal use.
import { CmError } from '../errors.js';
import { sleepSync } from './sleep-sync.js';

/** Called at each named commit boundary; throws (or kills the process) where a drill asks for it. */
export type FaultPoint = (name: string) => void;

export const FAULTS_ENV = 'COMMON_MEMORY_FAULTS';

export function faultPointFromEnv(): FaultPoint | undefined {
  const spec = process.env[FAULTS_ENV];
  if (!spec) return undefined;
  const actions = new Map(
    spec.split(',').map((entry) => {
      const [name, action] = entry.split('=');
      return [name?.trim() ?? '', action?.trim() ?? 'throw'] as const;
    }),
  );
  return (name) => {
    const action = actions.get(name);
    if (action === 'kill') process.kill(process.pid, 'SIGKILL');
    const delay = /^delay:(\d+)$/.exec(action ?? '');
    if (delay) sleepSync(Number(delay[1]));
    if (action === 'throw')
      throw new CmError('storage_failed', `Injected storage fault at ${name}; nothing was committed.`);
  };
}
