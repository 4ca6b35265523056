// The labelled lint corpora are well-formed and the test splits stay frozen. The lint's figures on
// them are a bench (`npm run bench -- lint-quality`), not asserted here.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  isTuningSplit,
  attackClass,
  hardWrapped,
  lintQualityOptions,
  REWRITES,
  MEASURED_SPLITS,
  scoreSecretItem,
  scorePoisoning,
  showsSecret,
} from '../bench/lint-quality.js';
import { generate as generatePoisoning } from '../corpus/poisoning/generate.js';
import { generate as generateSecrets } from '../corpus/secrets/generate.js';
import { generate as generateBlindSecrets } from '../corpus/secrets/generate-blind.js';
import { generate as generateSecretsHoldout3 } from '../corpus/secrets/generate-holdout-3.js';
import {
  ALL_SPLITS,
  CORPUS_SPLITS,
  type CorpusSplit,
  corpusFile,
  type PoisonCorpusItem,
  readLabelledPoisoning,
  readLabelledSecrets,
  type SecretCorpusItem,
  TUNING_SPLITS,
} from '../support/lint-corpus.js';

// The digests of the test splits as first committed. They never change: a rule tuned on the test
// split would no longer be measured on data it has not seen. Add items to train.jsonl instead.
const FROZEN: Record<
  | 'secrets'
  | 'secretsHoldout2'
  | 'secretsHoldout3'
  | 'poisoning'
  | 'poisoningHoldout'
  | 'poisoningHoldout2'
  | 'poisoningHoldout3'
  | 'poisoningHoldout4'
  | 'poisoningHoldout5'
  | 'poisoningHoldout6'
  | 'poisoningHoldout7'
  | 'poisoningHoldout8'
  | 'poisoningHoldout9'
  | 'poisoningHoldout10'
  | 'poisoningHoldout11'
  | 'poisoningHoldout12'
  | 'poisoningHoldout13'
  | 'poisoningHoldout14'
  | 'poisoningHoldout15'
  | 'poisoningHoldout16'
  | 'poisoningHoldout17',
  string
> = {
  secrets: '6335850a0f6ebabdd2b4e31ff1cf63f5dd05773c0b96b530c16043b96b5cdf2a',
  secretsHoldout2: 'e001ff300b232f16efebf7f5640dd85df3c1916f736073405830c50bffd207c5',
  // Written blind by an author who read neither the secret lint, its docs and tests, nor the other
  // secret sets; measured once, never tuned on (test/corpus/README.md).
  secretsHoldout3: 'b68ab1f85254005ec9b51af5db781c539edc5f8ab315eb200a1a14f234dcf63a',
  poisoning: '43892e5000b9b6f2104aa93572c09173cbcdf8a516488561c542ee89903873ce',
  // Written by hand after the first measurement, by an author who saw neither the rules nor the
  // other splits; measured once, never tuned on (test/corpus/README.md).
  poisoningHoldout: '73878ef967e4af5cf7b7c7a27479b13438c33dca0a6408da68c2e1c501c624d6',
  // Written apart from the rules and every other split; measured in aggregate, never read for tuning.
  poisoningHoldout2: '95061d6bd5caf16644c58c922600842f10a7ae3899740beeb1f3917ea065a4d3',
  poisoningHoldout3: '9a72556e6c2f3355b80fe77705e4e8b4a2928523b19207322776417b1966b2d3',
  poisoningHoldout4: 'f90f57d673a3127fb65da2c52982b5244f192e03bd5aa34786953a39b22e7bbe',
  // Written blind by an author who read neither the rules nor any split; measured once, never tuned on.
  poisoningHoldout5: 'a5680a2c549970a1338021bc1478c9e303323e184461a4fe8d4c484c358d08d4',
  // Written blind by a sixth author who read neither the rules nor any split; measured twice, then tuned on.
  poisoningHoldout6: '9b0dc11d95b6ea0d617d9cc4e7784957dd01cb8628543383b2982412059be075',
  // Written blind by a seventh author who opened only the issue and two lines of holdout-6 for the shape.
  poisoningHoldout7: 'b4389d31b215fe323857d6a80f56327a4449c56ac82097d6276aea22b114a084',
  // Written blind by an eighth author who opened only the issue and two lines of holdout-7 for the shape.
  poisoningHoldout8: 'aa87ef2e5a43749f5ae9fbf6dca711eefd38e20600123085cd3c893d315abd8f',
  // Written blind by a ninth author from the issue and a brief of the labelling rule (its README says
  // what else the author saw by accident: part of train-8's texts).
  poisoningHoldout9: 'cc4167a516903d76b1cbd099fefd5ec2731710591a713b68534ca3d85e75f3e9',
  poisoningHoldout10: 'ebc66a01b142b6fc37262abe6067dfcef15e98fb6634365a90df800b388c5a58',
  poisoningHoldout11: '387982f27fb319b650845ba1a67f879f506e36c151b399d416d6ad607ea7f043',
  // Written blind by a thirteenth author from a brief and two lines of holdout-8; two ordinary notes
  // found word for word in older holdouts were taken out before it was first measured.
  poisoningHoldout12: 'b8e19ef884c245d46570dbe93dd5f7792656ac04a3dd9329db9a626b7817cf2b',
  // A fourteenth blind author (a brief and two lines of holdout-8 only); the notes within half the
  // words of a tuning note taken out before it was first measured.
  poisoningHoldout13: '0ab5cadb10db1c64803a96285adb29fd98da4d774043628405e1debd60543cde',
  // A sixteenth blind author, pruned as holdout-13 was (train-14 included among the tuning notes).
  poisoningHoldout14: 'd1703d451e76faa70be86f536debeca9a590d1bd35ad4df5c72930d8f62616eb',
  // A seventeenth blind author, pruned as holdout-14 was (train-15 included among the tuning notes).
  poisoningHoldout15: 'd6b1f3bd8e0db08b71188e11dd3a4fdf0a6a73e8358f92e75c818ee7b5923343',
  // An eighteenth blind author, pruned as holdout-15 was (train-16 included among the tuning notes).
  poisoningHoldout16: '1f46044d3df3db4524bc3f6710dac01fbe8f37881570c1066b26aa201e370f64',
  // A twenty-second blind author, pruned as holdout-16 was (the four train-17 batches included).
  poisoningHoldout17: '82667e41c9b28f960fdb7e2755de54dd41601e7517cc33b223bcc9492185b092',
};

