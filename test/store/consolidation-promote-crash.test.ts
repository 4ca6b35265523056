// kill -9 at every step of promoting a consolidation plan (two scenes written, one relisting a merged
// entry's survivor, the merge survivor rewritten, the merged and the retired entry files removed),
// through the real shipped bin: after the plan turned applying, after each file, before the
// closing transaction, inside it and after it. Right after each kill, before anything runs again:
// every target is untouched, exactly the approved bytes, or (a removal) gone; no entry the plan
// keeps is lost and no entry it removes is gone before its survivor is written; no scene names an
// entry that no file holds; a read says `partial` while the plan is applying and names the command
// that finishes it. Then promote again finishes the plan without writing any file twice.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MemoryPlanView } from '../../source/api/memory-views.js';
import { storeFiles } from '../../source/home.js';
import { parseEntry } from '../../source/memory/entry-format.js';
import { parseConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { openDatabase } from '../../source/store/database.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { projectRoot, writeConsolidationEntries } from '../support/memory-files.js';

after(() => c.closeStores());

const json = (text: string) => JSON.parse(text);

interface PlanFile {
  target_path: string;
  entry_id: string;
  action: string;
  sanitized_content: Buffer;
}

function readJournal<T>(home: string, read: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Each file of the plan: what promote must leave (a removal: nothing) and which entry it is. */
const planFiles = (home: string, planId: string) =>
  readJournal(
    home,
    (db) =>
      db
        .prepare('SELECT target_path, entry_id, action, sanitized_content FROM promotion_files WHERE plan_id = ?')
        .all(planId) as PlanFile[],
  );

const planStatus = (home: string, planId: string) =>
  readJournal(home, (db) => db.prepare('SELECT status FROM promotion_journal WHERE plan_id = ?').pluck().get(planId));

/** The consolidation patch's status: prepared until the closing transaction applies it with its plan. */
const patchStatus = (home: string, planId: string) =>
  readJournal(home, (db) =>
    db.prepare('SELECT status FROM consolidation_patches WHERE plan_id = ?').pluck().get(planId),
  );

/** Every file in the root's entry folders (`<type>/*.md`) and its bytes, by path in the root. */
function entryFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const dir of readdirSync(root).filter((name) => name.startsWith('work_')))
    for (const name of readdirSync(join(root, dir))) files.set(`${dir}/${name}`, readFileSync(join(root, dir, name)));
  return files;
}

/** Entry id → the bytes of each file that holds it. */
function entriesById(files: Map<string, Buffer>): Map<string, Buffer[]> {
  const byId = new Map<string, Buffer[]>();
  for (const bytes of files.values()) {
    const parsed = parseEntry(bytes);
    if (parsed.ok) byId.set(parsed.value.entry.id, [...(byId.get(parsed.value.entry.id) ?? []), bytes]);
  }
  return byId;
}

/** The entries each scene file on disk names. */
function sceneEntries(root: string): Map<string, string[]> {
  const scenes = new Map<string, string[]>();
  const dir = join(root, 'scenes');
  if (!existsSync(dir)) return scenes;
  for (const name of readdirSync(dir)) {
    const parsed = parseConsolidationFile(readFileSync(join(dir, name)));
    assert.ok(parsed.ok && parsed.value.file.kind === 'scene', `scenes/${name} reads back as a scene`);
    if (parsed.value.file.kind === 'scene') scenes.set(`scenes/${name}`, [...parsed.value.file.entries]);
  }
  return scenes;
}

/** The plan's file steps, in the order promote takes them: its three writes, then its two removals. */
const FILE_STEPS = 5;
const FAULTS = [
  'memoryBeginPromotion.afterCommit',
  ...Array.from({ length: FILE_STEPS }, (_, at) => `promote.afterFile.${at + 1}`),
  'promote.beforeFinish',
  'memoryFinishPromotion.beforeCommit',
  'memoryFinishPromotion.afterCommit',
];

