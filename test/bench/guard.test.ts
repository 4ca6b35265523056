// The guard itself, end to end (`npm run test:bench`): record the drain's ratios on a small backlog,
// then `--check` with a planted 2x slowdown of the drain (CM_BENCH_PLANTED_DRAIN_SLOWDOWN, honoured
// by the bench's drain child only) must fail and name the drain figure. Needs `npm run build`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

const RUN = new URL('./run.ts', import.meta.url).pathname;

it('--check fails on a planted 2x slowdown of the drain, naming the figure', { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-guard-e2e-'));
  try {
    const env = {
      ...process.env,
      CM_BENCH_HISTORY: join(dir, 'history.jsonl'),
      CM_BENCH_ROLLOUT_MB: '8',
      CM_BENCH_WARMUP_MB: '2',
      CM_BENCH_DRAIN_RUNS: '3',
    };
    const bench = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', RUN, ...args], { env: { ...env, ...extra }, encoding: 'utf8' });
    const recorded = bench(['--record', 'drain']);
    assert.equal(recorded.status, 0, recorded.stderr);
    assert.match(recorded.stdout, /recorded 2 ratios/);
    const checked = bench(['--check', 'drain'], { CM_BENCH_PLANTED_DRAIN_SLOWDOWN: '2' });
    assert.equal(checked.status, 1, `${checked.stdout}\n${checked.stderr}`);
    // The ratio comparison, not only a missed target: the message only the comparison writes.
    assert.match(checked.stdout, /FAIL {2}drain\.warm: .*worse than the last recorded/);
    assert.match(checked.stdout, /failed the check: .*drain\.warm/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