const sha256 = (url: URL) => createHash('sha256').update(readFileSync(url)).digest('hex');
const occurrences = (text: string, part: string): number => {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) count += 1;
  return count;
};

describe('secret corpus', () => {
  const splits = CORPUS_SPLITS.map((split) => ({ split, items: readLabelledSecrets(split) }));
  const all = splits.flatMap((s) => s.items);

  it('keeps the test split frozen', () => {
    assert.equal(sha256(corpusFile('secrets', 'test')), FROZEN.secrets);
  });

  it('is what the generator writes, for both splits', () => {
    for (const { split, items } of splits) assert.deepEqual(generateSecrets(split), items, split);
  });

  it('has unique ids and well-typed rows', () => {
    assert.equal(new Set(all.map((i) => i.id)).size, all.length);
    for (const item of all) {
      assert.equal(typeof item.text, 'string', item.id);
      assert.ok(item.text.length > 0, item.id);
      assert.ok(item.secret === null || typeof item.secret === 'string', item.id);
      assert.match(item.kind, /^[a-z][a-z0-9-]*$/, item.id);
    }
  });

  it('labels each secret with a substring that occurs exactly once in its text, and its core inside it', () => {
    for (const item of all.filter((i): i is SecretCorpusItem & { secret: string } => i.secret !== null)) {
      assert.ok(item.secret.length > 0, item.id);
      assert.equal(occurrences(item.text, item.secret), 1, item.id);
      if (item.core !== undefined) {
        assert.ok(item.secret.includes(item.core) || (item.plain ?? '').includes(item.core), item.id);
      }
      if (item.kind.startsWith('disguise-')) assert.ok(item.plain !== undefined && item.plain !== item.secret, item.id);
    }
  });

  it('meets the minimum counts, with no text in both splits', () => {
    const positives = all.filter((i) => i.secret !== null).length;
    assert.ok(positives >= 500, `positives ${positives}`);
    assert.ok(all.length - positives >= 300, `negatives ${all.length - positives}`);
    const [train, test] = splits;
    const trainTexts = new Set(train!.items.map((i) => i.text));
    assert.deepEqual(
      test!.items.filter((i) => trainTexts.has(i.text)).map((i) => i.id),
      [],
    );
    const kinds = new Set(all.map((i) => i.kind));
    for (const kind of [
      'provider-token',
      'keyword-context',
      'prose',
      'dsn',
      'private-key',
      'disguise-wrapped',
      'disguise-zero-width',
      'disguise-soft-hyphen',
      'disguise-fullwidth',
      'disguise-html-entity',
      'disguise-url-escape',
      'disguise-json-escape',
      'disguise-base64',
      'disguise-hex',
      'near-miss',
      'placeholder',
      'high-entropy-nonsecret',
    ]) {
      assert.ok(kinds.has(kind), kind);
    }
  });
});

describe('blind secret sets (holdout-2 measured only, train-2 for tuning)', () => {
  const holdout = readLabelledSecrets('holdout-2');
  const train = readLabelledSecrets('train-2');

  it('keeps holdout-2 as first committed, and both as their generator writes them', () => {
    assert.equal(sha256(corpusFile('secrets', 'holdout-2')), FROZEN.secretsHoldout2);
    assert.deepEqual(generateBlindSecrets('holdout-2'), holdout);
    assert.deepEqual(generateBlindSecrets('train-2'), train);
  });

  it('labels each secret with a substring that occurs exactly once, and shares no text with another set', () => {
    for (const item of [...holdout, ...train])
      if (item.secret !== null) assert.equal(occurrences(item.text, item.secret), 1, item.id);
    const others = new Set(
      (['train', 'test', 'train-2'] as const).flatMap((split) => readLabelledSecrets(split).map((i) => i.text)),
    );
    assert.deepEqual(
      holdout.filter((i) => others.has(i.text)).map((i) => i.id),
      [],
    );
    assert.deepEqual(
      [holdout, train].map((items) => [
        items.filter((i) => i.secret !== null).length,
        items.filter((i) => i.secret === null).length,
      ]),
      [
        [648, 300],
        [648, 300],
      ],
    );
  });

  it('holdout-2 is measured only; train-2 is a tuning split', () => {
    assert.equal(isTuningSplit('holdout-2'), false);
    assert.equal(isTuningSplit('train-2'), true);
  });
});

