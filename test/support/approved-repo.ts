// A git repository with one approved project entry and one user entry, written as canonical
// Markdown files into their memory roots and synced by `memory sync` in this process
// (support/cli-in-process.ts): the state the tests start from, not what they test (a spawn of the bin
// is about 0.6 s of CPU; the sync through the shipped process is tested where it is the subject).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitRepo, tempHome } from './cli.js';
import { runCliInProcess } from './cli-in-process.js';

export const ENTRY = (id: string, title: string, body: string) => `---
id: ${id}
type: work_method
title: ${title}
appliesWhen: working in this repository
priority: 50
---
${body}
`;

export function writeEntry(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A repository with one project entry and one user entry, synced into the approved projection. */
export async function syncedRepo(label: string): Promise<{ home: string; repo: string }> {
  const home = tempHome(label);
  const repo = gitRepo(home, 'repo');
  writeEntry(
    join(repo, '.common-memory', 'memory'),
    'work_method/use-pnpm.md',
    ENTRY('use-pnpm', 'Use pnpm, not npm', 'Install with pnpm install; the lockfile is pnpm-lock.yaml.'),
  );
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeEntry(
    join(home, 'memory'),
    'work_method/named-exports.md',
    ENTRY('named-exports', 'Prefer named exports', 'Use named exports in TypeScript modules.'),
  );
  const sync = await runCliInProcess(['memory', 'sync', '--home', home, '--json'], { cwd: repo });
  assert.equal(sync.code, 0, sync.stderr);
  return { home, repo };
}
