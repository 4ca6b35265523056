// Which memory-state commits may skip the fsync: only the extraction pipeline's own, which the next
// run redoes. A send record, an authorisation, a promotion, a confirm or a discard is what a person
// or a budget relies on after a power failure, so each stays fsynced (synchronous FULL).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writerCommands } from '../../source/store/writer-commands.js';

describe('memory-state durability', () => {
  it('only the pipeline commands the next run redoes commit without an fsync', () => {
    const commands = writerCommands as Record<string, { database?: string; replayable?: true }>;
    const replayable = Object.keys(commands)
      .filter((name) => commands[name]!.replayable)
      .sort();
    assert.deepEqual(replayable, [
      'memoryAbandonTask',
      'memoryClaimTask',
      'memoryClaimTasks',
      'memoryFinishRun',
      'memoryPlan',
      'memoryPlanAdjudication',
      'memoryReleaseClaims',
      'memorySubmitAdjudication',
      'memorySubmitExtraction',
      'memorySubmitExtractions',
    ]);
    for (const name of replayable) assert.equal(commands[name]!.database, 'memory', `${name} is a memory command`);
    const kept = ['memoryRecordSend', 'memoryRecordAuthorization', 'memoryFinishPromotion', 'memoryDiscardCandidate'];
    for (const name of kept) assert.ok(commands[name] && !commands[name].replayable, `${name} stays fsynced`);
  });
});
