// Every record discriminator of Claude Code 2.1.332 transcripts the parser switches on, in one
// place, each with what it means for memory: evidence, context or ignored (HOSTS.md 2.5). The names
// come from the client's shipped code (its transcript retention table, the attachment renderer and
// the lists beside it, its system-message constructors, the prompt sources it stamps);
// test/live/claude-record-kinds.test.ts reads them out of the installed client and fails when it
// knows one these lists lack.
//
// Unknown names in a newer client: the families that can never hold what the user typed —
// attachments and system lines — do not isolate the session. An unknown attachment is context of
// kind `unknown_attachment` when the line carries what the model saw (`rendered`), ignored when it
// does not; an unknown system subtype changes no turn. What a user types always arrives as a `user`
// line, and a prompt whose UserPromptSubmit candidate never meets a transcript prompt is reported
// as unconfirmed delivery, so tolerating these families cannot lose or invent evidence. The
// families that carry evidence or structure — line types, prompt sources, content blocks — still
// fail closed with `transcript_unknown_record`.

/** Lines of the uuid/parentUuid chain: the conversation. */
export const CLAUDE_CHAIN_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'attachment', 'system']);

/**
 * The client's own books (its retention table's other entries): never model-visible, ignored by
 * name. `progress` once sat in the chain; one that carries a uuid still anchors its children.
 */
export const CLAUDE_BOOKKEEPING_TYPES: ReadonlySet<string> = new Set([
  'agent-color',
  'agent-name',
  'agent-setting',
  'ai-title',
  'api-request',
  'api-request-blob',
  'api-request-resumed',
  'api-request-shape',
  'artifact-autoreact-ledger',
  'artifact-comment-monitor',
  'atis-latch',
  'attribution-snapshot',
  'bridge-session',
  'content-replacement',
  'continued-in',
  'cost-state',
  'custom-title',
  'data-flow-incomplete',
  'data-flow-records',
  'derived-from',
  'dev-mods',
  'ended-by-model',
  'file-history-delta',
  'file-history-snapshot',
  'fork-context-ref',
  'frame-link',
  'history-suppression',
  'host-row',
  'hybrid-organization',
  'isolation-latch',
  'last-prompt',
  'memory-mode',
  'mode',
  'observer-ref',
  'permission-mode',
  'pr-link',
  'progress',
  'queue-operation',
  'relocated',
  'repl-mode',
  'resume-head-vouch',
  'session-owner',
  'summary',
  'tag',
  'tools-used',
  'worktree-state',
]);

/**
 * `promptSource` of a user line: who sent it. typed, queued (typed while a turn ran, sent after
 * it), suggestion_accepted (the user accepted a suggested prompt) and sdk (`-p`, the SDK) are the
 * user's — evidence; system is the harness's (a task notification) — context.
 */
export const CLAUDE_PROMPT_SOURCES: Readonly<Record<string, 'evidence' | 'context'>> = {
  typed: 'evidence',
  queued: 'evidence',
  suggestion_accepted: 'evidence',
  sdk: 'evidence',
  system: 'context',
};

/** What an attachment is to memory. Every attachment is context-only: never evidence. */
export type ClaudeAttachmentKind =
  /** Hook output the model sees (and, for Stop `hook_blocking_error`, a Stop hook sending the model back to work). */
  | 'hook_context'
  /**
   * A prompt submitted while the model worked (typed, or a task notification), delivered mid-turn
   * inside the running turn. It is not a turn of its own; its UserPromptSubmit candidate is matched
   * by the attachment's `prompt` and consumed as context (none left waiting, its body freed).
   */
  | 'queued_prompt'
  /** Harness context: environment, files, reminders, listings, mode notices… */
  | 'environment'
  /** Types the client itself drops when it loads a transcript: never model-visible. */
  | 'ignored';

