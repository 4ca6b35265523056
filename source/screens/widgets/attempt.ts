// One operation ID per submission: a retry of the same input after a failure reuses the failed
// attempt's ID, so if that attempt did commit (a lost reply), the host answers with the original
// receipt instead of doing the work twice. Different input is a new submission with a new ID.
export interface Attempt<Input> {
  input: Input;
  /** What makes two submissions "the same": compared, never shown. */
  key: string;
  operationId: string;
}

export function attemptFor<Input>(
  failed: Attempt<Input> | null,
  input: Input,
  key: string,
  freshOperationId: string,
): Attempt<Input> {
  return failed !== null && failed.key === key ? failed : { input, key, operationId: freshOperationId };
}
