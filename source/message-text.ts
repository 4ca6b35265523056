// A timeline message as a person reads it: the text parts, tool calls and results summarised,
// thinking folded, an error or abort said in words. The raw JSON stays behind --json.
interface Part {
  type?: string;
  text?: string;
  thinking?: string;
  name?: string;
  arguments?: unknown;
}

interface MessagePayload {
  role?: string;
  content?: unknown;
  stopReason?: string;
  errorMessage?: string;
  toolName?: string;
}

const SUMMARY_CHARS = 60;
const clip = (text: string, chars = SUMMARY_CHARS) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

export function isMessagePayload(payload: unknown): payload is MessagePayload {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as MessagePayload).role === 'string' &&
    'content' in payload
  );
}

/** The message's readable text (possibly several lines); undefined when the payload is no message. */
export function messageText(payload: unknown): string | undefined {
  if (!isMessagePayload(payload)) return undefined;
  const parts: Part[] =
    typeof payload.content === 'string'
      ? [{ type: 'text', text: payload.content }]
      : Array.isArray(payload.content)
        ? (payload.content as Part[])
        : [];
  const out: string[] = [];
  for (const part of parts) {
    if (part.type === 'text' && part.text) out.push(part.text);
    else if (part.type === 'thinking') out.push('[thinking folded]');
    else if (part.type === 'toolCall')
      out.push(`[tool call ${part.name ?? '?'}(${clip(JSON.stringify(part.arguments ?? {}))})]`);
    else if (part.type === 'image') out.push('[image]');
  }
  if (payload.role === 'toolResult')
    return `[tool result${payload.toolName ? ` of ${payload.toolName}` : ''}] ${clip(out.join(' '), 200)}`;
  if (payload.stopReason === 'aborted') out.push('[aborted]');
  if (payload.stopReason === 'error') out.push(`[error: ${payload.errorMessage ?? 'the provider reported an error'}]`);
  return out.length > 0 ? out.join('\n') : '[empty]';
}