const kinds = (kind: ClaudeAttachmentKind, names: readonly string[]): Array<[string, ClaudeAttachmentKind]> =>
  names.map((name) => [name, kind]);

/** Each attachment type of 2.1.332. A line's `rendered` text is what the model saw; without it the line is ignored. */
export const CLAUDE_ATTACHMENT_KINDS: ReadonlyMap<string, ClaudeAttachmentKind> = new Map([
  ...kinds('hook_context', [
    'hook_additional_context',
    'hook_blocking_error',
    'hook_cancelled',
    'hook_deferred_tool',
    'hook_error_during_execution',
    'hook_non_blocking_error',
    'hook_permission_decision',
    'hook_plugin_listing',
    'hook_stopped_continuation',
    'hook_success',
    'hook_system_message',
  ]),
  ...kinds('queued_prompt', ['queued_command']),
  ...kinds('environment', [
    'account_memory_recall',
    'advisor_stripped',
    'advisor_tool',
    'agent_ask_notice',
    'agent_listing_delta',
    'agent_mention',
    'already_read_file',
    'artifact_opening_prefetch',
    'async_hook_response',
    'async_hook_response_batch',
    'at_mention_reference',
    'attention_budget',
    'auto_mode',
    'auto_mode_exit',
    'bash_output_audience_note',
    'batching_reminder',
    'batching_reminder_sent',
    'budget_usd',
    'claude_app_notice',
    'command_permissions',
    'compact_file_reference',
    'context_efficiency',
    'context_sections',
    'coordinator_context',
    'cowork_memory_context',
    'credential_org',
    'critical_system_reminder',
    'date',
    'date_change',
    'deferred_tools_delta',
    'deferred_tools_record',
    'diagnostics',
    'dir_sync_notice',
    'directory',
    'dynamic_skill',
    'edited_image_file',
    'edited_text_file',
    'elapsed_time_reminder',
    'environment',
    'file',
    'first_week',
    'fork_briefing',
    'goal_status',
    'goals',
    'inlined_image_paths',
    'instructions',
    'invoked_skills',
    'language',
    'linked_plugin_tools_note',
    'max_turns_reached',
    'mcp_dropped_tools_delta',
    'mcp_instructions_delta',
    'mcp_resource',
    'memory_update',
    'message_pdf_reads',
    'model',
    'nested_memory',
    'opened_file_in_ide',
    'output_limit_note',
    'output_style',
    'output_style_instructions',
    'output_token_usage',
    'pdf_reference',
    'peer_mention',
    'plan_file_reference',
    'plan_mode',
    'plan_mode_exit',
    'plan_mode_reentry',
    'plugin_note',
    'poll_events',
    'prefix_delta',
    'proactivity',
    'progress_reminder_sent',
    'project_doc_reads',
    'projects_thread_ask',
    'prompt_as_file',
    'prompt_render_point',
    'prompt_snapshot',
    'read_truncation_notice',
    'relevant_memories',
    'remote_session_change',
    'repl_mcp_needs_auth',
    'repl_mcp_servers',
    'sandbox_instructions',
    'secondary_reminder',
    'secondary_reminder_sent',
    'selected_lines_in_diff',
    'selected_lines_in_ide',
    'session_context',
    'session_cron_carry',
    'silent_turn_reminder',
    'skill_listing',
    'skill_mention',
    'structured_output',
    'task_reminder',
    'task_status',
    'team_context',
    'teammate_mailbox',
    'teammate_shutdown_batch',
    'thinking_drop',
    'thinking_stripped',
    'thread_state',
    'todo_reminder',
    'token_usage',
    'tool_host_result_lines',
    'tool_hosts_correction',
    'tool_hosts_notice',
    'tool_offer_record',
    'tool_results_cut',
    'tool_search_usage_reminder',
    'total_tokens_reminder',
    'ultra_effort_enter',
    'ultra_effort_exit',
    'ultrathink_effort',
    'unknown_command_fallback',
    'whole_texts_withdrawn',
    'widget_context_hint',
    'withheld_memory',
    'workflow_keyword_request',
    'workflow_size_guideline_change',
  ]),
  ...kinds('ignored', [
    'audio_transcript',
    'compaction_reminder',
    'companion_intro',
    'context_tip',
    'echo_activities',
    'fold_nudge',
    'instruction_files_not_loaded',
    'new_directory',
    'new_file',
    'pen_mode_enter',
    'pen_mode_exit',
    'verify_plan_reminder',
  ]),
]);

