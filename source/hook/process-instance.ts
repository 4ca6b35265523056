// Which host process fired a hook: boot id + the host's PID + its start time, so PID reuse after a
// reboot or a restart never merges two processes (seed 002). Hosts run hooks through a shell, so
// shell ancestors are skipped. Claude Code names itself in CLAUDE_PID.
import { readFileSync } from 'node:fs';

/** A wrapper that knows the host instance better (a bridge, a test drill) may set it. */
export const INSTANCE_ENV = 'COMMON_MEMORY_HOOK_INSTANCE';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'busybox', 'env', 'timeout']);

interface ProcStat {
  comm: string;
  ppid: number;
  startTicks: string;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // After "pid (comm) ": state ppid … starttime is field 22 overall, index 19 here.
    return { comm, ppid: Number(fields[1]), startTicks: fields[19] ?? '?' };
  } catch {
    return undefined;
  }
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'no-boot-id';
  }
}

export function processInstance(client: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env[INSTANCE_ENV];
  if (given) return `given:${given}`;
  let pid = process.ppid;
  const claudePid = client === 'claude' ? Number(env['CLAUDE_PID']) : NaN;
  if (Number.isSafeInteger(claudePid) && claudePid > 1) pid = claudePid;
  let stat = procStat(pid);
  for (let hops = 0; stat && SHELLS.has(stat.comm) && stat.ppid > 1 && hops < 4; hops++) {
    pid = stat.ppid;
    stat = procStat(pid);
  }
  return `${bootId()}:${pid}:${stat?.startTicks ?? 'unknown'}`;
}

/** How far up the process tree `memory refresh` looks for the host that runs it. */
const ANCESTOR_HOPS = 16;

/**
 * The process instance every ancestor of this process would have as a host (nearest first), and a
 * given instance if one is set: one of them is the host whose shell tool runs `memory refresh`.
 */
export function ancestorInstances(env: NodeJS.ProcessEnv = process.env): string[] {
  const instances: string[] = [];
  const given = env[INSTANCE_ENV];
  if (given) instances.push(`given:${given}`);
  const boot = bootId();
  let pid = process.ppid;
  for (let hops = 0; pid > 1 && hops < ANCESTOR_HOPS; hops++) {
    const stat = procStat(pid);
    if (!stat) break;
    instances.push(`${boot}:${pid}:${stat.startTicks}`);
    pid = stat.ppid;
  }
  return instances;
}
