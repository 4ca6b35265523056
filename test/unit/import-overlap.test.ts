// runImport keeps up to IMPORT_STEPS_IN_FLIGHT steps in flight, across file boundaries, and records
// what each file came to in file order. A fake sink whose commits the test releases.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ImportProgress } from '../../source/api/capture.js';
import {
  type ImportCommitOutcome,
  type ImportSink,
  type ImportStep,
  runImport,
} from '../../source/hosts/import-run.js';
import { IMPORT_STEPS_IN_FLIGHT } from '../../source/limits.js';
import { rolloutFixture } from '../support/capture.js';

/** A Codex home with the given fixture rollouts, oldest first (import order is by mtime). */
function codexHome(fixtures: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'cm-import-overlap-'));
  const dir = join(root, 'sessions', '2026', '11', '30');
  mkdirSync(dir, { recursive: true });
  fixtures.forEach((name, i) => {
    const path = join(dir, `rollout-${String(i).padStart(2, '0')}-${name}`);
    copyFileSync(rolloutFixture(name), path);
    const at = new Date(Date.UTC(2026, 10, 30, 12, i)).getTime() / 1000;
    utimesSync(path, at, at);
  });
  return root;
}

const plan = (root: string) => ({
  client: 'codex' as const,
  root,
  sinceMs: 0,
  untilMs: Number.POSITIVE_INFINITY,
  repository: null,
  dryRun: false,
});

interface Deferred {
  step: ImportStep;
  release(outcome: ImportCommitOutcome): void;
  fail(error: Error): void;
}

/** A sink whose commits wait until the test releases them; `inFlight` counts unreleased ones. */
function heldSink() {
  const held: Deferred[] = [];
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const sink: ImportSink = {
    cursor: () => undefined,
    commit: (step) =>
      new Promise<ImportCommitOutcome>((resolve, reject) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        events.push(`commit ${step.path.split('/').pop()}`);
        const done = () => {
          inFlight -= 1;
        };
        held.push({
          step,
          release: (outcome) => {
            done();
            resolve(outcome);
          },
          fail: (error) => {
            done();
            reject(error);
          },
        });
      }),
    quarantine: async (path) => {
      events.push(`quarantine ${path.split('/').pop()}`);
    },
  };
  return { sink, held, events, maxInFlight: () => maxInFlight };
}

const applied = (step: ImportStep): ImportCommitOutcome => ({
  outcome: 'applied',
  sealed: step.turns.length,
  skipped: 0,
  skippedLive: 0,
  sessionKey: step.hostSessionId,
});

/** Waits until `check` holds, giving the import's promises and file reads time to run. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!check()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('import: steps in flight across files', () => {
  it('sends the next file’s step before the one before it is answered, never more than the window', async () => {
    assert.equal(IMPORT_STEPS_IN_FLIGHT, 2);
    const root = codexHome(['a-simple-one-turn.jsonl', 'c-resumed-two-turns.jsonl', 'b-tool-call-exec-command.jsonl']);
    const { sink, held, events, maxInFlight } = heldSink();
    const progress: ImportProgress[] = [];
    const running = runImport(plan(root), sink, (p) => progress.push(p));
    // The second file's step goes while the first file's is still held.
    await until(() => held.length === 2, 'the second file’s step');
    // The third file parses, but its step waits: two are in flight.
    await until(() => progress.some((p) => p.filesDone === 3), 'the third file parsing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(held.length, 2, 'no third step while two are in flight');
    held[0]!.release(applied(held[0]!.step));
    await until(() => held.length === 3, 'the third file’s step');
    held[2]!.release(applied(held[2]!.step));
    held[1]!.release(applied(held[1]!.step));
    const report = await running;
    assert.equal(maxInFlight(), IMPORT_STEPS_IN_FLIGHT);
    assert.equal(report.files, 3);
    assert.equal(report.sessions, 3);
    assert.equal(
      report.turns,
      held.reduce((sum, h) => sum + h.step.turns.length, 0),
    );
    assert.deepEqual(
      events.map((e) => e.split(' ')[0]),
      ['commit', 'commit', 'commit'],
    );
  });

  it('records what each file came to in file order, whichever step is answered first', async () => {
    const root = codexHome(['a-simple-one-turn.jsonl', 'd-failed-turn-http400.jsonl']);
    const { sink, held, events } = heldSink();
    const progress: ImportProgress[] = [];
    const running = runImport(plan(root), sink, (p) => progress.push(p));
    await until(() => held.length === 2, 'both files’ steps');
    // The second file's step is answered first; the first file's is refused after it.
    held[1]!.release(applied(held[1]!.step));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(progress.at(-1)?.sessions ?? 0, 0, 'the second file is not counted before the first is settled');
    held[0]!.release({ outcome: 'rejected', code: 'capture_invalid', detail: 'refused by the test' });
    const report = await running;
    assert.equal(report.quarantined, 1);
    assert.equal(report.sessions, 1);
    assert.equal(report.turns, held[1]!.step.turns.length);
    assert.deepEqual(
      report.notes.map((n) => [n.what, n.path.split('/').pop()]),
      [['quarantined', held[0]!.step.path.split('/').pop()]],
    );
    assert.match(events.join('\n'), /^commit .*\ncommit .*\nquarantine /);
  });

  it('fails the import when the writer fails a step, sends nothing after, and returns once nothing is in flight', async () => {
    const root = codexHome(['a-simple-one-turn.jsonl', 'c-resumed-two-turns.jsonl', 'd-failed-turn-http400.jsonl']);
    const { sink, held } = heldSink();
    let settled = false;
    const running = runImport(plan(root), sink).finally(() => {
      settled = true;
    });
    running.catch(() => undefined);
    await until(() => held.length === 2, 'two steps in flight');
    held[0]!.fail(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(settled, false, 'the import waits for the step still in flight');
    held[1]!.release(applied(held[1]!.step));
    await assert.rejects(running, /disk I\/O error/);
    assert.equal(held.length, 2, 'nothing was sent after the failure was known');
  });
});
