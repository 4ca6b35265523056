// Checks of a request's values that need no store: the CLI makes them before it opens one (a bad
// flag is said before "no store yet"), and the store makes them again for every other caller.
import { echoed } from '../echo-text.js';
import { CmError } from '../errors.js';
import { CAPTURE_CLIENTS, type CaptureClient, OPERATION_ID, parseRecoveryId } from './common.js';

/**
 * Refuses an operation ID that is not one, saying the rule it breaks. The ID is quoted and cut
 * (echoed): it is the caller's input, and may be thousands of characters or hold terminal escapes.
 */
export function checkOperationId(operationId: string): void {
  if (OPERATION_ID.test(operationId)) return;
  throw new CmError(
    'invalid_input',
    `Operation ID ${echoed(operationId)} is not valid: use 1–128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit (a UUID is best).`,
  );
}

/** An agent's name: a letter or digit, then up to 63 letters, digits, ".", "_" or "-". */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Refuses a name no agent can have, naming the rule. */
export function checkAgentName(name: string): void {
  if (AGENT_NAME.test(name)) return;
  throw new CmError('invalid_input', `Agent name ${echoed(name)} is not valid: 1–64 letters, digits, ".", "_" or "-".`);
}

/** A --client filter: one of the captured clients, or a refusal naming the value given. */
export function checkedCaptureClient(client: string | undefined): CaptureClient | undefined {
  if (client === undefined) return undefined;
  const known = CAPTURE_CLIENTS.find((name) => name === client);
  if (known === undefined) throw new CmError('usage', `--client is codex, claude or pi, not ${echoed(client)}.`);
  return known;
}

/** The recovery item `session-drain --recover` retries: its number, or a refusal naming the form (rec-<n>). */
export function checkedRecoveryId(text: string): number {
  const recoveryId = parseRecoveryId(text);
  if (recoveryId === undefined)
    throw new CmError(
      'invalid_input',
      `${echoed(text)} is not a recovery ID (rec-<n>); run "common-memory status" to list them.`,
    );
  return recoveryId;
}

/** The row number a recovery page starts after: 0 for the first page, else the cursor status printed. */
export function recoveryCursor(text: string | undefined): number {
  if (text === undefined) return 0;
  const after = parseRecoveryId(text);
  if (after === undefined)
    throw new CmError(
      'invalid_cursor',
      `${echoed(text)} is not a recovery ID (rec-<n>); use the nextRecoveryId that status printed.`,
    );
  return after;
}