describe('third blind secret set (holdout-3, measured only)', () => {
  const items = readLabelledSecrets('holdout-3');

  it('keeps holdout-3 as first committed, and as its generator writes it', () => {
    assert.equal(sha256(corpusFile('secrets', 'holdout-3')), FROZEN.secretsHoldout3);
    assert.deepEqual(generateSecretsHoldout3(), items);
  });

  it('has unique ids, a secret that occurs exactly once, its counts, and no text shared with another set', () => {
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
    for (const item of items) {
      assert.match(item.id, /^holdout3-\d{4}$/);
      if (item.secret !== null) assert.equal(occurrences(item.text, item.secret), 1, item.id);
      if (item.kind.startsWith('disguise-')) assert.ok(item.plain !== undefined && item.plain !== item.secret, item.id);
    }
    assert.deepEqual(
      [items.filter((i) => i.secret !== null).length, items.filter((i) => i.secret === null).length],
      [673, 313],
    );
    assert.equal(new Set(items.filter((i) => i.kind === 'provider-token').map((i) => i.provider)).size, 97);
    const others = new Set(
      (['train', 'test', 'train-2', 'holdout-2'] as const).flatMap((split) =>
        readLabelledSecrets(split).map((i) => i.text),
      ),
    );
    assert.deepEqual(
      items.filter((i) => others.has(i.text)).map((i) => i.id),
      [],
    );
  });

  it('is measured only', () => {
    assert.equal(isTuningSplit('holdout-3'), false);
    assert.deepEqual(lintQualityOptions(['--split', 'holdout-3'], {}).splits, ['holdout-3']);
    assert.ok(!(CORPUS_SPLITS as readonly string[]).includes('holdout-3'));
  });
});

describe('poisoning corpus', () => {
  const splits = CORPUS_SPLITS.map((split) => ({ split, items: readLabelledPoisoning(split) }));
  const all = splits.flatMap((s) => s.items);

  it('keeps the test split frozen', () => {
    assert.equal(sha256(corpusFile('poisoning', 'test')), FROZEN.poisoning);
  });

  it('is what the generator writes, for both splits', () => {
    for (const { split, items } of splits) assert.deepEqual(generatePoisoning(split), items, split);
  });

  it('has unique ids, well-typed rows and the minimum counts, with no note in both splits', () => {
    assert.equal(new Set(all.map((i) => i.id)).size, all.length);
    for (const item of all) {
      assert.ok(typeof item.text === 'string' && item.text.length > 0, item.id);
      assert.equal(typeof item.poisoned, 'boolean', item.id);
      assert.match(item.kind, /^[a-z][a-z0-9-]*$/, item.id);
      assert.ok(item.expect === undefined || ['block', 'warn', 'none'].includes(item.expect), item.id);
      if (item.poisoned) assert.equal(item.expect, 'block', item.id);
    }
    const poisoned = all.filter((i) => i.poisoned).length;
    assert.ok(poisoned >= 150, `poisoned ${poisoned}`);
    assert.ok(all.length - poisoned >= 300, `ordinary ${all.length - poisoned}`);
    const trainTexts = new Set(splits[0]!.items.map((i) => i.text));
    assert.deepEqual(
      splits[1]!.items.filter((i) => trainTexts.has(i.text)).map((i) => i.id),
      [],
    );
  });
});

describe('poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout');
  const invisible = /[\u200b-\u200f\u2060-\u2064\u180e\ufeff\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/u;

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout')), FROZEN.poisoningHoldout);
  });

  it('has unique numbered ids, well-typed rows and the minimum counts', () => {
    assert.equal(new Set(items.map((i) => i.id)).size, items.length);
    assert.equal(new Set(items.map((i) => i.text)).size, items.length);
    for (const item of items) {
      assert.match(item.id, /^holdout-\d{4}$/);
      assert.ok(typeof item.text === 'string' && item.text.length > 0, item.id);
      assert.equal(typeof item.poisoned, 'boolean', item.id);
      assert.match(item.kind, /^[a-z][a-z0-9-]*$/, item.id);
      assert.ok(item.expect === undefined || ['block', 'warn', 'none'].includes(item.expect), item.id);
      if (item.poisoned) assert.equal(item.expect, 'block', item.id);
      if (item.kind.startsWith('invisible-')) assert.match(item.text, invisible, item.id);
    }
    const poisoned = items.filter((i) => i.poisoned);
    assert.ok(poisoned.length >= 120, `poisoned ${poisoned.length}`);
    assert.ok(items.length - poisoned.length >= 200, `ordinary ${items.length - poisoned.length}`);
    const kinds = new Set(poisoned.map((i) => i.kind));
    for (const kind of [
      'instruction-override',
      'fake-role',
      'authority-claim',
      'concealment',
      'exfiltration',
      'remote-exec',
      'frame-forgery',
      'invisible-zero-width',
      'invisible-bidi',
      'invisible-tags',
      'memory-tool-abuse',
    ]) {
      assert.ok(kinds.has(kind), kind);
    }
  });

  it('shares no note with the train or test split', () => {
    const other = new Set(CORPUS_SPLITS.flatMap((split) => readLabelledPoisoning(split).map((i) => i.text)));
    assert.deepEqual(
      items.filter((i) => other.has(i.text)).map((i) => i.id),
      [],
    );
  });

  it('is a split the evaluator accepts, and not one of its defaults', () => {
    assert.deepEqual(lintQualityOptions(['--split', 'holdout'], {}).splits, ['holdout']);
    assert.deepEqual(lintQualityOptions([], { LINT_SPLIT: 'holdout' }).splits, ['holdout']);
    assert.ok(!(CORPUS_SPLITS as readonly string[]).includes('holdout'));
    assert.throws(
      () => lintQualityOptions(['--split', 'validation'], {}),
      /train, test, holdout, holdout-2, train-3, holdout-3, train-4, train-5, holdout-4, train-6, train-7, train-2, holdout-5, holdout-6, holdout-7, holdout-8/,
    );
  });
});

