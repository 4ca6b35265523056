// What the host expects on stdout (HOSTS.md 1.4, 2.4). The memory snapshot goes out as
// hookSpecificOutput.additionalContext, which both Codex and Claude Code accept for SessionStart,
// UserPromptSubmit and PostToolUse: at SessionStart the activation's frozen snapshot, and at the
// first UserPromptSubmit or PostToolUse after a `memory refresh` the replaced one, once. An empty
// snapshot (nothing approved yet, or memory-state unavailable) gives no output. Every other event
// gets no output at all: Codex warns about additionalContext on events that do not support it,
// and plain stdout would reach the model for Claude's UserPromptSubmit.
import { REFRESHED_EMPTY_TEXT } from '../memory/snapshot.js';

export function hookReply(event: string, snapshot: string | null, refreshed: string | null = null): string {
  let context: string | null = null;
  if (event === 'SessionStart') context = snapshot || null;
  else if (refreshed !== null) context = refreshed || REFRESHED_EMPTY_TEXT;
  if (context === null) return '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: context } });
}
