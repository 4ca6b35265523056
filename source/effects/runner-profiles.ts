// Runner profiles: the external runners a user configured in the data home's `runners.json`. A
// profile names an executable and its argv as a list of words (never a shell string), its time and
// output bounds, the host environment variables it may see (an allow-list; nothing else passes),
// what it tells the user about where bytes go (provider, model, endpoint, retention) and its byte
// budgets. The file is read at each run, so an edit takes effect at the next one.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CmError } from '../errors.js';
import { unknownRunner } from '../memory/runner.js';

export const RUNNERS_FILE = 'runners.json';
export const runnersFile = (home: string) => join(home, RUNNERS_FILE);

/** Conservative budgets: a few chunks per run, a working day of them. */
export const DEFAULT_RUN_BUDGET_BYTES = 256 * 1024;
export const DEFAULT_DAY_BUDGET_BYTES = 1024 * 1024;
export const DEFAULT_RUNNER_TIMEOUT_MS = 120_000;
export const DEFAULT_STDOUT_MAX_BYTES = 1024 * 1024;
/** What a runner may write to stderr that is kept (the per-task log); the rest is dropped and counted. */
export const STDERR_LOG_MAX_BYTES = 64 * 1024;

/** Variables every runner gets from the host when set: no secret among them. */
export const BASE_ENV_ALLOW = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'] as const;
/** Variables that change how any program loads or runs: never passed, even when allow-listed. */
const NEVER_PASSED = /^(NODE_OPTIONS|NODE_PATH|LD_.*|DYLD_.*|BASH_ENV|ENV|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|RUBYOPT)$/;

/** Words an argv word may contain, replaced per task: the task's kind and id. */
export const ARGV_PLACEHOLDERS = ['{taskKind}', '{taskId}'] as const;

const name = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'a name is 1-32 lowercase letters, digits or dashes, starting with a letter')
  .refine((value) => value !== 'builtin', '"builtin" is the offline runner and cannot be redefined');

const budget = z
  .object({
    runBytes: z
      .number()
      .int()
      .min(1)
      .max(64 * 1024 * 1024),
    dayBytes: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024),
  })
  .strict();

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
  .refine((value) => !NEVER_PASSED.test(value), 'loader and interpreter start-up variables are never passed');

const common = {
  name,
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(30 * 60_000)
    .default(DEFAULT_RUNNER_TIMEOUT_MS),
  maxStdoutBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(DEFAULT_STDOUT_MAX_BYTES),
  env: z.array(envName).max(64).default([]),
  provider: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  endpoint: z.string().min(1).max(500),
  providerRetention: z.enum(['unknown', 'no-retention', 'provider-policy']).default('unknown'),
  budget: budget.default({ runBytes: DEFAULT_RUN_BUDGET_BYTES, dayBytes: DEFAULT_DAY_BUDGET_BYTES }),
  /** Whether earlier turns of the same session may be sent as context (off unless granted). */
  conversationContext: z.boolean().default(false),
};

const argvWord = z.string().min(1).max(4096);

export const commandProfile = z
  .object({
    ...common,
    kind: z.literal('command'),
    argv: z.array(argvWord).min(1).max(64),
  })
  .strict();

/** `codex` / `claude`: the real client, restricted, in a one-off home; `version` is the one it must report. */
const clientProfile = z
  .object({
    ...common,
    kind: z.enum(['codex', 'claude']),
    binary: z.string().min(1).max(4096),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a version such as 0.171.0'),
    /** The variable holding the provider's key, passed to the client (and only it). */
    apiKeyEnv: envName.optional(),
    /**
     * Codex only: use your Codex login instead — its auth.json (from your CODEX_HOME, else
     * ~/.codex) is copied into each one-off home and removed with it.
     */
    login: z.boolean().default(false),
  })
  .strict();

export const runnerProfile = z.discriminatedUnion('kind', [commandProfile, clientProfile]);
export type RunnerProfile = z.infer<typeof runnerProfile>;
export type CommandProfile = z.infer<typeof commandProfile>;
export type ClientProfile = z.infer<typeof clientProfile>;