// Rows shared by the poisoning sets with hand-numbered ids (holdout-2, train-3): well-typed, every
// poisoned row expected blocked, a family on every row. Failures name ids only, never a row's text.
/** `poisonedMayWarn`: a set whose author labelled sabotage that reads as a team rule as poisoned, expecting a warning. */
/** The evaluator accepts `split` by name; only a tuning split has its misses listed; no split is a first-wave corpus. */
function checkEvaluatorRole(split: CorpusSplit, tuning: boolean): void {
  assert.deepEqual(lintQualityOptions(['--split', split], {}).splits, [split]);
  assert.equal(isTuningSplit(split), tuning);
  assert.ok(!(CORPUS_SPLITS as readonly string[]).includes(split));
}

/** No note of `split` is in another poisoning split (`expected` of them must exist). */
function checkSharesNoNote(split: CorpusSplit, items: readonly PoisonCorpusItem[], expected: CorpusSplit[]): void {
  const others = ALL_SPLITS.filter((other) => other !== split && existsSync(corpusFile('poisoning', other)));
  assert.ok(expected.every((other) => others.includes(other)));
  assert.deepEqual(sharedWith(items, others), []);
}

function checkNumberedRows(items: readonly PoisonCorpusItem[], idPattern: RegExp, poisonedMayWarn = false): void {
  assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'unique ids');
  assert.equal(new Set(items.map((i) => i.text)).size, items.length, 'unique texts');
  const bad = items.filter(
    (item) =>
      !idPattern.test(item.id) ||
      typeof item.text !== 'string' ||
      item.text.length === 0 ||
      typeof item.poisoned !== 'boolean' ||
      !/^[a-z][a-z0-9-]*$/.test(item.kind) ||
      !['block', 'warn', 'none'].includes(item.expect ?? '') ||
      (item.poisoned && item.expect !== 'block' && !(poisonedMayWarn && item.expect === 'warn')) ||
      typeof item.family !== 'string' ||
      (item.family === 'ordinary') === item.poisoned,
  );
  assert.deepEqual(
    bad.map((i) => i.id),
    [],
  );
}

/** Ids of `items` whose text is also in one of `splits`. */
function sharedWith(items: readonly PoisonCorpusItem[], splits: readonly CorpusSplit[]): string[] {
  const other = new Set(splits.flatMap((split) => readLabelledPoisoning(split).map((i) => i.text)));
  return items.filter((i) => other.has(i.text)).map((i) => i.id);
}

describe('second poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-2');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-2')), FROZEN.poisoningHoldout2);
  });

  it('has unique ids of the form holdout2-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^holdout2-\d{4}$/);
    const poisoned = items.filter((i) => i.poisoned).length;
    assert.deepEqual([poisoned, items.length - poisoned], [204, 290]);
  });

  it('shares no note with any other split', () => {
    assert.deepEqual(sharedWith(items, ['train', 'test', 'holdout', 'train-3']), []);
  });

  it('is measured only: the evaluator accepts it and never lists its misses', () => {
    assert.deepEqual(lintQualityOptions(['--split', 'holdout-2'], {}).splits, ['holdout-2']);
    assert.equal(isTuningSplit('holdout-2'), false);
    assert.equal(isTuningSplit('test'), false);
    assert.ok(!(CORPUS_SPLITS as readonly string[]).includes('holdout-2'));
  });
});

describe('third poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-3');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-3')), FROZEN.poisoningHoldout3);
  });

  it('has unique ids of the form holdout3-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^holdout3-\d{4}$/);
    const poisoned = items.filter((i) => i.poisoned).length;
    assert.deepEqual([poisoned, items.length - poisoned], [256, 344]);
  });

  it('shares no note with any other split but one terse ordinary note, written twice by chance', () => {
    // A 13-character ordinary team rule also stands in train-3: two authors wrote the same short
    // sentence. The file stays as committed; the note is ordinary, so it cannot inflate recall.
    assert.deepEqual(sharedWith(items, ['train', 'test', 'holdout', 'holdout-2', 'train-3']), ['holdout3-0403']);
    assert.equal(items.find((i) => i.id === 'holdout3-0403')?.poisoned, false);
  });

  it('is measured only: the evaluator accepts it and never lists its misses', () => {
    checkEvaluatorRole('holdout-3', false);
  });
});

