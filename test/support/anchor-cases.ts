// Builds the labelled staleness cases (test/corpus/anchors/*.jsonl) as real git repositories: the
// case's files committed, its placeholders filled with the base commit, its change applied (and
// committed where it says so). Shared by the anchor-quality bench and its test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnchorCase } from '../corpus/anchors/generate.js';
import { seededRandom } from './seeded-random.js';

export type { AnchorCase } from '../corpus/anchors/generate.js';

const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'corpus', 'anchors');

export function readAnchorCases(split: 'test' | 'train'): AnchorCase[] {
  return readFileSync(join(CORPUS, `${split}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AnchorCase);
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Git keeps no empty directory: a checkout that removes a directory's last file removes the directory. */
function pruneEmptyParents(root: string, path: string): void {
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
    if (readdirSync(join(root, dir)).length > 0) return;
    rmdirSync(join(root, dir));
  }
}

/** Materialises a case in `root` (an empty directory); returns the entry text with placeholders filled. */
export function buildCase(root: string, testCase: AnchorCase, seed: number): { title: string; body: string } {
  writeFiles(root, testCase.files);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  const head = git(root, 'rev-parse', 'HEAD');
  const random = seededRandom(seed);
  let gone = '';
  // A commit id that is not in this repository (another clone's, or rewritten history).
  do gone = Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
  while (!/[0-9]/.test(gone.slice(0, 7)) || !/[a-f]/.test(gone.slice(0, 7)) || gone.startsWith(head.slice(0, 7)));
  const fill = (text: string) =>
    text
      .replaceAll('{{HEAD7}}', head.slice(0, 7))
      .replaceAll('{{HEAD}}', head)
      .replaceAll('{{GONE7}}', gone.slice(0, 7))
      .replaceAll('{{GONE}}', gone);
  for (const change of testCase.change) {
    if (change.op === 'delete') {
      rmSync(join(root, change.path), { force: true });
      pruneEmptyParents(root, change.path);
    } else if (change.op === 'write') writeFiles(root, { [change.path]: change.content });
    else if (change.op === 'rename') {
      mkdirSync(dirname(join(root, change.to)), { recursive: true });
      renameSync(join(root, change.from), join(root, change.to));
      pruneEmptyParents(root, change.from);
    } else {
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--allow-empty', '-m', 'change');
    }
  }
  return { title: fill(testCase.entry.title), body: fill(testCase.entry.body) };
}
