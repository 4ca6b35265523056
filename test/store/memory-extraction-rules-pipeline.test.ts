// The built-in runner's rules through the real pipeline: hook envelopes → drain → chunks → tasks →
// builtin runner → submission (secret lint) → adjudication → the review read and its lines. A rule
// over two sentences keeps the sentence that qualifies it; a rule carrying a secret becomes a
// quarantined candidate, never nothing; the signals that made a draft are shown in review.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import { builtinRunner } from '../../source/memory/builtin-runner.js';
import { readMemoryReview } from '../../source/store/memory/memory-reads.js';
import { candidateLines } from '../../source/screens/memory/review-lines.js';
import { initialReviewState } from '../../source/screens/memory/review-state.js';
import { openDatabase } from '../../source/store/database.js';
import { ExtractionPipeline } from '../../source/pipeline/extraction-pipeline.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { tempHome } from '../support/cli.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const day = 86_400_000;
const SINCE = new Date(Date.now() - 30 * day).toISOString().replace(/\.\d+Z$/, 'Z');
const UNTIL = new Date(Date.now() + day).toISOString().replace(/\.\d+Z$/, 'Z');

/** Queues one Codex session of these prompts as hook envelopes, drains it, extracts with the builtin runner, reads the review. */
async function extractAndReview(prompts: string[]) {
  const home = tempHome('extraction-rules');
  const session = queueSession(home, null, prompts, { answer: () => 'Understood.' });
  await c.flush(home);
  const writer = await startInlineWriter(storeFiles(home).core);
  const core = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    const pipeline = new ExtractionPipeline(writer, core, new Map([['builtin', builtinRunner]]), 'test-holder');
    const report = await pipeline.extract({ cwd: null, since: SINCE, until: UNTIL }, () => null);
    const memory = openDatabase(storeFiles(home).memoryState, { readonly: true });
    try {
      const review = readMemoryReview(memory, { owner: null, limit: 50, after: null });
      return { report, review, session };
    } finally {
      memory.close();
    }
  } finally {
    core.close();
    await writer.close();
  }
}

describe('built-in extraction rules through the pipeline', () => {
  it('a rule over two sentences is one candidate that keeps the sentence qualifying it, citing its turn; review shows why', async () => {
    const { report, review, session } = await extractAndReview([
      'Can you look at the flaky upload test?',
      "Don't use the default HTTP client. It has no timeout, so build one with explicit timeouts.",
      'When you rename a route, update the redirects file too.',
    ]);
    assert.equal(report.candidates.created, 2, JSON.stringify(report));
    const contents = review.candidates.map((candidate) => candidate.content).sort();
    assert.deepEqual(contents, [
      "Don't use the default HTTP client. It has no timeout, so build one with explicit timeouts.",
      'When you rename a route, update the redirects file too.',
    ]);
    const rule = review.candidates.find((candidate) => candidate.content.startsWith("Don't"))!;
    assert.deepEqual(
      rule.statements.map((statement) => [statement.text, statement.evidence.map((ref) => ref.turnKey)]),
      [[rule.content, [session.turnKeys[1]]]],
    );
    assert.equal(rule.statements[0]!.claimSupport, 'typed-fact', 'the words the user typed, both sentences');
    const conditional = review.candidates.find((candidate) => candidate.content.startsWith('When'))!;
    assert.ok(conditional.signals?.includes('conditional'), JSON.stringify(conditional.signals));
    const lines = candidateLines(conditional, initialReviewState, 100).lines.map((line) => line.text);
    assert.ok(
      lines.some((line) => line.startsWith('signals ') && line.includes('conditional')),
      lines.join('\n'),
    );
  });

  it('a durable statement carrying a secret is drafted and quarantined with its finding masked, never dropped', async () => {
    const token = plantedToken();
    const { report, review } = await extractAndReview([
      `Always use that key for the staging uploads: ${token}`,
      'Thanks, that works.',
    ]);
    assert.equal(report.candidates.created, 1, JSON.stringify(report));
    assert.equal(report.candidates.quarantined, 1);
    const [candidate] = review.candidates;
    assert.equal(candidate!.status, 'quarantined');
    assert.ok(candidate!.findings.some((finding) => finding.rule === 'github-token' && finding.severity === 'block'));
    assert.ok(!candidate!.content.includes(token), 'review shows the statement masked');
    assert.match(candidate!.content, /^Always use that key for the staging uploads: ghp_…/);
  });
});
