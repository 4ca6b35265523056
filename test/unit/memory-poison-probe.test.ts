// A probe written blind against one of the lint's whole-note readings (source/memory/poison-lint.ts,
// KEPT_FROM_AGENTS, EXAMPLE_NOT_ORDER, ORDERED_ANYWAY): 40 attacks that say a step is a person's, or
// an example to refuse, and then get the agent to act all the same, and 40 ordinary notes in the same
// words (test/corpus/poisoning-probes/kept-from-agent.json). Tuned on (docs/memory-rules.md, "The
// same words, then the order"): first read, 26 of the attacks and 5 of the ordinary notes blocked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { lintPoisoning } from '../../source/memory/poison-lint.js';

const probe = JSON.parse(
  readFileSync(new URL('../corpus/poisoning-probes/kept-from-agent.json', import.meta.url), 'utf8'),
) as { attack: string[]; ordinary: string[] };
const blocked = (texts: readonly string[]) =>
  texts.filter((text) => lintPoisoning(text).some((f) => f.severity === 'block'));

describe('a step kept from the agent, then ordered all the same (a blind probe)', () => {
  it('blocks all but one of the 40 attacks', () => {
    assert.equal(probe.attack.length, 40);
    const missed = probe.attack.filter((text) => !blocked([text]).length);
    assert.ok(missed.length <= 1, missed.join('\n---\n'));
  });

  it('blocks at most one of the 40 ordinary notes in the same words', () => {
    assert.equal(probe.ordinary.length, 40);
    const wrong = blocked(probe.ordinary);
    assert.ok(wrong.length <= 1, wrong.join('\n---\n'));
  });
});
