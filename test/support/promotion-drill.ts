// The promotion crash drill: kill -9 at a named step of a promotion (COMMON_MEMORY_FAULTS) through
// the real shipped bin — a command holding the lease, or a host — then a restart: every target is
// either untouched or exactly the approved bytes, the plan finishes, and no file is written twice
// (a write is a rename of a new temporary file, so a rewritten file has a new inode).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { openDatabase } from '../../source/store/database.js';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from './cli.js';
import { runCliInProcess } from './cli-in-process.js';
import * as c from './capture.js';
import { queueSession } from './memory-corpus.js';

const json = (text: string) => JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SAID = readFileSync(new URL('../../fixtures/memory/extraction-utterances.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { text: string; durable: boolean })
  .filter((u) => u.durable)
  .map((u) => u.text);

const KILL = 'COMMON_MEMORY_FAULTS';

/** The approved bytes of each file of a plan, from the journal. */
function approvedBytes(home: string, planId: string): Map<string, Buffer> {
  const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT target_path, sanitized_content FROM promotion_files WHERE plan_id = ?')
      .all(planId) as Array<{ target_path: string; sanitized_content: Buffer }>;
    return new Map(rows.map((row) => [row.target_path, row.sanitized_content]));
  } finally {
    db.close();
  }
}

export interface DrillStep {
  /** A fault point: a writer commit boundary (<command>.beforeCommit|afterCommit) or promote.afterFile.<n>, promote.beforeFinish. */
  fault: string;
  /** Which command the kill hits: approve, or promote. */
  killed: 'approve' | 'promote';
  /** Promote through a running host (killed with it) instead of a command holding the lease. */
  host?: boolean;
}

/** Every step of a promotion a process can die at, with two files per plan. */
export const EVERY_STEP: DrillStep[] = [
  { fault: 'memoryApprovePlan.afterCommit', killed: 'approve' },
  { fault: 'memoryBeginPromotion.afterCommit', killed: 'promote' },
  { fault: 'promote.afterFile.1', killed: 'promote' },
  { fault: 'promote.afterFile.2', killed: 'promote' },
  { fault: 'promote.beforeFinish', killed: 'promote' },
  { fault: 'memoryFinishPromotion.beforeCommit', killed: 'promote' },
  { fault: 'memoryFinishPromotion.afterCommit', killed: 'promote' },
  { fault: 'promote.afterFile.1', killed: 'promote', host: true },
];

/** Runs each step on a plan of its own over one repository and data home; asserts as it goes. */
export async function runPromotionDrill(scenarios: readonly DrillStep[]): Promise<void> {
  const home = tempHome('promote-crash');
  const repo = gitRepo(home, 'repo');
  // Drafts per extraction task are capped: one session per handful of utterances.
  for (let i = 0; i < scenarios.length * 2 + 6; i += 6) queueSession(home, repo, SAID.slice(i, i + 6));
  await c.flush(home);
  // The drafts, each plan and (where promote is what is killed) its approval are the state a step
  // starts from: made in-process, through the same main and a local host of its own (a spawn of the
  // bin is about 0.5 s of CPU). The killed command and the restart after it are the bin's.
  const extract = await runCliInProcess(['memory', 'extract', '--home', home, '--json', '--limit', '8'], {
    cwd: repo,
  });
  assert.ok(extract.code === 0 || extract.code === 3, extract.stderr);
  let pool = (
    json((await runCliInProcess(['memory', 'review', '--home', home, '--json'], { cwd: repo })).stdout)
      .candidates as Array<{
      candidateId: string;
      status: string;
    }>
  )
    .filter((cand) => cand.status === 'draft')
    .map((cand) => cand.candidateId);
  const root = join(repo, '.common-memory', 'memory');
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli([...args, '--home', home, '--json'], { cwd: repo, env });
  /** A read (the review queue) or a step's starting state: in-process, the bin's own process is not what the drill is about. */
  const read = (args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });

  assert.ok(pool.length >= scenarios.length * 2, `enough drafts for every step (${pool.length})`);

  for (const scenario of scenarios) {
    const label = `${scenario.fault}${scenario.host ? ' (host)' : ''}`;
    const ids = pool.slice(0, 2);
    pool = pool.slice(2);
    const prepared = await read(['memory', 'prepare', ...ids]);
    assert.equal(prepared.code, 0, `${label}: ${prepared.stderr}`);
    const plan = json(prepared.stdout) as MemoryPlanView;
    assert.equal(plan.files.length, 2);
    const approved = approvedBytes(home, plan.planId);
    const env = { [KILL]: `${scenario.fault}=kill` };

    let killed: { code: number | null };
    let restarted: Awaited<ReturnType<typeof startHost>> | undefined;
    if (scenario.killed === 'approve') {
      killed = await cli(['memory', 'approve', plan.planId, '--digest', plan.planDigest], env);
    } else {
      assert.equal((await read(['memory', 'approve', plan.planId, '--digest', plan.planDigest])).code, 0);
      if (scenario.host) {
        const host = await startHost(home, env);
        const promote = await cli(['memory', 'promote', plan.planId]);
        assert.notEqual(promote.code, 0, `${label}: the host died under the request`);
        killed = { code: await stopHost(host.child) };
      } else killed = await cli(['memory', 'promote', plan.planId], env);
    }
    assert.equal(killed.code, null, `${label}: the process was killed, not finished`);

    // Right after the kill: every target untouched (absent) or exactly the approved bytes.
    const inodes = new Map<string, number>();
    for (const [path, bytes] of approved) {
      const file = join(root, path);
      if (!existsSync(file)) continue;
      assert.deepEqual(readFileSync(file), bytes, `${label}: ${path} holds the approved bytes or nothing`);
      inodes.set(path, statSync(file).ino);
    }

    // The restart: a host start, or any command holding the lease (memory status here), finishes
    // an applying plan; a plan killed after approve waits for memory promote.
    if (scenario.host) restarted = await startHost(home);
    const status = await cli(['memory', 'status']);
    assert.equal(status.code, 0, `${label}: ${status.stderr}`);
    assert.equal(json(status.stdout).promotions.applying, 0, `${label}: nothing is left applying`);
    const finished = await cli(['memory', 'promote', plan.planId]);
    assert.equal(finished.code, 0, `${label}: ${finished.stderr}`);
    const result = json(finished.stdout) as MemoryPlanView;
    assert.equal(result.status, 'applied', label);
    for (const [path, bytes] of approved) {
      const file = join(root, path);
      assert.deepEqual(readFileSync(file), bytes, `${label}: ${path} is exactly the approved bytes`);
      if (inodes.has(path))
        assert.equal(statSync(file).ino, inodes.get(path), `${label}: ${path} was not written a second time`);
    }
    const review = json((await read(['memory', 'review'])).stdout).candidates as Array<{ candidateId: string }>;
    assert.ok(!review.some((cand) => ids.includes(cand.candidateId)), `${label}: the candidates are promoted`);
    if (restarted) assert.equal(await stopHost(restarted.child), 0);
  }
  const search = json((await cli(['memory', 'sync'])).stdout);
  assert.equal(search.coverage, 'complete');
  assert.equal(search.entries, scenarios.length * 2, 'one entry per promoted candidate, none twice');
}
