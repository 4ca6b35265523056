// Memory at session start: the installed SessionStart hook, whole process through sh as a host
// runs it, giving a full snapshot chosen from 10k approved entries of the session's repository
// (CM_BENCH_SNAPSHOT_ENTRIES), against the hook floor (a CommonJS script that opens better-sqlite3
// and makes one durable insert), alternating, in the same run. Every run is a new activation, so
// every run reads memory-state and the repository binding again.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { hookCommand } from '../../source/hosts/hook-config.js';
import { MEMORY_SNAPSHOT_MAX_BYTES } from '../../source/limits.js';
import { BIN, tempHome } from '../support/cli.js';
import { writeBenchEntries } from './entry-files.js';
import { type Figure, hookFigures, median, report, timeHookAgainstFloor } from './measure.js';

export async function runSnapshotBench(): Promise<Figure[]> {
  const count = Number(process.env['CM_BENCH_SNAPSHOT_ENTRIES'] ?? 10_000);
  const home = tempHome('bench-snapshot');
  const repo = join(home, '..', 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  writeBenchEntries(repo, count, (i) => ({
    title: `Convention ${i}: run the formatter before committing`,
    appliesWhen: 'committing changes',
    body: `Convention ${i}.\n\nRun \`npm run format\` before each commit; CI rejects unformatted files.\nSee the docs.\n`,
  }));
  execFileSync(process.execPath, [BIN, 'memory', 'sync', '--home', home, '--json'], { cwd: repo, stdio: 'ignore' });

  const payload = (i: number) =>
    JSON.stringify({
      session_id: `bench-session-${i}`,
      transcript_path: null,
      cwd: repo,
      hook_event_name: 'SessionStart',
      source: 'startup',
      model: 'fake-model',
      permission_mode: 'bypassPermissions',
    });
  const reply = execFileSync('/bin/sh', ['-c', hookCommand('codex', home)], {
    input: payload(-1),
    env: { ...process.env, [INSTANCE_ENV]: 'bench' },
  }).toString();
  const context = (JSON.parse(reply) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
  const shown = (context.match(/^- \[/gm) ?? []).length;
  const bytes = Buffer.byteLength(context);

  const env = { ...process.env, [INSTANCE_ENV]: 'bench' };
  const times = timeHookAgainstFloor(hookCommand('codex', home), payload, 15, env);
  // The same event into a data home with no memory at all: what the snapshot itself adds.
  const bare = tempHome('bench-snapshot-bare');
  const bareTimes = timeHookAgainstFloor(hookCommand('codex', bare), payload, 15, env);
  const figures: Figure[] = [
    {
      name: `snapshot from ${count} approved entries`,
      value: `${shown} entries shown, ${bytes} bytes`,
      target: `<= ${MEMORY_SNAPSHOT_MAX_BYTES} bytes`,
      met: bytes <= MEMORY_SNAPSHOT_MAX_BYTES && shown > 0,
    },
    ...hookFigures(`hook SessionStart + snapshot of ${count} entries`, times, 'snapshot.session-start'),
    {
      name: 'hook SessionStart with no memory at all, same run (median)',
      value: `${median(bareTimes.hook).toFixed(1)} ms`,
      floor: `${median(bareTimes.floor).toFixed(1)} ms`,
      ratio: median(bareTimes.hook) / median(bareTimes.floor),
      target: 'reported: what the snapshot adds is the difference',
      met: null,
    },
  ];
  report(figures);
  return figures;
}