/** What a system line does to the open turn. */
export type ClaudeSystemEffect = 'stop_summary' | 'turn_end' | 'none';

/**
 * System subtypes 2.1.332 constructs. stop_hook_summary and turn_duration end turns (the parser's
 * rules); every other one is a chain node with nothing for memory (informational — including a
 * prompt a UserPromptSubmit hook blocked —, compaction boundaries, notices, SDK stream states).
 */
const NOTHING_FOR_MEMORY = [
  'agents_killed',
  'api_error',
  'api_retry',
  'away_summary',
  'background_tasks_changed',
  'bridge_state',
  'bridge_status',
  'checkpoint_done',
  'cloud_session_delta',
  'cloud_session_status',
  'code_change_published',
  'commands_changed',
  'compact_boundary',
  'control_request_progress',
  'dev_intent',
  'elicitation_complete',
  'feedback_draft_queued',
  'file_attachments_missing',
  'file_snapshot',
  'hook_progress',
  'hook_response',
  'hook_started',
  'informational',
  'inherited_asks_settled',
  'init',
  'instruction_size_warning',
  'late_allow_not_run',
  'local_command',
  'memory_recall',
  'memory_saved',
  'mirror_error',
  'model_consent_fallback',
  'model_fallback',
  'model_refusal_fallback',
  'model_refusal_no_fallback',
  'notification',
  'peer_message_hold',
  'per_turn_effort_changed',
  'permission_check_status',
  'permission_denied',
  'permission_retry',
  'placed',
  'plugin_install',
  'post_turn_summary',
  'rewind_stand_in',
  'scheduled_task_fire',
  'session_metadata',
  'session_state_changed',
  'session_title_changed',
  'session_writes_lost',
  'shell_cwd',
  'start_folder',
  'status',
  'task_notification',
  'task_progress',
  'task_started',
  'task_summary',
  'task_updated',
  'thinking_tokens',
  'tool_host_result',
  'turn_began_before_init',
  'turn_handoff_available',
  'turn_preempted',
  'turn_starting',
  'ui_focus',
  'ui_invalidate',
  'ui_log',
  'ui_notify',
  'ui_notify_cancel',
  'ui_panes',
  'ui_placed',
  'ui_scroll',
  'ui_status',
  'ui_toast',
  'vcs_state_changed',
  'voice_call_talk',
  'worker_shutting_down',
  'microcompact_boundary',
];
export const CLAUDE_SYSTEM_SUBTYPES: ReadonlyMap<string, ClaudeSystemEffect> = new Map([
  ['stop_hook_summary', 'stop_summary'],
  ['turn_duration', 'turn_end'],
  ...NOTHING_FOR_MEMORY.map((name): [string, ClaudeSystemEffect] => [name, 'none']),
]);

/** User content blocks; tool_result makes the line a tool result (context). */
export const CLAUDE_USER_BLOCKS: ReadonlySet<string> = new Set(['text', 'image', 'document', 'tool_result']);

/** Assistant content blocks: text is the answer, tool_use a tool call; thinking is not kept. */
export const CLAUDE_ASSISTANT_BLOCKS: Readonly<Record<string, 'answer' | 'tool_call' | 'ignored'>> = {
  text: 'answer',
  tool_use: 'tool_call',
  thinking: 'ignored',
  redacted_thinking: 'ignored',
};
