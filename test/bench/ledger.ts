// The read ledger's hooks, whole process through sh as Claude Code runs them, against the hook floor
// (a CommonJS script that opens better-sqlite3 and makes one durable insert), alternating, in the
// same run: PostToolUse of a root memory_get (one ledger write besides the capture insert), and
// SubagentStart of a child when the root has read the most entries a root keeps (the hint of 64).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { hookCommand } from '../../source/hosts/hook-config.js';
import { LEDGER_ENTRIES_PER_ROOT } from '../../source/limits.js';
import { sha256Hex } from '../../source/ground/digests.js';
import { BIN, tempHome } from '../support/cli.js';
import { type Figure, hookFigures, median, report, timeHookAgainstFloor } from './measure.js';

const SESSION = 'bench-root-session';

/** A Claude Code PostToolUse of a successful memory_get, shaped as 2.1.332 sends it (the result as a string). */
function postToolUse(cwd: string, i: number): string {
  const id = `entry-${i % LEDGER_ENTRIES_PER_ROOT}`;
  const result = {
    id,
    title: `Convention ${i % LEDGER_ENTRIES_PER_ROOT}: run the formatter before committing`,
    appliesWhen: 'committing changes',
    contentDigest: sha256Hex(id),
    sources: [{ scope: 'project', path: `work_method/${id}.md` }],
    body: 'Run the formatter before each commit.',
  };
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: null,
    cwd,
    prompt_id: 'bench-turn',
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__common-memory__memory_get',
    tool_input: { id },
    tool_response: JSON.stringify(result),
    tool_use_id: `toolu_${i}`,
  });
}

const subagentStart = (cwd: string, i: number): string =>
  JSON.stringify({
    session_id: SESSION,
    transcript_path: null,
    cwd,
    prompt_id: 'bench-turn',
    hook_event_name: 'SubagentStart',
    agent_id: `agent-${i}`,
    agent_type: 'general-purpose',
  });

function ledgerStatus(home: string): { roots: number; entries: number; state: string } {
  const out = execFileSync(process.execPath, [BIN, 'status', '--home', home, '--json']).toString();
  return (JSON.parse(out) as { ledger: { roots: number; entries: number; state: string } }).ledger;
}

export async function runLedgerBench(): Promise<Figure[]> {
  const runs = Number(process.env['CM_BENCH_LEDGER_RUNS'] ?? 15);
  const home = tempHome('bench-ledger');
  const cwd = join(home, '..', 'repo');
  mkdirSync(cwd, { recursive: true });
  const env = { ...process.env, [INSTANCE_ENV]: 'bench' };
  const command = hookCommand('claude', home);
  const hook = (payload: string) => execFileSync('/bin/sh', ['-c', command], { input: payload, env });
  hook(JSON.stringify({ session_id: SESSION, cwd, hook_event_name: 'SessionStart', source: 'startup' }));
  hook(
    JSON.stringify({
      session_id: SESSION,
      cwd,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go',
      prompt_id: 'bench-turn',
    }),
  );

  const post = timeHookAgainstFloor(command, (i) => postToolUse(cwd, i), runs, env);
  // The same event for another tool: the hook without the ledger, what its write adds is the difference.
  const other = (i: number) => postToolUse(cwd, i).replace('mcp__common-memory__memory_get', 'Read');
  const plain = timeHookAgainstFloor(command, other, runs, env);
  // Fill the ledger to its bound, then time the hint of a full one.
  for (let i = 0; i < LEDGER_ENTRIES_PER_ROOT; i++) hook(postToolUse(cwd, i));
  const full = ledgerStatus(home);
  const hintBytes = Buffer.byteLength(hook(subagentStart(cwd, -1)).toString());
  const sub = timeHookAgainstFloor(command, (i) => subagentStart(cwd, i), runs, env);
  const figures: Figure[] = [
    ...hookFigures('hook PostToolUse of a root memory_get, with its ledger write', post),
    {
      name: 'hook PostToolUse of another tool (no ledger), same run (median)',
      value: `${median(plain.hook).toFixed(1)} ms`,
      floor: `${median(plain.floor).toFixed(1)} ms`,
      ratio: median(plain.hook) / median(plain.floor),
      target: 'reported: the ledger write is the difference',
      met: null,
    },
    {
      name: 'ledger after the run',
      value: `${full.state}, ${full.roots} root, ${full.entries} entries`,
      target: `${LEDGER_ENTRIES_PER_ROOT} entries: every read was recorded`,
      met: full.state === 'ready' && full.entries === LEDGER_ENTRIES_PER_ROOT,
    },
    {
      name: `hook SubagentStart with a full ledger (${LEDGER_ENTRIES_PER_ROOT} entries), whole process (median)`,
      value: `${median(sub.hook).toFixed(1)} ms, hint ${hintBytes} bytes`,
      floor: `${median(sub.floor).toFixed(1)} ms`,
      ratio: median(sub.hook) / median(sub.floor),
      target: 'reported',
      met: null,
    },
  ];
  report(figures);
  return figures;
}
