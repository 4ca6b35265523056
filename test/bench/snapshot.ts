// Memory at session start: the installed SessionStart hook, whole process through sh as a host
// runs it, giving a full snapshot chosen from 10k approved entries of the session's repository
// (CM_BENCH_SNAPSHOT_ENTRIES), against the hook floor (a CommonJS script that opens better-sqlite3
// and makes one durable insert), alternating, in the same run. Every run is a new activation, so
// every run reads memory-state and the repository binding again, and checks that the memory files
// did not change since the projection read them (approved-follow.ts). Then the same with a changed
// tree: before each run one entry file is replaced the way git writes it on a pull (a new file
// renamed over the old one), so each run finds the change, reads that file and stores it — in the
// 10k root and in a root of 500 entries. `memory sync` verifies the entries' anchors (each names
// the package script `format`, which the repository defines): the hook reads a stored verdict for
// every entry it gives (docs/memory-staleness.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { hookCommand } from '../../source/hosts/hook-config.js';
import { MEMORY_SCAN_RACY_MS, MEMORY_SNAPSHOT_MAX_BYTES } from '../../source/limits.js';
import { ENTRY_TYPES, formatEntry } from '../../source/memory/entry-format.js';
import { sleepSync } from '../../source/ground/sleep-sync.js';
import { BIN, tempHome } from '../support/cli.js';
import { writeBenchEntries } from './entry-files.js';
import { type Figure, hookFigures, median, report, timeHookAgainstFloor } from './measure.js';

const benchText = (i: number) => ({
  title: `Convention ${i}: run the formatter before committing`,
  appliesWhen: 'committing changes',
  body: `Convention ${i}.\n\nRun \`npm run format\` before each commit; CI rejects unformatted files.\nSee the docs.\n`,
});

/** A repository with `count` approved entries, projected and verified by a real `memory sync`. */
function syncedBenchRepo(
  name: string,
  count: number,
): { home: string; repo: string; verified: { entries: number; stale: number } } {
  const home = tempHome(name);
  const repo = join(home, '..', 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { format: 'prettier --write .' } }));
  writeBenchEntries(repo, count, benchText);
  // Entries are committed well before a session starts: files written within the timestamp
  // granularity of the sync would be read again by the next check ("racily clean").
  sleepSync(MEMORY_SCAN_RACY_MS + 100);
  const synced = execFileSync(process.execPath, [BIN, 'memory', 'sync', '--home', home, '--json'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const anchors = (JSON.parse(synced) as { anchors?: { entries: number; stale: number } }).anchors;
  return { home, repo, verified: { entries: anchors?.entries ?? 0, stale: anchors?.stale ?? 0 } };
}

/** Replaces entry `i` of the bench the way git writes a pulled file: a new file renamed over it. */
function pullOneEntry(repo: string, i: number, round: number): void {
  const type = ENTRY_TYPES[i % ENTRY_TYPES.length]!;
  const id = `bench-${String(i).padStart(6, '0')}`;
  const dir = join(repo, '.common-memory', 'memory', type);
  const text = benchText(i);
  const bytes = formatEntry({
    id,
    type,
    ...text,
    title: `${text.title} (edit ${round})`,
    priority: i % 101,
    confidence: 'high',
    evidence: { summary: '1 statement from 1 user turn' },
    created: '2026-11-30',
    supersedes: [],
    extra: [],
  });
  writeFileSync(join(dir, '.pulled.tmp'), bytes);
  renameSync(join(dir, '.pulled.tmp'), join(dir, `${id}.md`));
}

export async function runSnapshotBench(): Promise<Figure[]> {
  const count = Number(process.env['CM_BENCH_SNAPSHOT_ENTRIES'] ?? 10_000);
  const { home, repo, verified } = syncedBenchRepo('bench-snapshot', count);

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
  // The same event into a data home with no memory at all, from a repository with no memory root:
  // what the snapshot itself adds.
  const bare = tempHome('bench-snapshot-bare');
  const bareRepo = join(bare, '..', 'repo');
  mkdirSync(bareRepo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: bareRepo });
  const barePayload = (i: number) => payload(i).replace(JSON.stringify(repo), JSON.stringify(bareRepo));
  const bareTimes = timeHookAgainstFloor(hookCommand('codex', bare), barePayload, 15, env);
  // A changed tree before every run: the 10k root, then a root of 500 entries.
  const changed = timeHookAgainstFloor(hookCommand('codex', home), payload, 15, env, (i) =>
    pullOneEntry(repo, (i * 7919) % count, i),
  );
  const small = syncedBenchRepo('bench-snapshot-small', 500);
  const smallPayload = (i: number) => payload(i).replace(JSON.stringify(repo), JSON.stringify(small.repo));
  const smallChanged = timeHookAgainstFloor(hookCommand('codex', small.home), smallPayload, 15, env, (i) =>
    pullOneEntry(small.repo, (i * 37) % 500, i),
  );
  const figures: Figure[] = [
    {
      name: `snapshot from ${count} approved entries`,
      value: `${shown} entries shown, ${bytes} bytes; verdicts stored for ${verified.entries} (${verified.stale} stale)`,
      target: `<= ${MEMORY_SNAPSHOT_MAX_BYTES} bytes, every entry verified`,
      met: bytes <= MEMORY_SNAPSHOT_MAX_BYTES && shown > 0 && verified.entries === count,
    },
    ...hookFigures(`hook SessionStart + snapshot of ${count} entries`, times, 'snapshot.session-start'),
    ...changedFigure(`hook SessionStart after one of ${count} entry files changed`, changed),
    ...changedFigure('hook SessionStart after one of 500 entry files changed', smallChanged),
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

/** A changed tree's cost beside the floor: reported, the 1.5x target is the unchanged tree's. */
function changedFigure(name: string, times: ReturnType<typeof timeHookAgainstFloor>): Figure[] {
  const hook = median(times.hook);
  const floor = median(times.floor);
  return [
    {
      name: `${name} (the projection brought up to date first), whole process (median)`,
      value: `${hook.toFixed(1)} ms`,
      floor: `${floor.toFixed(1)} ms`,
      ratio: hook / floor,
      target: 'reported: one changed file is read and stored before the snapshot',
      met: null,
    },
  ];
}
