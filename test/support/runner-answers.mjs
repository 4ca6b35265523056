// What a well-behaved extractor answers to a task: a valid draft batch (one draft citing the first
// turn of the evidence catalogue) or an adjudication storing every draft. Shared by the fake
// command runner and the fake model servers that stand in for a model behind Codex or Claude.

/** @param {any} task an extraction or adjudication task (common-memory-*-task@v1) */
export function answerTask(task) {
  if (task.format === 'common-memory-extraction-task@v1') {
    const first = task.evidenceCatalog[0];
    return {
      format: 'common-memory-candidate-draft-batch@v1',
      taskId: task.taskId,
      binding: task.binding,
      candidates: first
        ? [
            {
              content: 'Use pnpm instead of npm in this repository.',
              type: 'work_method',
              priority: 70,
              confidence: 'high',
              scene: null,
              statements: [{ statementId: 's1', text: 'Use pnpm instead of npm.', evidenceIds: [first.evidenceId] }],
            },
          ]
        : [],
    };
  }
  return {
    format: 'common-memory-adjudication-result@v1',
    taskId: task.taskId,
    binding: task.binding,
    adjudications: task.drafts.map((draft) => ({
      draftRef: draft.candidateId,
      action: 'store',
      targetIds: [],
      mergedFields: null,
    })),
  };
}
