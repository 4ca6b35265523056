// Fake Anthropic Messages API for running the real Claude Code offline (HOSTS.md 2.3).
// Loopback only, random port, bounded in lifetime, requests and body size, so a
// forgotten server can neither hang a test run nor grow without limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord, listenLoopback, parseJson, readBody } from './loopback-http.js';

export interface RecordedRequest {
  readonly method: string;
  /** Includes the query string (Claude always sends `?beta=true`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or null when there was none or it was not JSON. */
  readonly body: unknown;
  readonly at: number;
}

/** What the server answers to one POST /v1/messages. */
export type MessagesReply =
  /** `delayMs`: the answer starts this much later (a slow model, e.g. a subagent still working). */
  | { readonly type: 'text'; readonly text: string; readonly delayMs?: number }
  /**
   * A Bash tool_use (optionally preceded by a text block, as a real model does); once
   * Claude sends back the tool_result, `then` answers it.
   */
  | {
      readonly type: 'bash';
      readonly command: string;
      readonly description?: string;
      readonly preamble?: string;
      /** Bash's `run_in_background`: the client answers at once and notifies when the command ends. */
      readonly background?: boolean;
      /** The answer to the tool result starts this much later (a model still working on it). */
      readonly thenDelayMs?: number;
      /** Omitted: the tool result goes to the script like any other request (a model that keeps calling). */
      readonly then?: string | ((output: string) => string);
    }
  /**
   * Any other tool_use (e.g. the `Agent` subagent tool); like `bash`, `then` answers its tool result,
   * or, when it is a reply itself, the model goes on with that (e.g. ToolSearch, then the MCP tool).
   */
  | {
      readonly type: 'tool';
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
      readonly then: string | ((output: string) => string) | MessagesReply;
    }
  | { readonly type: 'error'; readonly status: number; readonly errorType?: string; readonly message?: string }
  /** Starts streaming `text` and never finishes: the client must interrupt (Esc) or time out. */
  | { readonly type: 'hang'; readonly text: string };

export interface MessagesTurn {
  /** Text of the last role:"user" message (all its text blocks joined), or null. */
  readonly prompt: string | null;
  /** 0-based index of this POST /v1/messages among all received. */
  readonly index: number;
  readonly request: RecordedRequest;
}

export type MessagesScript = (turn: MessagesTurn) => MessagesReply;

export interface FakeAnthropicServerOptions {
  /** Decides the reply to each request whose last user message is not a tool_result. */
  readonly script?: MessagesScript;
  /** Sent as the `request-id` response header; Claude stores it as the transcript `requestId`. */
  readonly requestId?: string;
  /** The server closes itself after this long (default 5 min). */
  readonly lifetimeMs?: number;
  /** Requests beyond this count get HTTP 503 (default 200): a client stuck in a loop fails fast. */
  readonly maxRequests?: number;
}

export interface FakeAnthropicServer {
  /** Value for ANTHROPIC_BASE_URL (no /v1: the client appends it). */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Replace the script for the requests that follow. */
  setScript(script: MessagesScript): void;
  close(): Promise<void>;
}

/** Rules matched in order against the prompt; the first whose `match` is found wins. */
export function byPrompt(
  rules: ReadonlyArray<{ readonly match: string | RegExp; readonly reply: MessagesReply }>,
  fallback: MessagesReply = { type: 'text', text: 'Hello from the fake server.' },
): MessagesScript {
  return ({ prompt }) => {
    const text = prompt ?? '';
    const rule = rules.find((r) => (typeof r.match === 'string' ? text.includes(r.match) : r.match.test(text)));
    return rule?.reply ?? fallback;
  };
}

