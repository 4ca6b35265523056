// One error type for everything a user or a script may see. Each has a stable code,
// a documented exit code, an HTTP status for the API, and a message that says what to do.

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  incomplete: 3,
  storeAlreadyOpen: 4,
  conflict: 5,
  notFound: 6,
  storeUnavailable: 7,
  hostUnreachable: 8,
  inconsistent: 9,
  limitExceeded: 10,
  secretFound: 11,
  memoryUnavailable: 12,
  notRunning: 13,
  authorisationNeeded: 14,
  runnerRefused: 15,
  interrupted: 130,
} as const;

export type ErrorCode =
  | 'usage'
  | 'invalid_input'
  | 'invalid_cursor'
  | 'cursor_other_store'
  | 'cursor_beyond_head'
  | 'limit_exceeded'
  | 'operation_conflict'
  | 'config_conflict'
  | 'agent_busy'
  | 'agent_state'
  | 'agent_not_running'
  | 'runtime_failed'
  | 'not_found'
  | 'store_already_open'
  | 'store_unavailable'
  | 'store_corrupt'
  | 'host_unreachable'
  | 'unauthorized'
  | 'counter_exhausted'
  | 'storage_failed'
  | 'inconsistent'
  | 'secret_found'
  | 'poisoning_found'
  | 'memory_unavailable'
  | 'task_stale'
  | 'runner_unavailable'
  | 'install_broken'
  | 'permission_denied'
  | 'internal';

const exitFor: Record<ErrorCode, number> = {
  usage: EXIT.usage,
  invalid_input: EXIT.usage,
  invalid_cursor: EXIT.usage,
  cursor_other_store: EXIT.conflict,
  cursor_beyond_head: EXIT.usage,
  limit_exceeded: EXIT.limitExceeded,
  operation_conflict: EXIT.conflict,
  config_conflict: EXIT.conflict,
  agent_busy: EXIT.conflict,
  agent_state: EXIT.conflict,
  agent_not_running: EXIT.notRunning,
  runtime_failed: EXIT.internal,
  not_found: EXIT.notFound,
  store_already_open: EXIT.storeAlreadyOpen,
  store_unavailable: EXIT.storeUnavailable,
  store_corrupt: EXIT.storeUnavailable,
  host_unreachable: EXIT.hostUnreachable,
  unauthorized: EXIT.hostUnreachable,
  counter_exhausted: EXIT.internal,
  storage_failed: EXIT.storeUnavailable,
  inconsistent: EXIT.inconsistent,
  secret_found: EXIT.secretFound,
  // Exit 11 is a blocking lint finding of either kind; the code says which (a script may act on it).
  poisoning_found: EXIT.secretFound,
  memory_unavailable: EXIT.memoryUnavailable,
  task_stale: EXIT.conflict,
  runner_unavailable: EXIT.runnerRefused,
  install_broken: EXIT.internal,
  permission_denied: EXIT.storeUnavailable,
  internal: EXIT.internal,
};

const httpFor: Record<ErrorCode, number> = {
  usage: 400,
  invalid_input: 400,
  invalid_cursor: 400,
  cursor_other_store: 409,
  cursor_beyond_head: 400,
  limit_exceeded: 413,
  operation_conflict: 409,
  config_conflict: 409,
  agent_busy: 409,
  agent_state: 409,
  agent_not_running: 409,
  runtime_failed: 502,
  not_found: 404,
  store_already_open: 409,
  store_unavailable: 503,
  store_corrupt: 503,
  host_unreachable: 503,
  unauthorized: 401,
  counter_exhausted: 507,
  storage_failed: 503,
  inconsistent: 500,
  secret_found: 422,
  poisoning_found: 422,
  memory_unavailable: 503,
  task_stale: 409,
  runner_unavailable: 503,
  install_broken: 500,
  permission_denied: 403,
  internal: 500,
};

export class CmError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'CmError';
    this.code = code;
  }
  get exitCode(): number {
    return exitFor[this.code];
  }
  get httpStatus(): number {
    return httpFor[this.code];
  }
  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The code of a refusal by a blocking lint finding: a secret, or text written to steer the model (exit 11 either way). */
export const lintRefusalCode = (reason: 'secret' | 'poisoning'): ErrorCode =>
  reason === 'poisoning' ? 'poisoning_found' : 'secret_found';

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in exitFor;
}

/** Turns anything thrown into a CmError without hiding its message. */
export function asCmError(error: unknown): CmError {
  if (error instanceof CmError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CmError('internal', message);
}
