// Live-test harness: the real Codex CLI 0.171.0 and Claude Code 2.1.332, offline, against
// fake model servers on 127.0.0.1, with hooks installed into temporary homes.
// This module is the public surface; the parts live in small modules next to it.
export {
  CLAUDE_VERSION,
  CODEX_VERSION,
  CLIENTS_DIR,
  CLIENTS_DIR_ENV,
  ClientsMissingError,
  INSTALL_HINT,
  locateClients,
} from './clients.js';
export type { InstalledClients } from './clients.js';
export { runChild } from './child.js';
export type { ChildOptions, ChildResult } from './child.js';
export { KEEP_ENV, TMPDIR_ENV, baseEnv, makeSandbox, shellQuote } from './sandbox.js';
export type { EnvOption, HookCommand, Sandbox, SandboxPaths } from './sandbox.js';
export { CODEX_HOOK_EVENTS, createCodexSandbox, findRollout, runCodex } from './codex.js';
export type {
  CodexHookEvent,
  CodexRun,
  CodexRunOptions,
  CodexSandbox,
  CodexSandboxOptions,
  CodexTrustMode,
} from './codex.js';
export { listCodexHooks, trustedHashToml } from './codex-trust.js';
export type { ListedCodexHook } from './codex-trust.js';
export { CLAUDE_HOOK_EVENTS, FAKE_ANTHROPIC_KEY, createClaudeSandbox, findTranscript, runClaude } from './claude.js';
export type { ClaudeHookEvent, ClaudeRun, ClaudeRunOptions, ClaudeSandbox, ClaudeSandboxOptions } from './claude.js';
export {
  FAKE_TEXT_ANSWER,
  SCENARIOS,
  SCENARIO_PROMPTS,
  TOOL_COMMAND,
  runClaudeScenario,
  runCodexScenario,
} from './scenarios.js';
export type { ScenarioName, ScenarioOptions, ScenarioResult } from './scenarios.js';
export {
  HOOK_RECORD_ENV,
  RECORD_HOOK_SCRIPT,
  firedEvents,
  readHookRecords,
  recordingHookCommand,
} from './hook-records.js';
export type { HookRecord } from './hook-records.js';
export { parseJsonLines } from './jsonl.js';
export { trustInstalledCodexHooks, withClaude, withCodex } from './with-client.js';
export type { ClientWorld } from './with-client.js';
