// What a person does once a promotion plan is voided. Most reasons call for a new plan of the same
// candidates (memory prepare again); a reason that leaves nothing to prepare (its one candidate
// promoted by another plan, discarded or gone) or that names its own step (a consolidation plan:
// memory consolidate again; the other candidates of a plan) says so itself, and nothing is added.

/** How a void reason says that preparing again would make nothing. */
export const NOTHING_TO_PREPARE = 'nothing is left to prepare';

/** The step after a plan voided for `reason`: "run memory prepare again", or null when the reason names its own. */
export function stepAfterVoid(reason: string | null): string | null {
  if (reason !== null && (reason.includes(NOTHING_TO_PREPARE) || /\brun memory [a-z]/.test(reason))) return null;
  return 'run memory prepare again';
}

/** `text` followed by the step after a void, as `<joiner><step>` (nothing when the reason names its own). */
export const withStepAfterVoid = (text: string, reason: string | null, joiner: string): string => {
  const step = stepAfterVoid(reason);
  return step === null ? text : `${text}${joiner}${step}`;
};

/** Prepare's refusal of a candidate no longer a draft (discarded, promoted or superseded since it was chosen). */
export const notDraftRefusal = (candidateId: string, status: string): string =>
  `Candidate ${candidateId} is ${status}; only draft candidates can be promoted. Nothing was prepared.`;

/** The candidate a notDraftRefusal names, or undefined for any other message. */
export const notDraftCandidate = (message: string): string | undefined =>
  /^Candidate (\S+) is \w+; only draft candidates can be promoted/.exec(message)?.[1];