describe('fourth poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-4');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-4')), FROZEN.poisoningHoldout4);
  });

  it('has unique ids of the form holdout4-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^holdout4-\d{4}$/, true);
    const poisoned = items.filter((i) => i.poisoned);
    assert.deepEqual([poisoned.length, items.length - poisoned.length], [337, 336]);
    // Its README: 30 poisoned notes are sabotage with no injection wording, labelled `expect: warn`.
    assert.equal(poisoned.filter((i) => i.expect === 'warn').length, 30);
  });

  it('shares no note with any other split but two terse ordinary notes, written twice by chance', () => {
    const shared = sharedWith(items, ['train', 'test', 'holdout', 'holdout-2', 'train-3', 'holdout-3', 'train-4']);
    assert.deepEqual(shared, ['holdout4-0135', 'holdout4-0315']);
    assert.ok(shared.every((id) => items.find((i) => i.id === id)?.poisoned === false));
  });

  it('is measured only: the evaluator accepts it and never lists its misses', () => {
    checkEvaluatorRole('holdout-4', false);
  });
});

describe('fifth poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-5');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-5')), FROZEN.poisoningHoldout5);
  });

  it('has unique ids of the form holdout5-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^holdout5-\d{4}$/, true);
    const poisoned = items.filter((i) => i.poisoned);
    assert.deepEqual([poisoned.length, items.length - poisoned.length], [342, 331]);
    // Its README: 15 poisoned notes are subtle sabotage with no injection wording, labelled `expect: warn`.
    assert.deepEqual(
      poisoned.filter((i) => i.expect === 'warn').map((i) => i.family),
      Array.from({ length: 15 }, () => 'subtle-rule'),
    );
    // 21 ordinary notes a reviewer should glance at: official installers for people, quoted attacks.
    assert.equal(items.filter((i) => !i.poisoned && i.expect === 'warn').length, 21);
  });

  it('hides text in real invisible characters, not in their spelled-out names', () => {
    const tags = items.filter((i) => /[\u{E0000}-\u{E007F}]/u.test(i.text));
    assert.ok(tags.length >= 10);
    assert.ok(tags.every((i) => i.poisoned && i.family === 'hidden-text'));
  });

  it('shares no note with any other poisoning split', () => {
    checkSharesNoNote('holdout-5', items, ['holdout-4', 'train-7']);
  });

  it('was measured twice, then opened for tuning (holdout-6 measures in its place)', () => {
    checkEvaluatorRole('holdout-5', true);
  });
});

describe('sixth poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-6');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-6')), FROZEN.poisoningHoldout6);
  });

  it('has unique ids of the form hold6-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^hold6-\d{4}$/);
    const poisoned = items.filter((i) => i.poisoned);
    assert.deepEqual([poisoned.length, items.length - poisoned.length], [338, 334]);
    assert.equal(items.filter((i) => !i.poisoned && i.expect === 'warn').length, 40);
  });

  it('shares no note with any other poisoning split', () => {
    checkSharesNoNote('holdout-6', items, ['holdout-5', 'train-7']);
  });

  it('was measured twice, then opened for tuning (a newer blind set measures in its place)', () => {
    checkEvaluatorRole('holdout-6', true);
  });
});

describe('seventh poisoning holdout corpus', () => {
  const items = readLabelledPoisoning('holdout-7');

  it('stays as first committed', () => {
    assert.equal(sha256(corpusFile('poisoning', 'holdout-7')), FROZEN.poisoningHoldout7);
  });

  it('has unique ids of the form hold7-NNNN, well-typed rows and its counts', () => {
    checkNumberedRows(items, /^hold7-\d{4}$/, true);
    const poisoned = items.filter((i) => i.poisoned);
    assert.deepEqual([poisoned.length, items.length - poisoned.length], [351, 351]);
    // Its README: 15 poisoned notes are subtle sabotage (warn); 30 ordinary notes warrant a glance.
    assert.equal(poisoned.filter((i) => i.expect === 'warn').length, 15);
    assert.equal(items.filter((i) => !i.poisoned && i.expect === 'warn').length, 30);
  });

  it('shares no note with any other poisoning split', () => {
    checkSharesNoNote('holdout-7', items, ['holdout-6', 'holdout-5']);
  });

  it('was measured once, then opened for tuning (holdout-8 measures in its place)', () => {
    checkEvaluatorRole('holdout-7', true);
  });
});

/** A blind holdout measured only: frozen, numbered, its counts, no shared note, never tuned on. */
function measuredHoldout(
  title: string,
  split:
    | 'holdout-8'
    | 'holdout-9'
    | 'holdout-10'
    | 'holdout-11'
    | 'holdout-12'
    | 'holdout-13'
    | 'holdout-14'
    | 'holdout-15'
    | 'holdout-16'
    | 'holdout-17',
  digest: string,
  counts: { poisoned: number; ordinary: number; ordinaryWarn: number },
  neighbours: CorpusSplit[],
): void {
  describe(title, () => {
    const items = readLabelledPoisoning(split);

    it('stays as first committed', () => {
      assert.equal(sha256(corpusFile('poisoning', split)), digest);
    });

    it(`has unique ids of the form ${split.replace('holdout-', 'hold')}-NNNN, well-typed rows and its counts`, () => {
      checkNumberedRows(items, new RegExp(`^${split.replace('holdout-', 'hold')}-\\d{4}$`));
      const poisoned = items.filter((i) => i.poisoned);
      assert.deepEqual([poisoned.length, items.length - poisoned.length], [counts.poisoned, counts.ordinary]);
      assert.equal(items.filter((i) => !i.poisoned && i.expect === 'warn').length, counts.ordinaryWarn);
    });

    it('shares no note with any other poisoning split', () => {
      checkSharesNoNote(split, items, neighbours);
    });

    it('is measured only: the evaluator accepts it and never lists its misses', () => {
      checkEvaluatorRole(split, false);
    });
  });
}

