import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureSearchQuality, readConversation } from './bench/session-search.js';

describe('session search quality on the labelled conversation', () => {
  it('has at least 50 questions, each answered by a turn of the conversation', () => {
    const { turns, questions } = readConversation();
    assert.ok(questions.length >= 50);
    const keys = new Set(turns.map((turn) => turn.turnKey));
    for (const { answerTurnKey } of questions) assert.ok(keys.has(answerTurnKey), answerTurnKey);
    assert.ok(new Set(turns.map((turn) => turn.sessionKey)).size >= 10, 'many sessions');
  });

  it('quoted terms OR-joined with a stop list beat plain FTS5 BM25 of the phrase and of AND-ed words', () => {
    const { recall } = measureSearchQuality();
    const ours = recall['buildFtsQuery']!;
    for (const baseline of ['phrase', 'and-terms']) {
      assert.ok(
        ours.at5 > recall[baseline]!.at5 + 0.5,
        `recall@5 ${ours.at5} against ${baseline} ${recall[baseline]!.at5}`,
      );
      assert.ok(
        ours.at10 > recall[baseline]!.at10 + 0.5,
        `recall@10 ${ours.at10} against ${baseline} ${recall[baseline]!.at10}`,
      );
    }
    assert.ok(ours.at5 >= 0.8 && ours.at10 >= 0.85, JSON.stringify(ours));
  });
});
