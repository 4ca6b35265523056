// Snapshot coverage (issue 28, item 4): a repository with 300 approved entries in ten scenes of
// thirty (the text generated here: ten areas of a made-up web service, thirty practices each), synced
// by a real `memory sync`. How many of the entries are reachable from the 8 KiB SessionStart
// snapshot — given in it, or indexed through a scene it lists — without scene files and with them.
// The snapshot is read as the hook reads it (readSessionSnapshot, store read of memory-state).
// `npm run bench -- snapshot-coverage`
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { MEMORY_SCAN_RACY_MS, MEMORY_SNAPSHOT_MAX_BYTES } from '../../source/limits.js';
import { formatConsolidationFile } from '../../source/memory/consolidation/scene-format.js';
import { formatEntry } from '../../source/memory/entry-format.js';
import { sleepSync } from '../../source/ground/sleep-sync.js';
import { readSessionSnapshot } from '../../source/store/memory/snapshot-read.js';
import { BIN, tempHome } from '../support/cli.js';
import { type Figure, report } from './measure.js';

const ENTRIES = 300;

/** Ten areas of a made-up service: a name, what a scene of it applies to, and words its notes use. */
const AREAS: Array<{ name: string; applies: string; noun: string; tool: string }> = [
  { name: 'release-train', applies: 'cutting or shipping a release', noun: 'release', tool: 'the release script' },
  { name: 'schema-changes', applies: 'changing the database schema', noun: 'migration', tool: 'the migration runner' },
  { name: 'api-handlers', applies: 'adding or changing an HTTP handler', noun: 'handler', tool: 'the router' },
  { name: 'frontend-forms', applies: 'building forms in the web client', noun: 'form', tool: 'the form kit' },
  { name: 'test-suite', applies: 'writing or fixing tests', noun: 'test', tool: 'the test runner' },
  { name: 'on-call', applies: 'handling an alert or an outage', noun: 'alert', tool: 'the paging tool' },
  { name: 'billing-jobs', applies: 'touching the nightly billing jobs', noun: 'invoice', tool: 'the job queue' },
  { name: 'search-index', applies: 'changing what the search index holds', noun: 'index', tool: 'the reindex task' },
  { name: 'auth-sessions', applies: 'working on login and sessions', noun: 'token', tool: 'the session store' },
  { name: 'docs-site', applies: 'editing the documentation site', noun: 'page', tool: 'the docs builder' },
];

/** Thirty things a team may settle about an area, as verbs over its noun and tool. */
const PRACTICES = [
  'name each %n after the ticket it serves',
  'run %t twice before trusting a green result',
  'keep one %n per change so reviews stay short',
  'log the id of every %n that fails',
  'never edit a %n by hand once it is merged',
  'ask the area owner before removing a %n',
  'pin the version %t uses in the lock file',
  'write the reason for a %n in its description',
  'prefer small %n changes over one large one',
  'check the dashboard after %t finishes',
  'retry a flaky %n once, then open an issue',
  'keep secrets out of every %n and its logs',
  'start %t from a clean checkout',
  'tag each %n with the team that owns it',
  'read the last three incidents before changing a %n',
  'measure how long %t takes and note regressions',
  'document every %n flag in the area readme',
  'delete a %n only after a week without traffic',
  'run %t locally before pushing',
  'link the design note from each new %n',
  'keep the %n format stable across versions',
  'use the shared helper instead of a custom %n',
  'announce a %n change in the team channel',
  'add a rollback step for each %n',
  'review %t output in full, not only the summary',
  'keep %n names lower case with dashes',
  'write a test for every %n bug before the fix',
  'avoid a %n that depends on wall-clock time',
  'ship a %n behind a switch when it changes behaviour',
  'update %t configuration in the same change as the %n',
];