// Its README: 10 ordinary notes warrant a glance (6 vendor installers, 4 quoted attack fixtures).
measuredHoldout(
  'eighth poisoning holdout corpus',
  'holdout-8',
  FROZEN.poisoningHoldout8,
  { poisoned: 280, ordinary: 283, ordinaryWarn: 10 },
  ['holdout-7', 'holdout-6'],
);
// Its README: 11 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'ninth poisoning holdout corpus',
  'holdout-9',
  FROZEN.poisoningHoldout9,
  { poisoned: 209, ordinary: 211, ordinaryWarn: 11 },
  ['holdout-8', 'train-8'],
);
// Its README: 16 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'tenth poisoning holdout corpus',
  'holdout-10',
  FROZEN.poisoningHoldout10,
  { poisoned: 300, ordinary: 324, ordinaryWarn: 16 },
  ['holdout-9', 'train-8'],
);
// Its README: 31 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'eleventh poisoning holdout corpus',
  'holdout-11',
  FROZEN.poisoningHoldout11,
  { poisoned: 300, ordinary: 299, ordinaryWarn: 31 },
  ['holdout-10', 'holdout-9', 'train-8'],
);
// Its README: 40 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'twelfth poisoning holdout corpus',
  'holdout-12',
  FROZEN.poisoningHoldout12,
  { poisoned: 300, ordinary: 298, ordinaryWarn: 40 },
  ['holdout-11', 'holdout-2', 'holdout-4'],
);
// Its README: 35 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'thirteenth poisoning holdout corpus',
  'holdout-13',
  FROZEN.poisoningHoldout13,
  { poisoned: 283, ordinary: 286, ordinaryWarn: 35 },
  ['holdout-12', 'train-13', 'holdout-11'],
);
// Its README: 37 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'fourteenth poisoning holdout corpus',
  'holdout-14',
  FROZEN.poisoningHoldout14,
  { poisoned: 263, ordinary: 264, ordinaryWarn: 37 },
  ['holdout-13', 'train-14', 'train-13'],
);
// Its README: 13 ordinary notes warrant a glance (gated exceptions, quoted attack fixtures).
measuredHoldout(
  'fifteenth poisoning holdout corpus',
  'holdout-15',
  FROZEN.poisoningHoldout15,
  { poisoned: 253, ordinary: 254, ordinaryWarn: 13 },
  ['holdout-14', 'train-15', 'train-14'],
);
// Its README: 36 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'sixteenth poisoning holdout corpus',
  'holdout-16',
  FROZEN.poisoningHoldout16,
  { poisoned: 246, ordinary: 241, ordinaryWarn: 36 },
  ['holdout-15', 'train-16', 'train-15'],
);
// Its README: 39 ordinary notes warrant a glance (vendor installers, quoted attack fixtures, gated exceptions).
measuredHoldout(
  'seventeenth poisoning holdout corpus',
  'holdout-17',
  FROZEN.poisoningHoldout17,
  { poisoned: 240, ordinary: 244, ordinaryWarn: 39 },
  ['holdout-16', 'train-17a', 'train-17b', 'train-17c', 'train-17d'],
);

describe('extra poisoning tuning batch (train-3)', () => {
  const items = readLabelledPoisoning('train-3');

  it('has unique ids of the form train3-NNNN and well-typed rows', () => {
    checkNumberedRows(items, /^train3-\d{4}$/);
    assert.ok(items.filter((i) => i.poisoned).length >= 40);
    assert.ok(items.filter((i) => !i.poisoned).length >= 40);
  });

  it('shares no note with any other split', () => {
    assert.deepEqual(sharedWith(items, ['train', 'test', 'holdout', 'holdout-2']), []);
  });

  it('is a tuning split', () => {
    assert.deepEqual(lintQualityOptions(['--split=train-3'], {}).splits, ['train-3']);
    assert.equal(isTuningSplit('train-3'), true);
  });
});

/** A blind tuning batch: numbered ids, well-typed rows, its poisoned and ordinary counts, a tuning split. */
function blindBatch(
  split:
    | 'train-4'
    | 'train-5'
    | 'train-6'
    | 'train-7'
    | 'train-8'
    | 'train-9'
    | 'train-10'
    | 'train-11'
    | 'train-12'
    | 'train-13'
    | 'train-14'
    | 'train-15'
    | 'train-16'
    | 'train-17a'
    | 'train-17b'
    | 'train-17c'
    | 'train-17d'
    | 'train-18a'
    | 'train-18b'
    | 'train-18c'
    | 'train-18d',
  counts: [number, number],
  more: (items: PoisonCorpusItem[]) => void,
): void {
  describe(`blind poisoning tuning batch (${split})`, () => {
    const items = readLabelledPoisoning(split);
    const prefix = split.replace('-', '');

    it(`has unique ids of the form ${prefix}-NNNN, well-typed rows and its counts`, () => {
      checkNumberedRows(items, new RegExp(`^${prefix}-\\d{4}$`));
      const poisoned = items.filter((i) => i.poisoned).length;
      assert.deepEqual([poisoned, items.length - poisoned], counts);
    });

    it('is a tuning split', () => {
      assert.equal(isTuningSplit(split), true);
    });

    more(items);
  });
}

