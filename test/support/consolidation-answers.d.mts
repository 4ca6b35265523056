/** A token of the github-token format, assembled at run time (see consolidation-answers.mjs). */
export const FAKE_TOKEN: string;
/** The patch a fake consolidation runner in `mode` answers (see consolidation-answers.mjs). */
export function answerConsolidation(
  task: Record<string, unknown>,
  mode: string,
  recordDir: string,
): Promise<Record<string, unknown>>;
