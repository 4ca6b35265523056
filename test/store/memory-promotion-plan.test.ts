import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MEMORY_ENTRY_MAX_BYTES } from '../../source/limits.js';
import { gitBlobOid } from '../../source/memory/blob-oid.js';
import { parseEntry } from '../../source/memory/entry-format.js';
import {
  buildPromotionPlan,
  type CandidateForPromotion,
  type CurrentFile,
  checkPlanIntegrity,
  type PlanInput,
  type PromotionPlan,
} from '../../source/memory/promotion-plan.js';
import { entryIdForCandidate } from '../../source/memory/candidate-entry.js';
import {
  applyPlanFile,
  applySession,
  driftedTargets,
  syncPlanDirectories,
} from '../../source/effects/promotion-apply.js';
import { MemoryFileError, memoryRoot } from '../../source/effects/safe-files.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const ROOT_PATH = '.common-memory/memory';

function candidate(id: string, overrides: Partial<CandidateForPromotion> = {}): CandidateForPromotion {
  return {
    candidateId: id,
    revision: 1,
    type: 'work_method',
    title: null,
    content: `Use pnpm, not npm (${id}).\r\n\r\nThe lockfile is pnpm-lock.yaml.   \n\n\n`,
    appliesWhen: 'installing\tor updating\npackages',
    priority: 70,
    confidence: 'high',
    evidenceSummary: '2 statements from 2 user turns',
    supersedes: [],
    updatesEntryId: null,
    ...overrides,
  };
}

const HAND_EDITED = [
  '---',
  'id: m-hand',
  'type: work_fact',
  'title: Tests run with node --test',
  'created: "2026-01-02T00:00:00Z"',
  'owner:   "platform team"',
  'tags: [',
  '   "testing"',
  ']',
  '---',
  'Run `npm test`.',
  '',
].join('\n');