export async function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<FakeAnthropicServer> {
  let script = options.script ?? byPrompt([]);
  const requestId = options.requestId ?? 'req_fake';
  const maxRequests = options.maxRequests ?? 200;
  const requests: RecordedRequest[] = [];
  // tool_use id -> follow-up answer, so the reply to a tool result does not depend on the script.
  const pendingTools = new Map<
    string,
    { then: string | ((output: string) => string) | MessagesReply; delayMs: number }
  >();
  let messagesSeen = 0;
  let ids = 0;
  const nextId = (prefix: string): string => `${prefix}_fake${String(++ids).padStart(6, '0')}`;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    void readBody(req).then(
      (raw) => {
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: { ...req.headers },
          body: parseJson(raw),
          at: Date.now(),
        };
        requests.push(recorded);
        if (requests.length > maxRequests)
          return sendError(res, 503, 'overloaded_error', 'fake server: request budget spent');
        route(recorded, res);
      },
      () => sendError(res, 413, 'request_too_large', 'fake server: body too large'),
    );
  };

  function route(request: RecordedRequest, res: ServerResponse): void {
    const path = request.path.split('?')[0] ?? '';
    if (request.method !== 'POST' || path !== '/v1/messages') {
      return sendError(res, 404, 'not_found_error', `fake server: no route for ${request.method} ${path}`);
    }
    const index = messagesSeen++;
    const last = lastUserMessage(request.body);
    const toolResult = last ? lastToolResult(last) : null;
    const followUp = toolResult ? pendingTools.get(toolResult.toolUseId) : undefined;
    if (toolResult && followUp !== undefined) {
      pendingTools.delete(toolResult.toolUseId);
      if (typeof followUp.then === 'object') return answer(request, res, followUp.then);
      const text = typeof followUp.then === 'string' ? followUp.then : followUp.then(toolResult.output);
      const finish = () => streamMessage(request, res, [{ type: 'text', text }], 'end_turn');
      if (followUp.delayMs > 0) setTimeout(finish, followUp.delayMs).unref();
      else finish();
      return;
    }
    answer(request, res, script({ prompt: last ? userText(last) : null, index, request }));
  }

  function answer(request: RecordedRequest, res: ServerResponse, reply: MessagesReply): void {
    switch (reply.type) {
      case 'text': {
        const finish = () => streamMessage(request, res, [{ type: 'text', text: reply.text }], 'end_turn');
        if ((reply.delayMs ?? 0) > 0) setTimeout(finish, reply.delayMs).unref();
        else finish();
        return;
      }
      case 'bash': {
        const id = `toolu_fake${String(++ids).padStart(6, '0')}`;
        if (reply.then !== undefined) pendingTools.set(id, { then: reply.then, delayMs: reply.thenDelayMs ?? 0 });
        const input = {
          command: reply.command,
          description: reply.description ?? `Run ${reply.command}`,
          ...(reply.background === true ? { run_in_background: true } : {}),
        };
        const blocks: Block[] = reply.preamble ? [{ type: 'text', text: reply.preamble }] : [];
        blocks.push({ type: 'tool_use', id, name: 'Bash', input });
        return streamMessage(request, res, blocks, 'tool_use');
      }
      case 'tool': {
        const id = `toolu_fake${String(++ids).padStart(6, '0')}`;
        pendingTools.set(id, { then: reply.then, delayMs: 0 });
        const block: Block = { type: 'tool_use', id, name: reply.name, input: { ...reply.input } };
        return streamMessage(request, res, [block], 'tool_use');
      }
      case 'hang':
        return streamMessage(request, res, [{ type: 'text', text: reply.text }], null);
      case 'error':
        return sendError(
          res,
          reply.status,
          reply.errorType ?? 'invalid_request_error',
          reply.message ?? 'fake server: forced failure',
        );
    }
  }

  type Block =
    | { type: 'text'; text: string }
    | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

  /** `stopReason` null: the blocks are sent, the message never stops (the connection stays open). */
  function streamMessage(
    request: RecordedRequest,
    res: ServerResponse,
    blocks: readonly Block[],
    stopReason: string | null,
  ): void {
    const body = isRecord(request.body) ? request.body : {};
    const model = typeof body['model'] === 'string' ? body['model'] : 'claude-fake';
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': requestId,
      connection: 'close',
    });
    const send = (event: string, data: Record<string, unknown>): void => {
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    };
    send('message_start', {
      message: {
        id: nextId('msg'),
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    blocks.forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        send('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        send('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        });
      }
      if (stopReason !== null) send('content_block_stop', { index });
    });
    if (stopReason === null) return;
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 7 } });
    send('message_stop', {});
    res.end();
  }

  function sendError(res: ServerResponse, status: number, type: string, message: string): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, connection: 'close' });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  }

  const server = await listenLoopback(handle, options.lifetimeMs ?? 5 * 60_000);
  const port = server.port;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    setScript: (s) => {
      script = s;
    },
    close: server.close,
  };
}

/**
 * Claude appends role:"system" messages after the user turn, so the message that
 * decides the reply is the last role:"user" one, not the last one.
 */
function lastUserMessage(body: unknown): Record<string, unknown> | null {
  const messages = isRecord(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (isRecord(message) && message['role'] === 'user') return message;
  }
  return null;
}

function userText(message: Record<string, unknown>): string {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) =>
      isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

function lastToolResult(message: Record<string, unknown>): { toolUseId: string; output: string } | null {
  const content = message['content'];
  if (!Array.isArray(content)) return null;
  for (let i = content.length - 1; i >= 0; i--) {
    const block: unknown = content[i];
    if (isRecord(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
      return { toolUseId: block['tool_use_id'], output: toolResultText(block['content']) };
    }
  }
  return null;
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (isRecord(c) && typeof c['text'] === 'string' ? c['text'] : '')).join('');
}
