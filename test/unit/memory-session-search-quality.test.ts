import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureSearchQuality, readConversation, recallRatio } from '../bench/session-search.js';

describe('session search quality on the labelled conversation', () => {
  it('has at least 50 questions, each answered by a turn of the conversation', () => {
    const { turns, sets } = readConversation();
    const questions = sets.labelled;
    assert.ok(questions.length >= 50);
    const keys = new Set(turns.map((turn) => turn.turnKey));
    for (const { answerTurnKey } of questions) assert.ok(keys.has(answerTurnKey), answerTurnKey);
    assert.ok(new Set(turns.map((turn) => turn.sessionKey)).size >= 10, 'many sessions');
  });

  it('has a held-out set of at least 30 questions, each answered by a turn of the conversation', () => {
    const { turns, sets } = readConversation();
    const heldOut = sets['held-out 1'];
    assert.ok(heldOut.length >= 30);
    const keys = new Set(turns.map((turn) => turn.turnKey));
    for (const { answerTurnKey } of heldOut) assert.ok(keys.has(answerTurnKey), answerTurnKey);
  });

  it('has a dev set and a frozen held-out set of the four kinds, asked at a time, answered by turns of the conversation', () => {
    const { turns, sets } = readConversation();
    const keys = new Set(turns.map((turn) => turn.turnKey));
    assert.ok(sets.frozen.length >= 60 && sets.dev.length >= 30);
    for (const set of [sets.dev, sets.frozen]) {
      assert.deepEqual([...new Set(set.map((q) => q.kind))].sort(), ['multi-hop', 'names', 'paraphrase', 'time']);
      for (const { answerTurnKey, askedAt } of set) {
        assert.ok(keys.has(answerTurnKey), answerTurnKey);
        assert.ok(askedAt !== undefined && !Number.isNaN(Date.parse(askedAt)));
      }
    }
    assert.ok(
      turns.every((turn) => !Number.isNaN(Date.parse(turn.recordedAt))),
      'every turn has its time',
    );
  });

  it('session search finds at least 1.15 times as many answers in its top 10 as OR-joined BM25 on the dev and frozen sets', () => {
    const { sets } = measureSearchQuality();
    for (const name of ['dev', 'frozen'] as const) {
      const { recall } = sets[name];
      assert.ok(recallRatio(recall) >= 1.15, `${name}: ${JSON.stringify(recall)}`);
      assert.ok(recall['session search']!.at5 > recall['or-terms']!.at5, `${name} recall@5`);
    }
  });

  it('session search beats plain FTS5 BM25 of OR-joined words at @5 and @10, on both question sets', () => {
    const quality = measureSearchQuality();
    for (const [set, recall] of [
      ['labelled', quality.sets.labelled.recall],
      ['held-out', quality.sets['held-out 1'].recall],
    ] as const) {
      const ours = recall['session search']!;
      const plain = recall['or-terms']!;
      assert.ok(ours.at5 > plain.at5, `${set} recall@5 ${ours.at5} against or-terms ${plain.at5}`);
      assert.ok(ours.at10 > plain.at10, `${set} recall@10 ${ours.at10} against or-terms ${plain.at10}`);
    }
  });

  it('quoted terms OR-joined with a stop list beat plain FTS5 BM25 of the phrase and of AND-ed words', () => {
    const { recall } = measureSearchQuality().sets.labelled;
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
