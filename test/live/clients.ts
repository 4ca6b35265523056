// Where the real clients live: test/live/clients, a private package kept out of the root
// one because the two native binaries weigh ~700 MB. Missing clients are an error with
// the fix in it, never a silent skip.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const CODEX_VERSION = '0.171.0';
export const CLAUDE_VERSION = '2.1.332';

/** CM_LIVE_CLIENTS_DIR points at another install of the same package (e.g. shared by worktrees). */
export const CLIENTS_DIR_ENV = 'CM_LIVE_CLIENTS_DIR';
export const CLIENTS_DIR = process.env[CLIENTS_DIR_ENV] || fileURLToPath(new URL('./clients/', import.meta.url));
export const INSTALL_HINT =
  'run `bash test/live/install-clients.sh` (installs test/live/clients; needs the npm registry)';

export interface InstalledClients {
  /** The npm launcher (node script). We run it rather than the bare binary because users do,
   * and it sets CODEX_MANAGED_BY_NPM / CODEX_MANAGED_PACKAGE_ROOT, which hooks inherit. */
  readonly codexLauncher: string;
  /** bin/claude.exe is the native binary itself (HOSTS.md 2.1); there is no launcher. */
  readonly claudeBinary: string;
}

export class ClientsMissingError extends Error {
  override readonly name = 'ClientsMissingError';
}

/** Checks the pinned versions from the installed package.json files (cheap: no spawn). */
export function locateClients(): InstalledClients {
  const modules = join(CLIENTS_DIR, 'node_modules');
  const codexLauncher = join(modules, '@openai', 'codex', 'bin', 'codex.js');
  const codexNative = join(
    modules,
    '@openai',
    'codex-linux-x64',
    'vendor',
    'x86_64-unknown-linux-musl',
    'bin',
    'codex',
  );
  const claudeBinary = join(modules, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  const problems = [
    versionProblem(join(modules, '@openai', 'codex', 'package.json'), '@openai/codex', CODEX_VERSION),
    versionProblem(
      join(modules, '@anthropic-ai', 'claude-code', 'package.json'),
      '@anthropic-ai/claude-code',
      CLAUDE_VERSION,
    ),
    existsSync(codexNative) ? null : `the Codex native binary is missing (${codexNative})`,
    // The wrapper ships a small placeholder until the platform binary is linked in; ~400 MB means real.
    isLarge(claudeBinary) ? null : `bin/claude.exe is not the native Claude binary (${claudeBinary})`,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) {
    throw new ClientsMissingError(`Live clients are not installed: ${problems.join('; ')}. To fix, ${INSTALL_HINT}.`);
  }
  return { codexLauncher, claudeBinary };
}

function versionProblem(packageJson: string, name: string, wanted: string): string | null {
  if (!existsSync(packageJson)) return `${name} is not installed`;
  const version: unknown = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
  return version === wanted ? null : `${name} is ${String(version)}, expected ${wanted}`;
}

function isLarge(file: string): boolean {
  try {
    return statSync(file).size > 50 * 1024 * 1024;
  } catch {
    return false;
  }
}