function input(
  candidates: CandidateForPromotion[],
  currentFiles: CurrentFile[] = [],
  overrides: Partial<PlanInput> = {},
): PlanInput {
  return {
    planId: 'plan-1',
    scope: 'project',
    ownerKey: 'owner-a',
    anchor: '/repo',
    candidates,
    currentFiles,
    now: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

function build(...args: Parameters<typeof input>): PromotionPlan {
  const result = buildPromotionPlan(input(...args));
  assert.ok(result.ok, !result.ok ? result.refusal.message : '');
  return result.plan;
}

describe('promotion plans', () => {
  it('new entries: sanitised canonical bytes, no target OID, a diff, a stable digest', () => {
    const plan = build([
      candidate('c-1'),
      candidate('c-2', { title: 'Use pnpm, not npm (c-1).', type: 'work_method' }),
    ]);
    assert.deepEqual(
      plan.files.map((f) => [f.path, f.action, f.targetBlobHash]),
      [
        ['work_method/use-pnpm-not-npm-c-1-2.md', 'create', null],
        ['work_method/use-pnpm-not-npm-c-1.md', 'create', null],
      ],
      'a second entry with the same title gets the next free slug',
    );
    const file = plan.files.find((f) => f.candidateIds[0] === 'c-1')!;
    const text = decode(file.content);
    assert.equal(
      text,
      [
        '---',
        `id: "${entryIdForCandidate('c-1')}"`,
        'type: "work_method"',
        'title: "Use pnpm, not npm (c-1)."',
        'appliesWhen: "installing or updating packages"',
        'priority: 70',
        'confidence: "high"',
        'evidence: {"summary":"2 statements from 2 user turns","candidateId":"c-1"}',
        'created: "2026-03-01T10:00:00.000Z"',
        '---',
        'Use pnpm, not npm (c-1).',
        '',
        'The lockfile is pnpm-lock.yaml.',
        '',
      ].join('\n'),
    );
    assert.ok(parseEntry(file.content).ok);
    assert.match(
      plan.diff,
      /^--- \/dev\/null\n\+\+\+ b\/work_method\/use-pnpm-not-npm-c-1-2\.md\n@@ -0,0 \+1,13 @@\n\+---\n/,
    );
    assert.equal(plan.diff.split('\n+++ ').length - 1, 2, 'one diff per file');
    assert.equal(checkPlanIntegrity(plan), null);

    // The same inputs give the same plan; any bound input changes the digest.
    assert.equal(
      build([candidate('c-1'), candidate('c-2', { title: 'Use pnpm, not npm (c-1).' })]).planDigest,
      plan.planDigest,
    );
    const digests = new Set([
      plan.planDigest,
      build([candidate('c-1', { revision: 2 }), candidate('c-2', { title: 'Use pnpm, not npm (c-1).' })]).planDigest,
      build([candidate('c-1'), candidate('c-2', { title: 'Use pnpm, not npm (c-1).' })], [], {
        now: '2026-03-01T10:00:01.000Z',
      }).planDigest,
      build([candidate('c-1'), candidate('c-2', { title: 'Use pnpm, not npm (c-1).' })], [], { scope: 'user' })
        .planDigest,
      build([candidate('c-1'), candidate('c-2', { title: 'Use pnpm, not npm (c-1).' })], [], { ownerKey: 'owner-b' })
        .planDigest,
    ]);
    assert.equal(digests.size, 5);
  });

  it('an update rewrites only the changed fields of a hand-edited file and binds its current OID', () => {
    const current = [{ path: 'work_fact/Tests_Run.md', bytes: encode(HAND_EDITED) }];
    const plan = build(
      [
        candidate('c-3', {
          title: 'Tests run with node --test (no globs)',
          content: 'Run `npm test`; list files.',
          updatesEntryId: 'm-hand',
          supersedes: ['m-old'],
        }),
      ],
      current,
    );
    const [file] = plan.files;
    assert.equal(file!.path, 'work_fact/Tests_Run.md');
    assert.equal(file!.action, 'update');
    assert.equal(file!.targetBlobHash, gitBlobOid(current[0]!.bytes));
    const text = decode(file!.content);
    assert.match(
      text,
      /^---\nid: m-hand\ntype: work_fact\ntitle: "Tests run with node --test \(no globs\)"\ncreated: "2026-01-02T00:00:00Z"\nowner: {3}"platform team"\ntags: \[\n {3}"testing"\n\]\n/,
    );
    assert.match(
      text,
      /\nsupersedes: \["m-old"\]\nupdated: "2026-03-01T10:00:00.000Z"\n---\nRun `npm test`; list files.\n$/,
    );
    assert.match(plan.diff, /^--- a\/work_fact\/Tests_Run\.md\n\+\+\+ b\/work_fact\/Tests_Run\.md\n/);
    assert.match(
      plan.diff,
      /\n-title: Tests run with node --test\n\+title: "Tests run with node --test \(no globs\)"\n/,
    );
  });

  it("a person's revision keeps the entry's priority, confidence and evidence; it rewrites only what was edited", () => {
    const entry = HAND_EDITED.replace(
      'title: Tests run with node --test',
      'title: "Tests run with node --test"',
    ).replace(
      'created:',
      'priority: 90\nconfidence: low\nevidence: {"summary":"1 statement(s) from 1 user turn(s), 1 confirmed by a person","candidateId":"c-0"}\ncreated:',
    );
    const current = [{ path: 'work_fact/Tests_Run.md', bytes: encode(entry) }];
    const plan = build(
      [
        candidate('c-4', {
          type: 'work_fact',
          title: 'Tests run with node --test',
          content: 'Run `npm test`; list the files.',
          appliesWhen: null,
          evidenceSummary: '1 statement(s) from 0 user turn(s)',
          updatesEntryId: 'm-hand',
          keepsEntryFields: true,
        }),
      ],
      current,
    );
    const changed = plan.diff.split('\n').filter((line) => /^[-+](?!--|\+\+)/.test(line));
    assert.deepEqual(changed, [
      '+updated: "2026-03-01T10:00:00.000Z"',
      '-Run `npm test`.',
      '+Run `npm test`; list the files.',
    ]);
  });

  it('preparing a candidate again targets the file its first promotion wrote', () => {
    const first = build([candidate('c-1')]);
    const again = build([candidate('c-1')], [{ path: first.files[0]!.path, bytes: first.files[0]!.content }]);
    assert.equal(again.files[0]!.path, first.files[0]!.path);
    assert.equal(again.files[0]!.targetBlobHash, gitBlobOid(first.files[0]!.content));
  });

  it('a blocking secret refuses the plan with a masked excerpt; a warning goes with the plan', () => {
    // The real secret lint runs over the bytes: the title line and the body both hold the key.
    const refused = buildPromotionPlan(
      input([candidate('c-1'), candidate('c-9', { content: 'The key is AKIAIOSFODNN7EXAMPL3, keep it.' })]),
    );
    assert.ok(!refused.ok);
    assert.equal(refused.refusal.reason, 'secret');
    assert.match(
      refused.refusal.message,
      /^refused: candidate c-9 has what looks like a secret at line 4 of its entry \(aws-access-key-id: AKIA…\[20 chars\]\), and 1 more finding\(s\); discard or edit the candidate$/,
    );
    assert.doesNotMatch(JSON.stringify(refused), /AKIAIOSFODNN7EXAMPL3/i, 'not even in a path made from the title');
    const warned = build([
      // A random run warns where its line names a credential (the lint's entropy rule needs that context).
      candidate('c-1', { title: 'Build ids', content: 'Session cookies look like Zx9Qw8Lm2Np4Rt6Vb1Hk3Jy5.' }),
    ]);
    assert.deepEqual(
      warned.files[0]!.findings.map((f) => [f.rule, f.severity, f.line]),
      [['high-entropy-string', 'warn', 11]],
    );
  });

  it('refuses what it cannot write: unknown update target, two writers of one entry, over-size, empty', () => {
    const cases: Array<[PlanInput, RegExp]> = [
      [
        input([candidate('c-1', { updatesEntryId: 'm-none' })]),
        /entry m-none, which candidate c-1 updates, is not in the project memory root/,
      ],
      [
        input(
          [candidate('c-1', { updatesEntryId: 'm-hand' }), candidate('c-2', { updatesEntryId: 'm-hand' })],
          [{ path: 'work_fact/h.md', bytes: encode(HAND_EDITED) }],
        ),
        /two candidates would write entry m-hand/,
      ],
      [input([candidate('c-1', { content: 'x'.repeat(MEMORY_ENTRY_MAX_BYTES) })]), /over the 65536-byte limit/],
      [input([candidate('c-1', { content: ' \n\t\n' })]), /has no content/],
      [input([candidate('c-1'), candidate('c-1')]), /named twice/],
      [input([]), /no candidates/],
    ];
    for (const [planInput, message] of cases) {
      const result = buildPromotionPlan(planInput);
      assert.ok(!result.ok);
      assert.match(result.refusal.message, message);
    }
  });

  it('checkPlanIntegrity notices changed bytes and a changed field', () => {
    const plan = build([candidate('c-1')]);
    const tampered = { ...plan, files: [{ ...plan.files[0]!, content: encode(`${decode(plan.files[0]!.content)} `) }] };
    assert.match(checkPlanIntegrity(tampered) ?? '', /do not match their digest/);
    assert.match(checkPlanIntegrity({ ...plan, scope: 'user' }) ?? '', /does not match its digest/);
  });
});

describe('applying a plan', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cm-apply-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function setUp() {
    const rootDir = join(dir, ROOT_PATH);
    mkdirSync(join(rootDir, 'work_fact'), { recursive: true });
    writeFileSync(join(rootDir, 'work_fact', 'Tests_Run.md'), HAND_EDITED);
    writeFileSync(join(rootDir, 'work_fact', 'unrelated.md'), HAND_EDITED.replace('m-hand', 'm-other'));
    const current = ['Tests_Run.md', 'unrelated.md'].map((name) => ({
      path: `work_fact/${name}`,
      bytes: readFileSync(join(rootDir, 'work_fact', name)),
    }));
    const plan = build(
      [
        candidate('c-1'),
        candidate('c-2', { type: 'work_fact', title: 'Second' }),
        candidate('c-3', { updatesEntryId: 'm-hand', content: 'Updated.' }),
      ],
      current,
    );
    const original = new Map(current.map((f) => [f.path, decode(f.bytes)]));
    return { rootDir, plan, original, root: memoryRoot(dir, ROOT_PATH) };
  }

  /** Every file in the memory root, path → text. */
  const files = (rootDir: string) =>
    Object.fromEntries(
      readdirSync(rootDir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => [
          join(e.parentPath, e.name).slice(rootDir.length + 1),
          readFileSync(join(e.parentPath, e.name), 'utf8'),
        ]),
    );

  it('writes each file, skips one that already holds the approved bytes, and stops at drift', () => {
    const { rootDir, plan, root } = setUp();
    assert.deepEqual(driftedTargets(root, plan), []);
    assert.deepEqual(
      plan.files.map((f) => applyPlanFile(root, 'project', f).outcome),
      ['written', 'written', 'written'],
    );
    assert.deepEqual(
      plan.files.map((f) => applyPlanFile(root, 'project', f).outcome),
      ['skipped', 'skipped', 'skipped'],
    );
    for (const file of plan.files) assert.equal(readFileSync(join(rootDir, file.path), 'utf8'), decode(file.content));

    const second = setUp();
    writeFileSync(join(second.rootDir, 'work_fact', 'Tests_Run.md'), `${HAND_EDITED}edited by hand\n`);
    const update = second.plan.files.find((f) => f.action === 'update')!;
    assert.deepEqual(driftedTargets(second.root, second.plan), [update.path]);
    const drift = applyPlanFile(second.root, 'project', update);
    assert.equal(drift.outcome, 'drift');
    assert.equal(readFileSync(join(second.rootDir, update.path), 'utf8'), `${HAND_EDITED}edited by hand\n`);
    // A new file whose path was taken since prepare is drift too.
    const created = second.plan.files.find((f) => f.action === 'create')!;
    mkdirSync(join(second.rootDir, created.path, '..'), { recursive: true });
    writeFileSync(join(second.rootDir, created.path), 'someone else\n');
    assert.deepEqual(applyPlanFile(second.root, 'project', created), {
      outcome: 'drift',
      expected: null,
      found: gitBlobOid(encode('someone else\n')),
    });
  });

  it('one session for a whole plan: the same outcomes, and the directories it made are flushed once, at the end', () => {
    const { rootDir, plan, root } = setUp();
    const session = applySession();
    assert.deepEqual(driftedTargets(root, plan, session), []);
    assert.deepEqual(
      plan.files.map((f) => applyPlanFile(root, 'project', f, {}, session).outcome),
      ['written', 'written', 'written'],
    );
    // work_method/ was made: its parent's fsync is owed to syncPlanDirectories, not done per directory.
    assert.deepEqual([...session.unsynced.keys()], [realpathSync(rootDir)]);
    syncPlanDirectories(root, plan, session);
    syncPlanDirectories(root, plan, session, { ancestors: true });
    for (const file of plan.files) assert.equal(readFileSync(join(rootDir, file.path), 'utf8'), decode(file.content));
    const again = applySession();
    assert.deepEqual(
      plan.files.map((f) => applyPlanFile(root, 'project', f, {}, again).outcome),
      ['skipped', 'skipped', 'skipped'],
    );
  });

  it('a session checks a directory once, yet refuses it once it became a link: nothing is read or created through it', () => {
    const { rootDir, plan, root } = setUp();
    const session = applySession();
    const [created, update] = [
      plan.files.find((f) => f.action === 'create' && f.path.startsWith('work_fact/'))!,
      plan.files.find((f) => f.action === 'update')!,
    ];
    assert.equal(applyPlanFile(root, 'project', created, {}, session).outcome, 'written');
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    renameSync(join(rootDir, 'work_fact'), join(dir, 'moved'));
    symlinkSync(outside, join(rootDir, 'work_fact'));
    assert.throws(
      () => applyPlanFile(root, 'project', update, {}, session),
      (error) => error instanceof MemoryFileError && error.code === 'changed',
    );
    assert.deepEqual(readdirSync(outside), []);
  });

  it('refuses bytes that do not match the approved digest', () => {
    const { plan, root } = setUp();
    assert.throws(
      () => applyPlanFile(root, 'project', { ...plan.files[0]!, content: encode('other') }),
      /do not match the approved digest/,
    );
  });

  it('kill -9 at every step: each file is untouched or exactly the approved bytes, and a rerun finishes', () => {
    const child = fileURLToPath(new URL('../support/apply-plan-child.ts', import.meta.url));
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    let killPoints = 0;
    for (let index = 0; index < 3; index++) {
      for (const where of ['rename', 'after']) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
        const { rootDir, plan, original } = setUp();
        const planFile = join(dir, 'plan.json');
        writeFileSync(
          planFile,
          JSON.stringify({
            anchor: dir,
            rootPath: ROOT_PATH,
            scope: 'project',
            files: plan.files.map((f) => ({
              ...f,
              content: undefined,
              contentBase64: Buffer.from(f.content).toString('base64'),
            })),
          }),
        );
        const run = (env: NodeJS.ProcessEnv) =>
          spawnSync(process.execPath, ['--import', 'tsx', child, planFile], {
            cwd,
            encoding: 'utf8',
            env: { ...process.env, ...env },
            timeout: 60_000,
          });
        const killed = run({ CM_KILL_AT: `${where}:${index}` });
        assert.equal(killed.signal, 'SIGKILL', `${where}:${index} was not killed: ${killed.stderr}`);
        killPoints++;
        const applied = where === 'after' ? index + 1 : index;
        const after = files(rootDir);
        plan.files.forEach((file, i) => {
          const approved = decode(file.content);
          const untouched = original.get(file.path);
          if (i < applied)
            assert.equal(after[file.path], approved, `${where}:${index}: ${file.path} should be applied`);
          else assert.equal(after[file.path], untouched, `${where}:${index}: ${file.path} should be untouched`);
        });
        assert.equal(after['work_fact/unrelated.md'], original.get('work_fact/unrelated.md'));

        const resumed = run({});
        assert.equal(resumed.status, 0, resumed.stderr);
        const steps = resumed.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line));
        assert.deepEqual(steps.pop(), { done: true });
        assert.deepEqual(
          steps.map((s) => s.outcome),
          plan.files.map((_, i) => (i < applied ? 'skipped' : 'written')),
          `${where}:${index}: nothing is written twice`,
        );
        const final = files(rootDir);
        for (const file of plan.files) assert.equal(final[file.path], decode(file.content));
        assert.deepEqual(
          Object.keys(final).sort(),
          [...new Set([...plan.files.map((f) => f.path), 'work_fact/unrelated.md'])].sort(),
          'no temporary file is left',
        );
        assert.equal(existsSync(join(dir, 'work_fact')), false, 'nothing outside the root');
      }
    }
    assert.equal(killPoints, 6);
  });
});
