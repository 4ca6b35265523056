// A run's default window (source/memory/run-request.ts runWindow): it ends now, or just past the
// last sealed turn when the seal instants of one drain step run ahead of the clock (a session of
// many turns sealed at once: nextSealInstant gives each its own millisecond from the seal on).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runWindow } from '../../source/memory/run-request.js';
import { nextSealInstant } from '../../source/store/core/capture-sessions.js';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');

describe('a run window by default', () => {
  it('takes in every turn one step sealed, its instants ahead of the clock included', () => {
    // 250 turns sealed in one step at NOW: their instants, as the writer gives them.
    const instants: number[] = [];
    for (let i = 0; i < 250; i++) instants.push(nextSealInstant(NOW, instants.at(-1) ?? -1));
    const window = runWindow(
      {},
      () => null,
      () => instants.at(-1)!,
      NOW,
    );
    assert.equal(instants.filter((at) => at >= window.sinceMs && at < window.untilMs).length, 250);
  });

  it('ends now when every sealed turn is in the past, and when nothing was sealed', () => {
    assert.equal(
      runWindow(
        {},
        () => null,
        () => NOW - 5_000,
        NOW,
      ).untilMs,
      NOW,
    );
    assert.equal(
      runWindow(
        {},
        () => null,
        () => null,
        NOW,
      ).untilMs,
      NOW,
    );
  });

  it('keeps an --until the person gave, whatever was sealed after it', () => {
    const until = '2026-12-07T11:00:00.000Z';
    assert.equal(
      runWindow(
        { until },
        () => null,
        () => NOW + 100,
        NOW,
      ).untilMs,
      Date.parse(until),
    );
  });
});