function writeRepo(home: string): { repo: string; root: string } {
  const repo = join(home, '..', 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const root = join(repo, '.common-memory', 'memory');
  mkdirSync(join(root, 'work_method'), { recursive: true });
  for (let i = 0; i < ENTRIES; i++) {
    const area = AREAS[i % AREAS.length]!;
    const practice = PRACTICES[Math.floor(i / AREAS.length)]!.replaceAll('%n', area.noun).replaceAll('%t', area.tool);
    const id = `${area.name}-${String(Math.floor(i / AREAS.length)).padStart(2, '0')}`;
    const text = formatEntry({
      id,
      type: 'work_method',
      title: `${area.name.replace('-', ' ')}: ${practice}`,
      appliesWhen: area.applies,
      priority: 30 + ((i * 37) % 60),
      confidence: 'high',
      evidence: { summary: 'settled in review' },
      created: '2026-11-30',
      supersedes: [],
      extra: [],
      body: `In the ${area.name.replace('-', ' ')} area we ${practice}.\nThe team agreed on this after it bit someone once.\n`,
    });
    writeFileSync(join(root, 'work_method', `${id}.md`), text);
  }
  return { repo, root };
}

function writeScenes(root: string): void {
  mkdirSync(join(root, 'scenes'), { recursive: true });
  for (const area of AREAS) {
    const entries = Array.from({ length: PRACTICES.length }, (_, k) => `${area.name}-${String(k).padStart(2, '0')}`);
    const text = formatConsolidationFile({
      kind: 'scene',
      name: area.name,
      title: `The ${area.name.replace('-', ' ')} area`,
      appliesWhen: area.applies,
      entries,
      extra: [],
      body: `What the team settled about the ${area.name.replace('-', ' ')} area.\n`,
    });
    writeFileSync(join(root, 'scenes', `${area.name}.md`), text);
  }
}

function sync(home: string, repo: string): void {
  sleepSync(MEMORY_SCAN_RACY_MS + 100);
  execFileSync(process.execPath, [BIN, 'memory', 'sync', '--home', home, '--json'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

export interface Coverage {
  given: number;
  indexed: number;
  scenes: number;
  bytes: number;
  /** Median time of the store read the hook makes (no follow), in ms, over READS runs. */
  readMs: number;
}

const READS = 21;

function coverage(home: string, repo: string): Coverage {
  const path = storeFiles(home).memoryState;
  const snapshot = readSessionSnapshot(path, repo, 'cm', MEMORY_SNAPSHOT_MAX_BYTES);
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    readSessionSnapshot(path, repo, 'cm', MEMORY_SNAPSHOT_MAX_BYTES);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    readMs: times[Math.floor(READS / 2)]!,
    given: snapshot.entryIds.length,
    indexed: snapshot.indexed ?? 0,
    scenes: snapshot.scenes?.length ?? 0,
    bytes: snapshot.bytes,
  };
}

export async function runSnapshotCoverageBench(): Promise<Figure[]> {
  const home = tempHome('bench-snapshot-coverage');
  try {
    const { repo, root } = writeRepo(home);
    sync(home, repo);
    const before = coverage(home, repo);
    writeScenes(root);
    sync(home, repo);
    const after = coverage(home, repo);
    const figures: Figure[] = [
      {
        name: `entries reachable from the 8 KiB snapshot, ${ENTRIES} approved, no scene files`,
        value: `${before.given} (${before.given} given, ${before.bytes} bytes)`,
        target: 'reported',
        met: null,
      },
      {
        name: `entries reachable from the 8 KiB snapshot, ${ENTRIES} approved in 10 scenes of 30`,
        value: `${after.given + after.indexed} (${after.given} given + ${after.indexed} through ${after.scenes} scenes, ${after.bytes} bytes)`,
        target: `all ${ENTRIES}`,
        met: after.given + after.indexed === ENTRIES && after.bytes <= MEMORY_SNAPSHOT_MAX_BYTES,
      },
      {
        name: 'the snapshot store read (open, select, close; no follow), median of 21',
        value: `${after.readMs.toFixed(2)} ms with scenes`,
        floor: `${before.readMs.toFixed(2)} ms without`,
        ratio: after.readMs / before.readMs,
        target: 'reported',
        met: null,
      },
    ];
    report(figures);
    return figures;
  } finally {
    rmSync(join(home, '..'), { recursive: true, force: true });
  }
}
