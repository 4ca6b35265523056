// Which pi to run: by default the pi 0.73.1 installed with common-memory (an optional dependency:
// only driving agents needs it, so a hooks-only install may leave it out), started with this node;
// COMMON_MEMORY_PI_COMMAND ({"command": "...", "args": [...]}) replaces it (another pi, or a test double).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CmError } from '../../errors.js';

export const PI_COMMAND_ENV = 'COMMON_MEMORY_PI_COMMAND';

export interface PiCommandLine {
  command: string;
  args: string[];
}

export const PI_PACKAGE = '@mariozechner/pi-coding-agent';

export function resolvePiCommand(
  env: NodeJS.ProcessEnv = process.env,
  locate: () => string = () => import.meta.resolve(PI_PACKAGE),
): PiCommandLine {
  const configured = env[PI_COMMAND_ENV];
  if (configured) {
    try {
      const parsed = JSON.parse(configured) as Partial<PiCommandLine>;
      if (
        typeof parsed.command === 'string' &&
        (parsed.args === undefined || (Array.isArray(parsed.args) && parsed.args.every((a) => typeof a === 'string')))
      ) {
        return { command: parsed.command, args: parsed.args ?? [] };
      }
    } catch {
      // fall through to the error below
    }
    throw new CmError('usage', `${PI_COMMAND_ENV} must be JSON like {"command": "/path/to/pi", "args": []}.`);
  }
  try {
    const manifestPath = findManifest(fileURLToPath(locate()));
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.['pi'];
    if (!bin) throw new Error('no "pi" bin in its package.json');
    return { command: process.execPath, args: [join(dirname(manifestPath), bin)] };
  } catch (error) {
    throw new CmError(
      'runtime_failed',
      `pi is not installed: driving agents needs ${PI_PACKAGE}, an optional dependency of common-memory that this install left out (${(error as Error).message}). ` +
        `Reinstall common-memory without --omit=optional (or run npm install ${PI_PACKAGE} where it is installed), or set ${PI_COMMAND_ENV}. Capture from Codex and Claude Code does not need it.`,
    );
  }
}

/** The package's own package.json, found upwards from its entry point (its exports hide the file). */
function findManifest(entry: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === PI_PACKAGE)
      return candidate;
  }
  throw new Error('its package.json was not found');
}

/**
 * pi's own arguments for an agent: RPC mode, no session files, offline, no tools or discovered
 * extras (seed 003 E1.4); the session-start memory snapshot, when there is one, appended to pi's
 * system prompt for the whole generation (frozen: the child is started once per generation).
 */
export function piArguments(model: string | null, snapshot = ''): string[] {
  const args = [
    '--mode',
    'rpc',
    '--no-session',
    '--offline',
    '--no-tools',
    '--no-extensions',
    '--no-skills',
    '--no-prompt-templates',
    '--no-themes',
    '--no-context-files',
  ];
  if (model) {
    const slash = model.indexOf('/');
    if (slash > 0) args.push('--provider', model.slice(0, slash), '--model', model.slice(slash + 1));
    else args.push('--model', model);
  }
  if (snapshot !== '') args.push('--append-system-prompt', snapshot);
  return args;
}