blindBatch('train-4', [448, 536], (items) => {
  it('shares no note with a measured split (seven short ordinary notes that did were taken out)', () => {
    assert.deepEqual(sharedWith(items, ['test', 'holdout-2', 'holdout-3']), []);
  });
});
// Terse ordinary notes that a measured split also held, word for word, were taken out of each batch
// before it was used (train-5: four, train-6: one), so no tuning note is a measured one.
for (const [split, counts] of [
  ['train-5', [313, 318]],
  ['train-6', [380, 383]],
  ['train-7', [388, 389]],
] as const) {
  blindBatch(split, [...counts], (items) => {
    it('shares no note with a measured split', () => {
      assert.deepEqual(sharedWith(items, ['test', 'holdout-2', 'holdout-3', 'holdout-4']), []);
    });
  });
}
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
/** The notes of some splits as word sets, with each word's notes: built once for every batch checked against them. */
const indexes = new Map<string, { sizes: number[]; notesOf: Map<string, number[]> }>();
function wordIndex(splits: readonly CorpusSplit[]): { sizes: number[]; notesOf: Map<string, number[]> } {
  const key = splits.join(',');
  let index = indexes.get(key);
  if (index === undefined) {
    index = { sizes: [], notesOf: new Map() };
    for (const split of splits)
      for (const item of readLabelledPoisoning(split)) {
        const words = wordsOf(item.text);
        const note = index.sizes.push(words.size) - 1;
        for (const word of words) {
          const notes = index.notesOf.get(word);
          if (notes === undefined) index.notesOf.set(word, [note]);
          else notes.push(note);
        }
      }
    indexes.set(key, index);
  }
  return index;
}

/** Ids of `items` whose words overlap a note of `splits` by `share` or more (Jaccard). */
function closeTo(items: readonly PoisonCorpusItem[], splits: readonly CorpusSplit[], share: number): string[] {
  const { sizes, notesOf } = wordIndex(splits);
  return items
    .filter((item) => {
      const mine = wordsOf(item.text);
      // Words shared with each note, counted through the notes each word is in.
      const shared = new Map<number, number>();
      for (const word of mine)
        for (const note of notesOf.get(word) ?? []) shared.set(note, (shared.get(note) ?? 0) + 1);
      for (const [note, count] of shared) if (count / (mine.size + sizes[note]! - count) >= share) return true;
      return false;
    })
    .map((item) => item.id);
}

// Written beside holdout-11, holdout-12 and holdout-13: the notes whose words overlap a measured
// note's by half or more (Jaccard) were taken out before any use (train-9: 4, train-10: 25, train-11:
// 20, train-12: 28, train-13: 32), and once holdout-12 came, those close to it (train-9: 1, train-10:
// 7). holdout-13 and holdout-14 were pruned the other way: their notes close to a tuning note were
// taken out (31, 33); train-14's close to a measured note (holdout-14 included) too (37). holdout-15
// and train-15 the same way (13, 20); holdout-16 and train-16 too (33, 14); holdout-17 (36) and
// train-17a to -17d (12, 10, 0, 14); train-18a to -18d (21, 6, 5, 4; train-18a's count holds one
// note close to an everyday rule, test/corpus/poisoning/everyday-rules.txt, taken out so that guard
// stays apart from everything trained on).
for (const [split, counts] of [
  ['train-9', [298, 297]],
  ['train-10', [290, 278]],
  ['train-11', [301, 303]],
  ['train-12', [291, 284]],
  ['train-13', [283, 285]],
  ['train-14', [270, 253]],
  ['train-15', [246, 254]],
  ['train-16', [254, 255]],
  ['train-17a', [250, 258]],
  ['train-17b', [252, 258]],
  ['train-17c', [240, 240]],
  ['train-17d', [251, 255]],
  ['train-18a', [194, 184]],
  ['train-18b', [200, 194]],
  ['train-18c', [200, 195]],
  ['train-18d', [199, 197]],
] as const) {
  blindBatch(split, [...counts], (items) => {
    it('shares no note, nor half the words of one, with a measured split', () => {
      const measured = ALL_SPLITS.filter(
        (other) => !isTuningSplit(other) && existsSync(corpusFile('poisoning', other)),
      );
      assert.ok(measured.includes('holdout-17') && measured.includes('test'));
      assert.deepEqual(sharedWith(items, measured), []);
      assert.deepEqual(closeTo(items, measured, 0.5), []);
    });
  });
}
// Written beside holdout-9 (its author saw part of this batch's texts by accident): the 61 notes whose
// words overlap a holdout-9 note's by a quarter or more (Jaccard) were taken out before any use.
blindBatch('train-8', [237, 244], (items) => {
  it('shares no note, nor a quarter of the words of one, with a measured split', () => {
    assert.deepEqual(sharedWith(items, ['test', 'holdout-2', 'holdout-3', 'holdout-4', 'holdout-8', 'holdout-9']), []);
    assert.deepEqual(closeTo(items, ['holdout-9'], 0.25), []);
  });
});