describe('a consolidation plan promoted and killed with kill -9 at every step', { timeout: 300_000 }, () => {
  const home = tempHome('cm-consolidation-crash');
  // One worktree and one approved plan per kill, all made before the first kill through one host
  // (each command a few milliseconds through its API, not a local host started in this process for
  // each): the state each kill starts from. The killed promote and the promote that finishes run the
  // shipped bin, one kill at a time, with no host; the reads between them run in this process.
  const seeded = new Map<string, { repo: string; plan: MemoryPlanView; original: Map<string, Buffer> }>();
  before(async () => {
    const repos = FAULTS.map((_, at) => {
      const repo = gitRepo(home, `repo-${at}`);
      writeConsolidationEntries(projectRoot(repo), { duplicates: true });
      return repo;
    });
    const host = await startHost(home, {}, repos[0]);
    try {
      for (const [at, fault] of FAULTS.entries()) {
        const repo = repos[at]!;
        const inProcess = (args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
        const consolidated = await inProcess(['memory', 'consolidate']);
        assert.equal(consolidated.code, 0, consolidated.stderr);
        const prepared = await inProcess(['memory', 'prepare', json(consolidated.stdout).taskId]);
        assert.equal(prepared.code, 0, prepared.stderr);
        const plan = json(prepared.stdout) as MemoryPlanView;
        const approved = await inProcess(['memory', 'approve', plan.planId, '--digest', plan.planDigest]);
        assert.equal(approved.code, 0, approved.stderr);
        seeded.set(fault, { repo, plan, original: entryFiles(projectRoot(repo)) });
      }
    } finally {
      await stopHost(host.child);
    }
  });

  for (const fault of FAULTS) {
    it(`at ${fault}: nothing lost, no scene names a gone entry, reads say partial; promote again finishes`, async () => {
      const { repo, plan, original } = seeded.get(fault)!;
      const root = projectRoot(repo);
      const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
        runCli([...args, '--home', home, '--json'], { cwd: repo, env });
      const inProcess = (args: string[]) => runCliInProcess([...args, '--home', home, '--json'], { cwd: repo });
      const files = planFiles(home, plan.planId);
      const writes = files.filter((f) => f.action !== 'remove');
      const removals = files.filter((f) => f.action === 'remove');
      assert.equal(files.length, FILE_STEPS, 'the plan this drill walks');
      assert.ok(writes.some((f) => f.entry_id.startsWith('scene:')) && writes.some((f) => !f.entry_id.includes(':')));
      assert.equal(removals.length, 2, 'a merged and a retired entry');

      const killed = await cli(['memory', 'promote', plan.planId], { COMMON_MEMORY_FAULTS: `${fault}=kill` });
      assert.equal(killed.code, null, 'the process was killed, not finished');
      try {
        await checkAfterKill();
      } finally {
        // A failed check leaves no plan applying for the next kill's promote to finish as it opens.
        if (planStatus(home, plan.planId) === 'applying') await cli(['memory', 'promote', plan.planId]);
      }

      async function checkAfterKill() {
        // Each target: untouched, or as approved (a removal: gone).
        const inodes = new Map<string, number>();
        let done = 0;
        for (const file of files) {
          const path = join(root, file.target_path);
          const now = existsSync(path) ? readFileSync(path) : null;
          const approved = file.action === 'remove' ? null : file.sanitized_content;
          const untouched = original.get(file.target_path) ?? null;
          const isApproved = approved === null ? now === null : now?.equals(approved) === true;
          const isUntouched = untouched === null ? now === null : now?.equals(untouched) === true;
          assert.ok(isApproved || isUntouched, `${file.target_path}: untouched or as approved after the kill`);
          if (isApproved && !isUntouched) done += 1;
          if (approved !== null && isApproved) inodes.set(file.target_path, statSync(path).ino);
        }
        const step = /^promote\.afterFile\.(\d+)$/.exec(fault);
        if (step) assert.equal(done, Number(step[1]), `${step[1]} file(s) done before the kill`);
        if (fault === 'memoryBeginPromotion.afterCommit') assert.equal(done, 0, 'no file done before the first');

        // No entry lost: each one the plan keeps is in a file, as it was or as approved; one it
        // removes is gone only once every file the plan writes (its survivor, the scenes naming it) is.
        const now = entriesById(entryFiles(root));
        const approvedOf = new Map(writes.map((f) => [f.entry_id, f.sanitized_content]));
        const removed = new Set(removals.map((f) => f.entry_id));
        for (const [id, held] of entriesById(original)) {
          const holding = now.get(id) ?? [];
          if (removed.has(id)) {
            if (holding.length === 0)
              for (const file of writes)
                assert.deepEqual(
                  readFileSync(join(root, file.target_path)),
                  file.sanitized_content,
                  `${id} is gone only once ${file.target_path} is written`,
                );
            continue;
          }
          assert.ok(holding.length > 0, `${id} is in a file after the kill`);
          for (const bytes of holding)
            assert.ok(
              held.some((b) => b.equals(bytes)) || approvedOf.get(id)?.equals(bytes),
              `${id}: its original or its approved bytes`,
            );
        }
        for (const [scene, ids] of sceneEntries(root))
          for (const id of ids) assert.ok(now.has(id), `${scene} names ${id}, which is in a file`);

        // Reads before anything finishes the plan: partial while it is applying, naming the command.
        const applying = planStatus(home, plan.planId) === 'applying';
        assert.equal(applying, fault !== 'memoryFinishPromotion.afterCommit', 'the plan is applying until it closes');
        assert.equal(
          patchStatus(home, plan.planId),
          applying ? 'prepared' : 'applied',
          'the patch closes with its plan',
        );
        const searched = await inProcess(['memory', 'search', 'biome']);
        assert.equal(searched.code, 0, searched.stderr);
        const search = json(searched.stdout) as { coverage: string; reason?: string };
        if (applying) {
          assert.equal(search.coverage, 'partial', `search while the plan is applying: ${searched.stdout}`);
          assert.match(search.reason ?? '', new RegExp(`memory promote ${plan.planId}`));
        } else assert.equal(search.coverage, 'complete', searched.stdout);
        for (const file of removals.filter((f) => !existsSync(join(root, f.target_path)))) {
          const got = await inProcess(['get', file.entry_id]);
          assert.equal(got.code, 6, `get ${file.entry_id}, removed: ${got.stdout}`);
          if (applying) assert.match(got.stderr, new RegExp(`memory promote ${plan.planId}`));
        }
        // A scene the plan writes: given once on disk, else not found; either says the plan is unfinished.
        const scene = await inProcess(['get', 'scene:unit-before']);
        const sceneWritten = existsSync(join(root, 'scenes', 'unit-before.md'));
        assert.equal(scene.code, sceneWritten ? 0 : 6, `get scene:unit-before: ${scene.stdout}${scene.stderr}`);
        if (applying)
          assert.match(
            sceneWritten ? json(scene.stdout).body : scene.stderr,
            new RegExp(`memory promote ${plan.planId}`),
            'get of the scene names the command that finishes the plan',
          );

        const finished = await cli(['memory', 'promote', plan.planId]);
        assert.equal(finished.code, 0, finished.stderr);
        const result = json(finished.stdout) as MemoryPlanView & { alreadyApplied: boolean };
        assert.equal(result.status, 'applied');
        // The promote that finishes the plan (as its process opens, before the command runs) says
        // it did; only a plan closed before the kill was promoted already.
        assert.equal(result.alreadyApplied, !applying, `alreadyApplied: ${finished.stdout}`);
        if (applying)
          assert.equal(
            result.files.filter((f) => f.state === 'written' || f.state === 'removed').length,
            files.length - done,
            'the files not done before the kill are done now, the others skipped',
          );
        for (const file of files) {
          const path = join(root, file.target_path);
          if (file.action === 'remove') {
            assert.equal(existsSync(path), false, `${file.target_path} is removed`);
            continue;
          }
          assert.deepEqual(readFileSync(path), file.sanitized_content, `${file.target_path} is the approved bytes`);
          if (inodes.has(file.target_path))
            assert.equal(statSync(path).ino, inodes.get(file.target_path), `${file.target_path} was not written twice`);
        }
        assert.equal(patchStatus(home, plan.planId), 'applied');
        const settled = await inProcess(['memory', 'search', 'biome']);
        assert.equal(json(settled.stdout).coverage, 'complete', settled.stdout);
      }
    });
  }
});
