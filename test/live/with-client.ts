// A real client in a sandbox against a fake model server on loopback that answers every prompt
// with FAKE_TEXT_ANSWER, and a common-memory data home inside the sandbox: what the install,
// first-hour and memory-evidence tests start from. Both are closed when the body is done.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { byPrompt as messagesByPrompt, startFakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { byPrompt as responsesByPrompt, startFakeResponsesServer } from '../support/fake-responses-server.js';
import { type ClaudeSandbox, createClaudeSandbox } from './claude.js';
import { locateClients } from './clients.js';
import { type CodexSandbox, createCodexSandbox } from './codex.js';
import { type ListedCodexHook, listCodexHooks, trustedHashToml } from './codex-trust.js';
import type { Sandbox } from './sandbox.js';
import { FAKE_TEXT_ANSWER } from './scenarios.js';

export interface ClientWorld<S> {
  /** The sandboxed client: no hooks in its config until the test installs them. */
  readonly sandbox: S;
  /** The common-memory data home (`--home`), not created yet. */
  readonly home: string;
}

/** Starts the fake server, then the sandbox on it; runs `body`; closes both, whatever happens. */
async function within<S extends Sandbox, T>(
  server: { baseUrl: string; close(): Promise<void> },
  createSandbox: (options: { baseUrl: string }) => Promise<S>,
  body: (world: ClientWorld<S>) => Promise<T>,
): Promise<T> {
  try {
    const sandbox = await createSandbox({ baseUrl: server.baseUrl });
    try {
      return await body({ sandbox, home: join(sandbox.root, 'cm-home') });
    } finally {
      await sandbox.cleanup();
    }
  } finally {
    await server.close();
  }
}

const ANSWER = { type: 'text', text: FAKE_TEXT_ANSWER } as const;

/** A sandboxed Claude Code (settings.json without hooks) on a fake Messages server. */
export const withClaude = async <T>(body: (world: ClientWorld<ClaudeSandbox>) => Promise<T>): Promise<T> =>
  within(await startFakeAnthropicServer({ script: messagesByPrompt([], ANSWER) }), createClaudeSandbox, body);

/** A sandboxed Codex (no hooks.json) on a fake Responses server. */
export const withCodex = async <T>(body: (world: ClientWorld<CodexSandbox>) => Promise<T>): Promise<T> =>
  within(await startFakeResponsesServer({ script: responsesByPrompt([], ANSWER) }), createCodexSandbox, body);

/**
 * Trusts the hooks `install codex` wrote (`command`) the way install explains to a user: each
 * hook's hash, as `codex app-server` lists it, into config.toml. Returns what Codex listed
 * before, all of it and ours.
 */
export async function trustInstalledCodexHooks(
  sandbox: CodexSandbox,
  command: string,
): Promise<{ listed: ListedCodexHook[]; ours: ListedCodexHook[] }> {
  const listed = await listCodexHooks(locateClients().codexLauncher, sandbox.cwd, sandbox.env);
  const ours = listed.filter((hook) => hook.command === command);
  await appendFile(sandbox.configPath, trustedHashToml(ours));
  return { listed, ours };
}
