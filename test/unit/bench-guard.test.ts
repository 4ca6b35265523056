// The ratio guard's rules (test/bench/guard.ts): which figure fails, and why. The end-to-end check
// (a planted 2x slowdown of a real drain fails `--check`) is in test/bench/guard.test.ts, run with
// the benches because it drains real stores.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lastRatios, readHistory, recordRun, verdicts } from '../bench/guard.js';
import type { Figure } from '../bench/measure.js';

const rate = (ratio: number, met: boolean | null = true): Figure => ({
  name: 'drain',
  value: 'x',
  ratio,
  target: 't',
  met,
  id: 'drain.warm',
  better: 'higher',
});
const time = (ratio: number): Figure => ({
  name: 'hook',
  value: 'x',
  ratio,
  target: 't',
  met: null,
  id: 'hook.dispatch',
  better: 'lower',
});

describe('bench ratio guard', () => {
  it('fails a rate that fell more than 25% under its last recorded ratio, naming the figure', () => {
    const last = new Map([['drain.warm', 0.6]]);
    const [halved] = verdicts([rate(0.3)], last);
    assert.equal(halved!.ok, false);
    assert.match(halved!.message, /drain\.warm: ratio 0\.30 is worse than the last recorded 0\.60 by more than 25%/);
    assert.equal(verdicts([rate(0.5)], last)[0]!.ok, true); // 20% worse: within the tolerance
    assert.equal(verdicts([rate(0.9)], last)[0]!.ok, true);
  });

  it('fails a time ratio that grew more than 25%, and passes one that shrank', () => {
    const last = new Map([['hook.dispatch', 1.2]]);
    assert.equal(verdicts([time(1.6)], last)[0]!.ok, false);
    assert.equal(verdicts([time(1.4)], last)[0]!.ok, true);
    assert.equal(verdicts([time(0.9)], last)[0]!.ok, true);
  });

  it('fails a figure that misses its target even without a recorded ratio, and ignores figures without an id', () => {
    const [missed] = verdicts([rate(0.7, false)], new Map());
    assert.equal(missed!.ok, false);
    assert.match(missed!.message, /drain\.warm: misses its target/);
    assert.deepEqual(verdicts([{ name: 'other', value: 'x', target: 't', met: false }], new Map()), []);
  });

  it('records each run as one line and compares with the latest ratio of each figure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cm-guard-'));
    try {
      const path = join(dir, 'history.jsonl');
      recordRun([rate(0.4), time(1.3)], path);
      recordRun([rate(0.6)], path);
      assert.equal(readFileSync(path, 'utf8').trim().split('\n').length, 2);
      const history = readHistory(path);
      assert.equal(typeof history[0]!.commit, 'string');
      assert.equal(typeof history[0]!.load, 'number');
      const last = lastRatios(history);
      assert.equal(last.get('drain.warm'), 0.6);
      assert.equal(last.get('hook.dispatch'), 1.3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
