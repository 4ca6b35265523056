// screenRunnerTask on its own: the turn a finding is in (multi-byte text in earlier turns), context
// turns and adjudication drafts and pool summaries screened too, ids and the evidence catalogue
// unchanged, both runners' bytes free of the token, and screening twice changes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planChunks } from '../../source/memory/chunking.js';
import { clientPrompt } from '../../source/effects/client-runners.js';
import { commandInput } from '../../source/effects/command-runner.js';
import type { AdjudicationTask, ExtractionTask } from '../../source/memory/contracts.js';
import type { RunnerTask } from '../../source/memory/runner.js';
import { consolidationTask } from '../../source/memory/consolidation/task.js';
import { screenRunnerTask, secretPlaceholder } from '../../source/memory/runner-input-lint.js';
import type { SourceTurn } from '../../source/memory/source-turn.js';
import { plantedToken } from '../support/memory-corpus.js';

const turn = (ordinal: number, said: string, answer = 'Noted.'): SourceTurn => ({
  client: 'codex',
  sessionKey: 'session-1',
  turnKey: `turn-${ordinal}`,
  recordedAtMs: 1_000 + ordinal,
  cwd: null,
  ordinal,
  digest: `d${ordinal}`,
  messages: [
    { key: `u${ordinal}`, role: 'user', classification: 'evidence', kind: 'prompt', body: said, digest: `u${ordinal}` },
    {
      key: `a${ordinal}`,
      role: 'assistant',
      classification: 'context',
      kind: 'answer',
      body: answer,
      digest: `a${ordinal}`,
    },
  ],
});

function extractionTask(turns: SourceTurn[]): ExtractionTask {
  const chunk = planChunks(turns)[0]!;
  return {
    taskId: 'ext-1',
    binding: { sourceInputDigest: chunk.sourceInputDigest },
    evidenceCatalog: chunk.catalogue.map((entry) => ({
      evidenceId: entry.evidenceId,
      pointerDigest: entry.pointerDigest,
    })),
    chunk: {
      chunkRef: chunk.chunkRef,
      turnRange: chunk.turnRange,
      coverage: chunk.coverage,
      transcript: chunk.transcript,
    },
  } as unknown as ExtractionTask;
}

const leaked = (shown: string, secret: string) =>
  Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8)).find((piece) => shown.includes(piece)) ??
  null;

