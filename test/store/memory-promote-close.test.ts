// promote closes a plan and shows its entries in one durable commit: the closing transaction stores
// the approved projection's scan with the plan applied, so no commit of its own follows it; a
// projection that moved meanwhile (another sync committed) is synced again after, as any sync.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { readEntryFiles } from '../../source/effects/approved-projection.js';
import { memoryRootOf } from '../../source/effects/memory-root.js';
import { promotePlan } from '../../source/pipeline/promotion.js';
import { approvedPlanInProcess, factCandidates } from '../support/in-process-gate.js';

const candidates = (count: number) => factCandidates(count, 'c-close');

/** An approved plan of three new entries, and the writer commands run in this process, counted. */
const approvedPlan = (dir: string) => approvedPlanInProcess(dir, candidates(3), 'plan-close');

describe('promote closes a plan and its projection in one commit', () => {
  let dir: string;
  let close = () => {};
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-close-'));
  });
  afterEach(() => {
    close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two durable commits (begin, close); the entries are in the projection when the plan is applied', async () => {
    const setup = approvedPlan(dir);
    close = setup.close;
    const result = await promotePlan(setup.deps, 'plan-close');
    assert.equal(result.status, 'applied');
    assert.deepEqual(result.sync, { generation: 1, coverage: 'complete', entries: 3 });
    assert.deepEqual(setup.commits, ['memoryBeginPromotion', 'memoryFinishPromotion']);
    const stored = setup.db
      .prepare('SELECT count(*) FROM approved_entries WHERE repository_key = ?')
      .pluck()
      .get(setup.owner.repositoryKey) as number;
    assert.equal(stored, 3);
    assert.equal(readEntryFiles(memoryRootOf('project', setup.anchor)).length, 3);
  });

  it('a sync that committed while the plan was applied wins the check; promote syncs again after closing', async () => {
    const setup = approvedPlan(dir);
    close = setup.close;
    const begin = setup.deps.writer.beginPromotion;
    setup.deps.writer.beginPromotion = async (input) => {
      const begun = await begin(input);
      // Another sync of the same root lands between begin and close (an empty root: generation 1).
      await setup.run('memorySyncApproved', {
        owner: { scope: 'project', ...setup.owner },
        expectedGeneration: null,
        coverage: 'complete',
        unchanged: false,
        sourceTreeDigest: 'c'.repeat(64),
        scanJson: '{}',
        problems: [],
        entries: [],
      });
      return begun;
    };
    const result = await promotePlan(setup.deps, 'plan-close');
    assert.equal(result.status, 'applied');
    assert.deepEqual(result.sync, { generation: 2, coverage: 'complete', entries: 3 });
    assert.deepEqual(setup.commits, [
      'memoryBeginPromotion',
      'memorySyncApproved',
      'memoryFinishPromotion',
      'memorySyncApproved',
    ]);
  });
});
