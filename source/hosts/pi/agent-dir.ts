// Each agent gets a private pi agent dir: pi writes some RPC settings back into it (HOSTS.md 3.6),
// so sharing the user's dir would leak one agent's runtime settings into every other pi.
// The user's provider configuration is copied in at each start, never linked.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const CONFIG_FILES = ['models.json', 'auth.json', 'settings.json'] as const;

export function defaultPiConfigDir(): string {
  return process.env['PI_CODING_AGENT_DIR'] ?? join(homedir(), '.pi', 'agent');
}

/** Creates the agent's dir (0700) and copies the provider configuration into it. Returns what was copied. */
export function prepareAgentDir(agentDir: string, piConfigDir: string | null): string[] {
  mkdirSync(agentDir, { recursive: true, mode: 0o700 });
  const source = piConfigDir ?? defaultPiConfigDir();
  const copied: string[] = [];
  for (const name of CONFIG_FILES) {
    const from = join(source, name);
    if (!existsSync(from)) continue;
    copyFileSync(from, join(agentDir, name));
    copied.push(name);
  }
  return copied;
}