describe('screenRunnerTask', () => {
  const token = plantedToken();

  it('finds the turn of each finding past multi-byte turns; replaces it; leaves ids and the catalogue as they were', () => {
    const task = extractionTask([
      turn(1, '日本語のメモ 👩‍💻 and é́ marks: use pnpm here.', 'Sure 🙂'),
      turn(2, `The token is ${token} for the registry.`),
      turn(3, 'Run the tests nightly.'),
    ]);
    const screened = screenRunnerTask({ kind: 'extraction', task });
    assert.equal(screened.replaced, 1);
    assert.deepEqual(
      screened.findings.map((f) => [f.rule, f.source, f.turn, f.excerpt, f.replaced]),
      [['github-token', 'transcript', 'turn-2', `${token.slice(0, 4)}…[40 chars]`, true]],
    );
    const sent = (screened.work as { task: ExtractionTask }).task;
    assert.ok(sent.chunk.transcript.includes(`The token is ${secretPlaceholder('github-token')} for the registry.`));
    assert.equal(leaked(sent.chunk.transcript, token), null);
    assert.deepEqual(sent.evidenceCatalog, task.evidenceCatalog);
    assert.deepEqual(sent.binding, task.binding);
    assert.equal(task.chunk.transcript.includes(token), true, 'the stored task is not changed');
  });

  it('context turns, drafts and pool summaries are screened; both runners send no part of the token', () => {
    const task = extractionTask([turn(3, 'Use pnpm.')]);
    const work: RunnerTask = {
      kind: 'extraction',
      task,
      context: [{ turnKey: 'turn-1', text: `<<context-user>>\nmy key ${token}\n`, bytes: 0 }],
    };
    const screened = screenRunnerTask(work);
    assert.deepEqual(
      screened.findings.map((f) => [f.source, f.turn, f.line]),
      [['context', 'turn-1', 2]],
    );
    const context = (screened.work as { context: Array<{ text: string; bytes: number }> }).context[0]!;
    assert.equal(context.bytes, Buffer.byteLength(context.text, 'utf8'));
    for (const bytes of [commandInput(work), clientPrompt(work)]) {
      assert.equal(leaked(bytes.toString('utf8'), token), null);
      assert.ok(bytes.toString('utf8').includes('[secret:github-token]'));
    }
    assert.deepEqual(commandInput(screened.work), commandInput(work), 'the runner builds from the screened task');

    const adjudication = {
      taskId: 'adj-1',
      binding: {},
      drafts: [
        {
          candidateId: 'cand-1',
          content: `Publish with ${token}.`,
          type: 'work_method',
          priority: 50,
          confidence: 'high',
          scene: null,
          statements: [{ statementId: 's1', text: `Publish with ${token}.`, evidenceIds: ['e1'] }],
        },
      ],
      pool: [
        {
          sourceKind: 'approved',
          id: 'entry-1',
          revision: 1,
          contentDigest: 'a'.repeat(64),
          state: 'active',
          summary: `old ${token}`,
        },
      ],
    } as unknown as AdjudicationTask;
    const judged = screenRunnerTask({ kind: 'adjudication', task: adjudication });
    assert.equal(judged.replaced, 3);
    assert.deepEqual(
      judged.findings.map((f) => [f.source, f.ref]),
      [
        ['draft', 'cand-1'],
        ['draft', 'cand-1'],
        ['pool', 'approved:entry-1'],
      ],
    );
    assert.equal(leaked(JSON.stringify(judged.work), token), null);
    assert.equal((judged.work.task as AdjudicationTask).drafts[0]!.candidateId, 'cand-1');
  });

  it('screening a screened task replaces nothing more and gives the same bytes', () => {
    const task = extractionTask([turn(1, `Two: ${token} and ${plantedToken()}.`)]);
    const once = screenRunnerTask({ kind: 'extraction', task });
    assert.equal(once.replaced, 2);
    const twice = screenRunnerTask(once.work);
    assert.equal(twice.replaced, 0);
    assert.deepEqual(commandInput(twice.work), commandInput(once.work));
  });

  it('a consolidation task: entries and scenes are screened, ids and digests stay; the client prompt is its own', () => {
    const task = consolidationTask({
      memoryStateUuid: 'u',
      owner: { repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) },
      scope: 'project',
      runner: 'ext',
      entries: [
        {
          id: 'deploy',
          revision: 3,
          contentDigest: 'c'.repeat(64),
          type: 'work_method',
          title: 'Deploy',
          appliesWhen: null,
          body: `Deploy with ${token}.`,
          supersedes: [],
        },
      ],
      scenes: [
        {
          name: 'release',
          title: 'Release',
          appliesWhen: `when ${token} rotates`,
          entries: ['deploy'],
          body: 'How we release.\n',
          text: `---\nscene: release\ntitle: Release\nappliesWhen: "when ${token} rotates"\nentries: ["deploy"]\n---\nHow we release.\n`,
          contentDigest: 'd'.repeat(64),
        },
      ],
    });
    const work: RunnerTask = { kind: 'consolidation', task };
    const screened = screenRunnerTask(work);
    assert.deepEqual(
      screened.findings.map((f) => [f.source, f.ref]),
      [
        ['entry', 'deploy'],
        ['scene', 'release'],
        ['scene', 'release'],
      ],
    );
    const sent = screened.work.task as typeof task;
    assert.deepEqual(
      [sent.taskId, sent.entries[0]!.revision, sent.entries[0]!.contentDigest, sent.scenes[0]!.contentDigest],
      [task.taskId, 3, 'c'.repeat(64), 'd'.repeat(64)],
    );
    for (const bytes of [commandInput(work), clientPrompt(work)]) {
      assert.equal(leaked(bytes.toString('utf8'), token), null);
      assert.ok(bytes.toString('utf8').includes('[secret:github-token]'));
    }
    const prompt = clientPrompt(work).toString('utf8');
    assert.match(prompt, /^You are a restricted consolidator for common-memory\./);
    assert.match(prompt, /common-memory-consolidation-patch@v1/);
    assert.ok(prompt.endsWith(`${commandInput(work).toString('utf8')}\n`), 'the task JSON follows the instructions');
    const extraction = clientPrompt({ kind: 'extraction', task: extractionTask([turn(3, 'Use pnpm.')]) });
    assert.match(extraction.toString('utf8'), /^You are a restricted extractor/, 'the extraction prompt is unchanged');
  });
});
