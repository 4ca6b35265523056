// Each agent gets a private pi agent dir: pi writes some RPC settings back into it (HOSTS.md 3.6),
// so sharing the user's dir would leak one agent's runtime settings into every other pi.
// The user's provider configuration is copied in at each start, never linked.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { echoed } from '../../echo-text.js';
import { AGENT_MODEL_MAX_CHARS } from '../../limits.js';

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
    // A FIFO or a device put there after create is skipped, not opened: copying it would block
    // the host until a writer came. pi then lacks that file and says so at the first prompt.
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    copyFileSync(from, join(agentDir, name));
    // A copy keeps its source's mode: a 0644 models.json or auth.json (API keys) would be readable
    // by others inside the data home, whose files are 0600.
    chmodSync(join(agentDir, name), 0o600);
    copied.push(name);
  }
  return copied;
}

/** pi names a model as provider/id (e.g. anthropic/claude-sonnet-4-5, ollama/llama3.1:8b). */
const MODEL = /^[A-Za-z0-9][\w.-]*\/\S+$/;

/**
 * Why an agent's pi settings cannot work, checked when the agent is created rather than at its
 * first prompt; undefined when they can. pi takes its providers from models.json (custom ones)
 * and its keys from auth.json, so a config dir with neither gives it nothing to use.
 */
export function piSettingsProblem(model: string | undefined, piConfigDir: string | undefined): string | undefined {
  if (model !== undefined && model.length > AGENT_MODEL_MAX_CHARS) {
    return `--model is ${model.length} characters; pi's model names are provider/id, at most ${AGENT_MODEL_MAX_CHARS} characters here.`;
  }
  if (model !== undefined && !MODEL.test(model)) {
    return `--model is provider/id, as pi names models (e.g. anthropic/claude-sonnet-4-5 or ollama/llama3.1:8b), not ${echoed(model)}.`;
  }
  if (piConfigDir === undefined) return undefined;
  if (!existsSync(piConfigDir) || !statSync(piConfigDir).isDirectory())
    return `The pi config dir ${piConfigDir} does not exist or is not a directory.`;
  const present = CONFIG_FILES.filter((name) => existsSync(join(piConfigDir, name)));
  if (!present.includes('models.json') && !present.includes('auth.json')) {
    return `The pi config dir ${piConfigDir} has neither models.json (providers and models) nor auth.json (API keys), so pi would have no provider. See "Giving pi a provider" in docs/agents.md.`;
  }
  for (const name of present) {
    // Only a regular file is read (a symlink to one too): opening a FIFO blocks until a writer
    // comes, which froze this command, or the TUI with its in-process host.
    if (!statSync(join(piConfigDir, name)).isFile())
      return `${join(piConfigDir, name)} is not a regular file (a FIFO, a device or a directory); pi reads its settings from files.`;
    try {
      JSON.parse(readFileSync(join(piConfigDir, name), 'utf8'));
    } catch (error) {
      // V8's message quotes the text around the error; auth.json holds API keys, so that excerpt
      // is cut off and only what went wrong (and where, when V8 says) is kept.
      const reason = (error as Error).message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '');
      return `${join(piConfigDir, name)} is not valid JSON (${reason}); pi would refuse it.`;
    }
  }
  return undefined;
}
