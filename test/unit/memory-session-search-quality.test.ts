import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureSearchQuality, readConversation } from '../bench/session-search.js';

describe('session search quality on the labelled conversation', () => {
  it('has at least 50 questions, each answered by a turn of the conversation', () => {
    const { turns, questions } = readConversation();
    assert.ok(questions.length >= 50);
    const keys = new Set(turns.map((turn) => turn.turnKey));
    for (const { answerTurnKey } of questions) assert.ok(keys.has(answerTurnKey), answerTurnKey);
    assert.ok(new Set(turns.map((turn) => turn.sessionKey)).size >= 10, 'many sessions');
  });

  it('has a held-out set of at least 30 questions, each answered by a turn of the conversation', () => {
    const { turns, heldOut } = readConversation();
    assert.ok(heldOut.length >= 30);
    const keys = new Set(turns.map((turn) => turn.turnKey));
    for (const { answerTurnKey } of heldOut) assert.ok(keys.has(answerTurnKey), answerTurnKey);
  });

  it('session search beats plain FTS5 BM25 of OR-joined words at @5 and @10, on both question sets', () => {
    const quality = measureSearchQuality();
    for (const [set, recall] of [
      ['labelled', quality.recall],
      ['held-out', quality.heldOut],
    ] as const) {
      const ours = recall['session search']!;
      const plain = recall['or-terms']!;
      assert.ok(ours.at5 > plain.at5, `${set} recall@5 ${ours.at5} against or-terms ${plain.at5}`);
      assert.ok(ours.at10 > plain.at10, `${set} recall@10 ${ours.at10} against or-terms ${plain.at10}`);
    }
  });

  it('quoted terms OR-joined with a stop list beat plain FTS5 BM25 of the phrase and of AND-ed words', () => {
    const { recall } = measureSearchQuality();
    const ours = recall['session search']!;
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