const runnersConfig = z.object({ profiles: z.array(z.unknown()).max(32) }).strict();

/** The hint every configuration error ends with. */
const FIX = `Fix it in ${RUNNERS_FILE} in the data home (see docs/runners.md).`;

/** Parses the text of runners.json; each problem is one line that names the profile and field. */
export function parseRunnerProfiles(text: string, file = RUNNERS_FILE): RunnerProfile[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CmError('invalid_input', `${file} is not JSON. ${FIX}`);
  }
  const top = runnersConfig.safeParse(value);
  if (!top.success) throw new CmError('invalid_input', `${file} must be {"profiles": [...]}. ${FIX}`);
  const profiles: RunnerProfile[] = [];
  top.data.profiles.forEach((raw, index) => {
    const label = profileLabel(raw, index);
    const argv = (raw as { argv?: unknown } | null)?.argv;
    if (typeof argv === 'string')
      throw new CmError(
        'invalid_input',
        `Runner profile ${label}: argv is a shell string; give the program and its arguments as a list of words, e.g. ["/usr/bin/my-extractor", "--json"] (no shell runs it). ${FIX}`,
      );
    const parsed = runnerProfile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || '(profile)';
      throw new CmError('invalid_input', `Runner profile ${label}: ${field}: ${issue.message}. ${FIX}`);
    }
    const problem = credentialProblem(parsed.data);
    if (problem) throw new CmError('invalid_input', `Runner profile ${label}: ${problem}. ${FIX}`);
    if (profiles.some((profile) => profile.name === parsed.data.name))
      throw new CmError('invalid_input', `Runner profile ${label} is defined twice. ${FIX}`);
    profiles.push(parsed.data);
  });
  return profiles;
}

/** A client profile says how the client gets its credentials: a key variable, or (Codex) its login. */
function credentialProblem(profile: RunnerProfile): string | null {
  if (profile.kind === 'command') return null;
  if (profile.login && profile.kind !== 'codex')
    return 'login is for codex profiles; give claude its key with apiKeyEnv';
  if (!profile.login && !profile.apiKeyEnv)
    return 'apiKeyEnv (the variable holding the key) or "login": true is needed';
  return null;
}

function profileLabel(raw: unknown, index: number): string {
  const given = (raw as { name?: unknown } | null)?.name;
  return typeof given === 'string' ? JSON.stringify(given) : `#${index + 1}`;
}

/** The profiles of a data home; none when the file does not exist. */
export function loadRunnerProfiles(home: string): RunnerProfile[] {
  const file = runnersFile(home);
  let fd: number;
  try {
    // Non-blocking, checked on the descriptor before a byte is read: a FIFO in its place would
    // otherwise block `memory status` and every run for ever, waiting for a writer.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CmError('invalid_input', `Cannot read ${file}: ${(error as Error).message}. ${FIX}`);
  }
  let text: string;
  try {
    if (!fstatSync(fd).isFile()) throw new CmError('invalid_input', `${file} is not a regular file. ${FIX}`);
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  return parseRunnerProfiles(text, file);
}

/**
 * A runner that is neither builtin nor a profile of the data home's runners.json: refused (a usage
 * error naming those there are) before anything is made or started for it.
 */
export function refuseUnknownRunner(home: string, named: string | undefined): void {
  if (named === undefined || named === 'builtin') return;
  const profiles = loadRunnerProfiles(home);
  if (profiles.some((p) => p.name === named)) return;
  throw unknownRunner(named, ['builtin', ...profiles.map((p) => p.name)]);
}

/** The environment a runner starts with: the base allow-list and the profile's, from the host; nothing else. */
export function runnerEnvironment(
  profile: Pick<RunnerProfile, 'env'>,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of [...BASE_ENV_ALLOW, ...profile.env]) {
    const value = host[key];
    if (value !== undefined && !NEVER_PASSED.test(key)) env[key] = value;
  }
  return env;
}
