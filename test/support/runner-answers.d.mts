/** The contract's answer to an extraction or adjudication task (see runner-answers.mjs). */
export function answerTask(task: Record<string, unknown>): Record<string, unknown>;
