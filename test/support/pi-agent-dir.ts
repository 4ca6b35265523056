// A private, temporary pi agent dir pointing at a fake model server, and the argv to run pi 0.73.1
// offline in RPC mode (HOSTS.md 3.1). One dir per child process: runtime settings commands persist
// into settings.json and would leak into other processes sharing the dir (HOSTS.md 3.6).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real pi 0.73.1 installed with the project. */
export const PI_BIN = resolve(fileURLToPath(new URL('../../node_modules/.bin/pi', import.meta.url)));

export interface PiAgentDirOptions {
  /** e.g. http://127.0.0.1:<port>/v1 */
  readonly baseUrl: string;
  /** pi's agent-level auto-retry; its default base delay is 2000 ms (2 s, 4 s, 8 s). */
  readonly retry?: { readonly enabled?: boolean; readonly maxRetries?: number; readonly baseDelayMs?: number };
  /** Allow only bash (`--tools bash`) instead of `--no-tools`. */
  readonly bashTool?: boolean;
}

export interface PiAgentDir {
  /** The agent dir (PI_CODING_AGENT_DIR). */
  readonly dir: string;
  /** A scratch working directory for the child (pi puts the cwd into its system prompt). */
  readonly cwd: string;
  /** Arguments after the pi binary. */
  readonly args: readonly string[];
  /** The environment for the child: the parent's plus the agent dir and offline switches. */
  readonly env: NodeJS.ProcessEnv;
  /** Removes the dir and the scratch cwd. */
  cleanup(): void;
}

export function makePiAgentDir(options: PiAgentDirOptions): PiAgentDir {
  const root = mkdtempSync(join(tmpdir(), 'cm-pi-'));
  const dir = join(root, 'agent');
  const cwd = join(root, 'work');
  mkdirSync(dir);
  mkdirSync(cwd);
  const models = {
    providers: {
      fake: {
        baseUrl: options.baseUrl,
        api: 'openai-completions',
        apiKey: 'dummy-key',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [
          {
            id: 'fake-model',
            name: 'Fake Model',
            reasoning: false,
            input: ['text'],
            contextWindow: 32000,
            maxTokens: 4096,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          },
        ],
      },
    },
  };
  const settings: Record<string, unknown> = {
    defaultProvider: 'fake',
    defaultModel: 'fake-model',
    quietStartup: true,
    enableInstallTelemetry: false,
  };
  if (options.retry !== undefined) settings['retry'] = { ...options.retry };
  writeFileSync(join(dir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
  writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const args = [
    '--mode',
    'rpc',
    '--no-session',
    '--offline',
    '--provider',
    'fake',
    '--model',
    'fake-model',
    ...(options.bashTool === true ? ['--tools', 'bash'] : ['--no-tools']),
    '--no-extensions',
    '--no-skills',
    '--no-prompt-templates',
    '--no-themes',
    '--no-context-files',
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: dir,
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
  };
  return {
    dir,
    cwd,
    args,
    env,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
