// What the host expects on stdout (HOSTS.md 1.4, 2.4). Only SessionStart carries context, as
// hookSpecificOutput.additionalContext, which both Codex and Claude Code accept for that event.
// An empty snapshot (nothing approved yet, or memory-state unavailable) gives no output either.
// Every other event gets no output at all: Codex warns about additionalContext on events that do
// not support it, and plain stdout would reach the model for Claude's UserPromptSubmit.
export function hookReply(event: string, snapshot: string | null): string {
  if (event !== 'SessionStart' || !snapshot) return '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: snapshot } });
}
