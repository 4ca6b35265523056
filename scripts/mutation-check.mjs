#!/usr/bin/env node
// Mutation check, run on demand (not part of `npm test`): puts deliberate bugs into a copy of the
// repository one at a time, runs the tests that should catch each, and prints which survived.
// A surviving mutation is a gap in the tests, not a bug in the code.
//
//   node scripts/mutation-check.mjs                  every mutation
//   node scripts/mutation-check.mjs --only a,b       only these (ids from --list)
//   node scripts/mutation-check.mjs --list           the mutations and their tests
//   node scripts/mutation-check.mjs --keep           keep the copy (its path is printed)
//
// The copy holds the working tree as it is (tracked and untracked files, without what .gitignore
// excludes), with node_modules linked to this checkout's. Before any mutation, the tests of every
// selected mutation run once unmutated: a mutation counts only against tests that pass without it.
// Each mutation runs only the tests its `pattern` names (--test-name-pattern: the suites written
// for the rule it breaks), so that the whole check fits in well under an hour on two cores: with
// every test of each file it took longer than a working session, and only half the mutations ran.
// A mutation whose text does not occur exactly once is skipped and named in the summary; the
// others still run. Exit status: 0 when every mutation was caught, 1 when one survived or was
// skipped, or a baseline failed.
import { spawn, execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TEST_TIMEOUT_MS = 15 * 60_000;

/**
 * Each mutation: the exact text to replace (it must occur once), its replacement, the test files
 * that should fail and the name pattern of the tests in them that should, and whether those tests
 * run the built CLI (then the copy is rebuilt with the bug).
 */
const MUTATIONS = [
  {
    id: 'record-limit-in-utf16-units',
    file: 'source/store/core/journal.ts',
    from: 'const bytes = Buffer.byteLength(text);',
    to: 'const bytes = text.length;',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'RECORD_MAX_BYTES',
    build: true,
  },
  {
    id: 'record-limit-refuses-the-limit',
    file: 'source/store/core/journal.ts',
    from: 'if (bytes > RECORD_MAX_BYTES) {',
    to: 'if (bytes >= RECORD_MAX_BYTES) {',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'RECORD_MAX_BYTES',
    build: true,
  },
  {
    id: 'busy-check-removed-from-the-host-runtime',
    file: 'source/hosts/pi/agent-manager.ts',
    from: 'if (slot.runtime.busy)\n        throw',
    to: 'if (Number.isNaN(0))\n        throw',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'busy agent',
  },
  {
    id: 'busy-check-removed-from-the-store',
    file: 'source/store/core/prompts.ts',
    from: 'if (agent.active_operation_id) {',
    to: 'if (Number.isNaN(0)) {',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'busy agent',
  },
  {
    id: 'recovery-page-ends-with-an-empty-page',
    file: 'source/store/core/capture-reads.ts',
    from: 'nextRecoveryId: rows.length > size && last',
    to: 'nextRecoveryId: rows.length >= size && last',
    tests: ['test/cli/paging.test.ts'],
    pattern: 'recovery pages',
    build: true,
  },
  {
    id: 'page-bytes-refuse-the-limit',
    file: 'source/store/core/history-reads.ts',
    from: 'if (rows.length > 0 && bytes + size > PAGE_MAX_BYTES) break;',
    to: 'if (rows.length > 0 && bytes + size >= PAGE_MAX_BYTES) break;',
    tests: ['test/e2e/limits.test.ts', 'test/store/store.test.ts'],
    pattern: 'PAGE_MAX_BYTES|keyset pages',
    build: true,
  },
  {
    id: 'page-rows-refuse-the-maximum',
    file: 'source/store/core/history-reads.ts',
    from: 'request.limit > PAGE_LIMIT_MAX) {',
    to: 'request.limit >= PAGE_LIMIT_MAX) {',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'counted limits',
    build: true,
  },
  {
    id: 'request-body-refuses-the-limit',
    file: 'source/host/api-server.ts',
    from: 'if (size > REQUEST_BODY_MAX_BYTES)',
    to: 'if (size >= REQUEST_BODY_MAX_BYTES)',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'REQUEST_BODY_MAX_BYTES',
    build: true,
  },
  {
    id: 'hook-stdin-refuses-the-limit',
    file: 'source/hook/stdin-read.ts',
    from: 'const over = filled > bound;',
    to: 'const over = filled >= bound;',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'HOOK_STDIN_MAX_BYTES',
    build: true,
  },
  {
    id: 'hook-tail-refuses-the-limit',
    file: 'source/hook/transcript-tail.ts',
    from: 'if (size - from > maxBytes)',
    to: 'if (size - from >= maxBytes)',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'HOOK_TAIL_MAX_BYTES',
    build: true,
  },
  {
    id: 'transcript-line-refuses-the-limit',
    file: 'source/hosts/jsonl-cursor.ts',
    from: 'if (end - pos > TRANSCRIPT_LINE_MAX_BYTES)',
    to: 'if (end - pos >= TRANSCRIPT_LINE_MAX_BYTES)',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'TRANSCRIPT_LINE_MAX_BYTES',
  },
  {
    id: 'sequence-passes-its-ceiling',
    file: 'source/store/core/sequences.ts',
    from: 'if (row.head >= SEQUENCE_MAX) {',
    to: 'if (row.head > SEQUENCE_MAX) {',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'SEQUENCE_MAX',
  },
  {
    id: 'session-capacity-refuses-the-limit',
    file: 'source/store/core/capture-sessions.ts',
    from: 'if (session > limits.sessionBytes) {',
    to: 'if (session >= limits.sessionBytes) {',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'capture capacity',
  },
  {
    id: 'total-capacity-refuses-the-limit',
    file: 'source/store/core/capture-sessions.ts',
    from: 'if (total > limits.totalBytes) {',
    to: 'if (total >= limits.totalBytes) {',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'capture capacity',
  },
  {
    id: 'session-page-ends-with-an-empty-page',
    file: 'source/store/core/capture-reads.ts',
    from: 'nextSessionKey: rows.length > limit ?',
    to: 'nextSessionKey: rows.length >= limit ?',
    tests: ['test/cli/paging.test.ts'],
    pattern: 'session pages',
    build: true,
  },
  {
    id: 'prompt-replay-sent-to-the-runtime',
    file: 'source/host/agents-service.ts',
    from: 'const earlier = findOperation(this.reader, operationId);\n    if (earlier) {',
    to: 'const earlier = findOperation(this.reader, operationId);\n    if (earlier && Number.isNaN(0)) {',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'replay and conflict',
  },
  {
    id: 'note-replay-ignored-in-the-store',
    file: 'source/store/core/notes.ts',
    from: 'if (earlier) return { storeId, operationId, sequence: earlier.journal_sequence, replayed: true };',
    to: '',
    tests: ['test/store/store.test.ts'],
    pattern: 'notes and replay',
  },
  {
    id: 'recovery-step-ignores-the-open-item',
    file: 'source/store/core/capture-sessions.ts',
    from: "if ((open?.recovery_id ?? null) !== input.recoveryId) return { outcome: 'stale' };",
    to: '',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'recovery: the drain engine',
  },
  {
    id: 'recovery-of-a-closed-item-not-refused',
    file: 'source/workers/drain-engine.ts',
    from: "if (item.state !== 'open')\n      throw",
    to: 'if (Number.isNaN(0))\n      throw',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'recovery: the drain engine',
  },
  {
    id: 'install-apply-skips-the-ownership-check',
    file: 'source/hosts/integrations.ts',
    from: 'export function applyInstall(plan: IntegrationPlan, options: { fault?: WriteFault } = {}): IntegrationApplyResult {\n  assertApplicable(plan);',
    to: 'export function applyInstall(plan: IntegrationPlan, options: { fault?: WriteFault } = {}): IntegrationApplyResult {',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'install ownership',
  },
  {
    id: 'install-command-skips-the-ownership-check',
    file: 'source/cli/commands/install.ts',
    from: '  assertApplicable(plan);\n  let applied',
    to: '  let applied',
    tests: ['test/cli/layers.test.ts'],
    pattern: 'install ownership',
    build: true,
  },
  {
    id: 'operation-id-one-character-longer',
    file: 'source/api/common.ts',
    from: '[A-Za-z0-9._:-]{0,127}$/',
    to: '[A-Za-z0-9._:-]{0,128}$/',
    tests: ['test/e2e/limits.test.ts'],
    pattern: 'counted limits',
    build: true,
  },
  {
    id: 'journal-page-skips-its-first-row',
    file: 'source/store/core/history-reads.ts',
    from: 'ORDER BY sequence LIMIT ?`).all(\n          request.after,',
    to: 'ORDER BY sequence LIMIT ?`).all(\n          request.after + 1,',
    tests: ['test/cli/paging.test.ts'],
    pattern: 'journal and timeline pages',
    build: true,
  },
];

function parseArgs(argv) {
  const args = { only: null, list: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only') args.only = new Set(argv[++i].split(','));
    else if (argv[i] === '--list') args.list = true;
    else if (argv[i] === '--keep') args.keep = true;
    else
      throw new Error(`unknown argument ${argv[i]} (see the comment at the top of ${fileURLToPath(import.meta.url)})`);
  }
  return args;
}

/** The working tree without ignored files, node_modules linked. */
function copyRepository() {
  const dir = mkdtempSync(join(tmpdir(), 'cm-mutation-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    let source;
    try {
      source = realpathSync(join(ROOT, file));
    } catch {
      continue; // deleted in the working tree
    }
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(source, join(dir, file));
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  return dir;
}

function run(command, args, cwd, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL'); // the test runner's whole group: hosts and pi children too
      } catch {}
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

const build = (dir) => run('npm', ['run', 'build'], dir, 5 * 60_000);
const runTests = (dir, tests, pattern) =>
  run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', `--test-name-pattern=${pattern}`, ...tests],
    dir,
    TEST_TIMEOUT_MS,
  );

/** The first failing test's name in the runner's TAP output (a subtest before its suite). */
function firstFailure(output) {
  const failures = [...output.matchAll(/^(\s*)not ok \d+ - (.*)$/gm)].sort((a, b) => b[1].length - a[1].length);
  return failures[0]?.[2] ?? '(the test run failed without a failing test: see its output)';
}

/** How often the mutation's text occurs in its file (0 when the file is gone). */
function occurrences(dir, mutation) {
  let text;
  try {
    text = readFileSync(join(dir, mutation.file), 'utf8');
  } catch {
    return 0;
  }
  return text.split(mutation.from).length - 1;
}

/** Puts the bug in; returns how to take it out again. The caller checked that the text occurs once. */
function apply(dir, mutation) {
  const path = join(dir, mutation.file);
  const original = readFileSync(path, 'utf8');
  writeFileSync(
    path,
    original.replace(mutation.from, () => mutation.to),
  );
  return () => writeFileSync(path, original);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const selected = MUTATIONS.filter((m) => !args.only || args.only.has(m.id));
  if (args.list) {
    for (const m of MUTATIONS) {
      const count = occurrences(ROOT, m);
      const where = count === 1 ? '' : `  [the text occurs ${count} times: update the mutation]`;
      console.log(
        `${m.id}${where}\n  ${m.file}: ${JSON.stringify(m.from)} → ${JSON.stringify(m.to)}\n  tests: ${m.tests.join(' ')} matching /${m.pattern}/${m.build ? ' (built CLI)' : ''}`,
      );
    }
    return 0;
  }
  if (selected.length === 0) throw new Error('no mutation selected; see --list');
  const dir = copyRepository();
  console.log(`copy: ${dir}`);
  try {
    const built = await build(dir);
    if (built.code !== 0) throw new Error(`the unmutated copy does not build:\n${built.output}`);
    const baseline = [...new Set(selected.flatMap((m) => m.tests))];
    const patterns = [...new Set(selected.map((m) => m.pattern))].map((p) => `(?:${p})`).join('|');
    console.log(`baseline: ${baseline.join(' ')} (tests matching ${patterns})`);
    const base = await runTests(dir, baseline, patterns);
    if (base.code !== 0) {
      console.log(`baseline FAILED (${firstFailure(base.output)}): fix the tests first; no mutation was run`);
      return 1;
    }
    // Mutations that need no build first, while dist/ is the unmutated build.
    const ordered = [...selected.filter((m) => !m.build), ...selected.filter((m) => m.build)];
    const results = [];
    // A mutation whose text no longer occurs once (the code moved on) is skipped and reported, not
    // counted: the others still run, and the summary names what needs updating.
    const skipped = [];
    for (const mutation of ordered) {
      const count = occurrences(dir, mutation);
      if (count !== 1) {
        skipped.push(mutation.id);
        console.log(`SKIPPED  ${mutation.id}: its text occurs ${count} times in ${mutation.file}; update the mutation`);
        continue;
      }
      const restore = apply(dir, mutation);
      const started = Date.now();
      let result;
      try {
        if (mutation.build) {
          const b = await build(dir);
          if (b.code !== 0) {
            result = { id: mutation.id, caught: true, by: 'the build (tsc) refused it' };
          }
        }
        if (!result) {
          const t = await runTests(dir, mutation.tests, mutation.pattern);
          result =
            t.code === 0
              ? { id: mutation.id, caught: false, by: '' }
              : { id: mutation.id, caught: true, by: t.signal ? `timed out (${t.signal})` : firstFailure(t.output) };
        }
      } finally {
        restore();
      }
      result.seconds = Math.round((Date.now() - started) / 1000);
      results.push(result);
      console.log(
        `${result.caught ? 'caught  ' : 'SURVIVED'} ${mutation.id} (${result.seconds} s)${result.caught ? `: ${result.by}` : ` — ${mutation.file}, tests ${mutation.tests.join(' ')}`}`,
      );
    }
    const survived = results.filter((r) => !r.caught);
    console.log(
      `\n${results.length - survived.length} of ${results.length} mutations caught${survived.length ? `; survived: ${survived.map((r) => r.id).join(', ')}` : ''}${skipped.length ? `; skipped (text not found once): ${skipped.join(', ')}` : ''}`,
    );
    return survived.length === 0 && skipped.length === 0 ? 0 : 1;
  } finally {
    if (args.keep) console.log(`kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