describe('lint-quality scoring', () => {
  const item: SecretCorpusItem = {
    id: 'x',
    text: 'token: ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok',
    secret: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    kind: 'provider-token',
    core: 'abcdefghijklmnopqrstuvwxyz0123456789',
  };
  const finding = (offset: number, length: number, severity: 'block' | 'warn', excerpt = 'ghp_… (40 chars)') => ({
    rule: 'r',
    severity,
    offset,
    length,
    excerpt,
  });

  it('counts a secret found only when a finding covers its whole span', () => {
    assert.equal(scoreSecretItem(item, [finding(7, 40, 'block')]).block, true);
    assert.equal(scoreSecretItem(item, [finding(0, 60, 'block')]).block, true);
    assert.equal(scoreSecretItem(item, [finding(7, 39, 'block')]).any, false);
    assert.equal(scoreSecretItem(item, [finding(8, 40, 'block')]).any, false);
    const warned = scoreSecretItem(item, [finding(7, 40, 'warn')]);
    assert.deepEqual([warned.block, warned.any], [false, true]);
  });

  it('counts an excerpt that shows 8 characters of the core in a row as unmasked, in any case or width', () => {
    assert.equal(scoreSecretItem(item, [finding(7, 40, 'block')]).unmasked, 0);
    assert.equal(scoreSecretItem(item, [finding(7, 40, 'block', 'ghp_ABCDEFGH…')]).unmasked, 1);
    assert.equal(showsSecret('ｇｈｐ＿ａｂｃｄｅｆｇｈ', 'abcdefgh'), true);
    assert.equal(showsSecret('abcd\u200befgh', 'abcdefgh'), true);
    assert.equal(showsSecret('abcdefg…', 'abcdefghij'), false);
    assert.equal(showsSecret('pw is hunter2', 'hunter2'), true);
  });

  it('scores poisoning verdicts against the labels and expectations', () => {
    const scores = scorePoisoning(
      [
        { id: 'a', text: 'bad', poisoned: true, kind: 'k', expect: 'block' },
        { id: 'b', text: 'curl install', poisoned: false, kind: 'install-step', expect: 'warn' },
        { id: 'c', text: 'fine', poisoned: false, kind: 'team-rule', expect: 'none' },
      ],
      (text) =>
        text === 'bad'
          ? [{ rule: 'r', severity: 'warn', offset: 0, length: 3 }]
          : text.startsWith('curl')
            ? [{ rule: 'r', severity: 'block', offset: 0, length: 4 }]
            : [],
    );
    assert.deepEqual(
      [scores.poisoned.blocked, scores.poisoned.warned, scores.ordinary.blocked, scores.ordinary.warned],
      [0, 1, 1, 0],
    );
    assert.deepEqual(
      scores.expectBroken.map((b) => b.item.id),
      ['a', 'b'],
    );
  });
});

describe('poisoned notes by attack class (lint-quality --families)', () => {
  it('reads the splits measured only, never a tuning split, unless one is named', () => {
    const options = lintQualityOptions(['--families'], {});
    assert.equal(options.families, true);
    assert.deepEqual(options.splits, MEASURED_SPLITS);
    assert.ok(MEASURED_SPLITS.includes('test') && MEASURED_SPLITS.includes('holdout-17'));
    assert.ok(!MEASURED_SPLITS.some((split) => (TUNING_SPLITS as readonly string[]).includes(split)));
    assert.deepEqual(lintQualityOptions(['--families', '--split', 'train-16'], {}).splits, ['train-16']);
  });

  it("puts the authors' own labels for one attack in one class", () => {
    const of = (family: string) => attackClass({ family, kind: 'unused' });
    assert.equal(of('hidden-chars'), 'hidden characters');
    assert.equal(of('Invisible'), 'hidden characters');
    assert.equal(of('fetch-exec'), 'remote execution');
    assert.equal(of('remote-exec'), 'remote execution');
    assert.equal(of('memory-tool-abuse'), 'driving the memory tools');
    assert.equal(of('fake-system'), 'override, role or system');
    assert.equal(of('wrapper-escape'), 'forged frame end');
    assert.equal(of('self-approval'), 'false authority or approval');
    assert.equal(of('non-english'), 'encoded or translated');
    assert.equal(of('hidden-text'), 'hidden text (comments, markup)');
    assert.equal(of('multi-sentence'), 'other');
    // No family: the kind is the label.
    assert.equal(attackClass({ kind: 'exfiltration' }), 'exfiltration');
  });
});

describe('the notes rewritten as editors and tools write them (lint-quality --rewritten)', () => {
  it('hard-wraps prose at the width, and leaves code blocks and tables as they are', () => {
    const prose = 'Never push to main directly; open a pull request and wait for a review from the owners.';
    const wrapped = hardWrapped(prose, 30);
    assert.ok(wrapped.split('\n').every((line) => line.length <= 30));
    assert.equal(wrapped.replace(/\n/g, ' '), prose);
    const code = `\`\`\`bash\n${'x '.repeat(40)}\n\`\`\`\n| a | ${'b '.repeat(30)}|`;
    assert.equal(hardWrapped(code, 30), code);
  });

  it('rewrites each note without changing its words, over the splits measured only', () => {
    const note = 'Say "done" when it passes.\nThen stop.';
    const letters = (text: string) => text.replace(/[^a-z]/gi, '');
    for (const [name, rewrite] of REWRITES) assert.equal(letters(rewrite(note)), letters(note), name);
    const { splits, rewritten } = lintQualityOptions(['--rewritten'], {});
    assert.equal(rewritten, true);
    assert.ok(splits.length > 0 && splits.every((split) => !isTuningSplit(split)));
  });
});
