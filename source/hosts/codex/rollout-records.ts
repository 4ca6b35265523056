// What every Codex CLI 0.171.0 rollout discriminator means for memory (HOSTS.md 1.5, seed 002).
// Anything not listed here is unknown and fails the session: a new client version that writes a
// new discriminator needs a new adapter, never a guess.

/** Top-level types that carry no user input and no lifecycle: their payloads are never read. */
export const CODEX_IGNORED_LINE_TYPES = new Set([
  'turn_context',
  'world_state',
  'token_usage_record',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'retained_context',
  'security_risk_score',
  'realtime_item',
]);

/** Top-level `type` values (HOSTS.md 1.5 lists exactly these for 0.171.0). */
export const CODEX_LINE_TYPES = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'compacted',
  ...CODEX_IGNORED_LINE_TYPES,
]);

/**
 * event_msg payload types that carry no turn lifecycle and no user input: explicitly ignored.
 * HOSTS.md names some; the rest are the events Codex's rollout policy persists
 * (codex-rs rollout/policy.rs `should_persist_event_msg`, paginated and legacy history modes).
 * `agent_message` (legacy) is ignored because the assistant response_item carries the same output.
 */
export const CODEX_IGNORED_EVENTS = new Set([
  'thread_settings_applied',
  'token_count',
  'context_compacted',
  'thread_rolled_back',
  'thread_goal_updated',
  'plan_update',
  'error',
  'warning',
  'stream_error',
  'model_reroute',
  'model_verification',
  'hook_started',
  'hook_completed',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'entered_review_mode',
  'exited_review_mode',
  'patch_apply_end',
  'mcp_tool_call_end',
  'web_search_end',
  'image_generation_end',
  'sub_agent_activity',
]);

/** item_completed item types whose content is a copy of a response_item (or UI-only): ignored. */
export const CODEX_IGNORED_TURN_ITEMS = new Set([
  'AgentMessage',
  'CommandExecution',
  'ContextCompaction',
  'HookPrompt',
  'InjectedContext',
  'EventDrivenTool',
  'EventCommandEvent',
  'CollabAgentMessage',
  'ConversationArtifact',
  'Plan',
  'Reasoning',
  'WebSearch',
  'ImageView',
  'ImageGeneration',
  'FileChange',
  'McpToolCall',
]);

/** UserMessage content (UserInput) types; only `text` contributes text. */
export const CODEX_USER_INPUT_TYPES = new Set(['text', 'image', 'local_image', 'skill', 'mention']);

/** response_item payload types that are tool invocations (context). */
export const CODEX_TOOL_CALLS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'tool_search_call',
  'image_generation_call',
]);

/** response_item payload types that are tool output (context). */
export const CODEX_TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);

/**
 * response_item payload types with nothing for memory: encrypted reasoning and compaction blobs,
 * `other`, and `agent_message` (persisted by newer policy; its shape is not documented for 0.171).
 */
export const CODEX_IGNORED_ITEMS = new Set(['reasoning', 'compaction', 'context_compaction', 'other', 'agent_message']);

/** `message` content item types (HOSTS.md 1.5). */
export const CODEX_CONTENT_TYPES = new Set(['input_text', 'input_image', 'input_audio', 'output_text']);

/**
 * Oldest accepted `session_meta.cli_version`. The structure this parser relies on
 * (content_item_kinds, provenance, paginated history) is verified against 0.171.0; older files may
 * lack it and would silently lose or mis-classify prompts, so they are refused.
 */
export const CODEX_MIN_CLI_VERSION: readonly [number, number, number] = [0, 171, 0];

export function parseStrictVersion(value: string): [number, number, number] | null {
  const match = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})$/.exec(value);
  if (match === null) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < 3; i += 1) {
    const a = v[i] ?? 0;
    const b = min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
