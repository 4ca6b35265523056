// Fake OpenAI Responses API for running the real Codex CLI offline (HOSTS.md 1.3).
// Loopback only, random port, bounded in lifetime, requests and body size, so a
// forgotten server can neither hang a test run nor grow without limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord, listenLoopback, parseJson, readBody, sendJson } from './loopback-http.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body, or null when there was none or it was not JSON. */
  readonly body: unknown;
  readonly at: number;
}

/** What the server answers to one POST /v1/responses. */
export type ResponsesReply =
  | { readonly type: 'text'; readonly text: string }
  /**
   * An exec_command function call; once Codex sends back its output, `then` answers it. Without
   * `then` the request carrying its output goes to the script like any other (a model that keeps calling).
   */
  | { readonly type: 'exec'; readonly cmd: string; readonly then?: string | ((output: string) => string) }
  /**
   * Any other function call, e.g. an MCP tool (Codex 0.171.0 lists it as function `memory_get` in the
   * namespace `mcp__common_memory`) or a subagent (`spawn_agent` in `multi_agent_v1`). `then` answers
   * its output, or, when it is a reply itself, the model goes on with that.
   */
  | {
      readonly type: 'call';
      readonly name: string;
      readonly namespace?: string;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly then: string | ((output: string) => string | ResponsesReply) | ResponsesReply;
    }
  | { readonly type: 'error'; readonly status: number; readonly code?: string; readonly message?: string };

export interface ResponsesTurn {
  /** Text of the last role:"user" message, or null when the request has none. */
  readonly prompt: string | null;
  /** 0-based index of this POST /v1/responses among all received. */
  readonly index: number;
  readonly request: RecordedRequest;
}

export type ResponsesScript = (turn: ResponsesTurn) => ResponsesReply;

export interface FakeResponsesServerOptions {
  /** Decides the reply to each request that is not a function_call_output follow-up. */
  readonly script?: ResponsesScript;
  /** The server closes itself after this long (default 5 min). */
  readonly lifetimeMs?: number;
  /** Requests beyond this count get HTTP 503 (default 200): a client stuck in a loop fails fast. */
  readonly maxRequests?: number;
}

export interface FakeResponsesServer {
  /** Base URL for `model_providers.<id>.base_url`, ending in /v1. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Replace the script for the requests that follow. */
  setScript(script: ResponsesScript): void;
  close(): Promise<void>;
}

/** Rules matched in order against the prompt; the first whose `match` is found wins. */
export function byPrompt(
  rules: ReadonlyArray<{ readonly match: string | RegExp; readonly reply: ResponsesReply }>,
  fallback: ResponsesReply = { type: 'text', text: 'Hello from the fake server.' },
): ResponsesScript {
  return ({ prompt }) => {
    const text = prompt ?? '';
    const rule = rules.find((r) => (typeof r.match === 'string' ? text.includes(r.match) : r.match.test(text)));
    return rule?.reply ?? fallback;
  };
}

export async function startFakeResponsesServer(options: FakeResponsesServerOptions = {}): Promise<FakeResponsesServer> {
  let script = options.script ?? byPrompt([]);
  const maxRequests = options.maxRequests ?? 200;
  const requests: RecordedRequest[] = [];
  // call_id -> follow-up answer, so the reply to a tool output does not depend on the script.
  const pendingCalls = new Map<string, string | ((output: string) => string | ResponsesReply) | ResponsesReply>();
  let responsesSeen = 0;
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
          return sendJson(res, 503, { error: { message: 'fake server: request budget spent' } });
        route(recorded, res);
      },
      () => sendJson(res, 413, { error: { message: 'fake server: body too large' } }),
    );
  };

  function route(request: RecordedRequest, res: ServerResponse): void {
    const path = request.path.split('?')[0] ?? '';
    if (request.method === 'GET' && path === '/v1/models') {
      // An empty list is enough: Codex falls back to built-in metadata (with a warning).
      return sendJson(res, 200, { object: 'list', data: [] });
    }
    if (request.method === 'POST' && path === '/v1/responses') {
      const index = responsesSeen++;
      const toolOutput = lastFunctionCallOutput(request.body);
      const followUp = toolOutput ? pendingCalls.get(toolOutput.callId) : undefined;
      if (toolOutput && followUp !== undefined) {
        pendingCalls.delete(toolOutput.callId);
        const next = typeof followUp === 'function' ? followUp(toolOutput.output) : followUp;
        if (typeof next === 'object') return answer(next, res);
        const text = next;
        return streamItems(res, [messageItem(nextId('msg'), text)]);
      }
      const reply = script({ prompt: lastUserText(request.body), index, request });
      return answer(reply, res);
    }
    sendJson(res, 404, { error: { message: `fake server: no route for ${request.method} ${path}` } });
  }

  function answer(reply: ResponsesReply, res: ServerResponse): void {
    switch (reply.type) {
      case 'text':
        return streamItems(res, [messageItem(nextId('msg'), reply.text)]);
      case 'exec':
        return functionCall(res, { name: 'exec_command' }, { cmd: reply.cmd }, reply.then);
      case 'call': {
        const named = { name: reply.name, ...(reply.namespace !== undefined ? { namespace: reply.namespace } : {}) };
        return functionCall(res, named, reply.arguments, reply.then);
      }
      case 'error':
        return sendJson(res, reply.status, {
          error: {
            type: 'invalid_request_error',
            code: reply.code ?? 'fake_failure',
            message: reply.message ?? 'fake server: forced failure',
          },
        });
    }
  }

  function functionCall(
    res: ServerResponse,
    named: { name: string; namespace?: string },
    args: Readonly<Record<string, unknown>>,
    then: string | ((output: string) => string | ResponsesReply) | ResponsesReply | undefined,
  ): void {
    const callId = nextId('call');
    if (then !== undefined) pendingCalls.set(callId, then);
    const item = { type: 'function_call', id: nextId('fc'), call_id: callId, ...named };
    streamItems(res, [{ ...item, arguments: JSON.stringify(args), status: 'completed' }]);
  }

  function streamItems(res: ServerResponse, items: ReadonlyArray<Record<string, unknown>>): void {
    const responseId = nextId('resp');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
    const send = (type: string, data: Record<string, unknown>): void => {
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    send('response.created', { response: { id: responseId, status: 'in_progress' } });
    items.forEach((item, outputIndex) => {
      const added = item['type'] === 'message' ? { ...item, status: 'in_progress', content: [] } : item;
      send('response.output_item.added', { output_index: outputIndex, item: added });
      if (item['type'] === 'message') {
        send('response.output_text.delta', {
          output_index: outputIndex,
          content_index: 0,
          item_id: item['id'],
          delta: messageText(item),
        });
      }
      send('response.output_item.done', { output_index: outputIndex, item });
    });
    send('response.completed', {
      response: {
        id: responseId,
        status: 'completed',
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 110,
        },
      },
    });
    res.end();
  }

  const server = await listenLoopback(handle, options.lifetimeMs ?? 5 * 60_000);
  const port = server.port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    setScript: (s) => {
      script = s;
    },
    close: server.close,
  };
}

function messageItem(id: string, text: string): Record<string, unknown> {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function messageText(item: Record<string, unknown>): string {
  const content = item['content'];
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (isRecord(c) && typeof c['text'] === 'string' ? c['text'] : '')).join('');
}

function inputItems(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body['input']) ? body['input'] : [];
}

/** The prompt is the last user message; earlier ones are history or harness context. */
function lastUserText(body: unknown): string | null {
  const items = inputItems(body);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (isRecord(item) && item['role'] === 'user') return messageText(item);
  }
  return null;
}

/** Only when the request ENDS with a tool output is it the follow-up to our call. */
function lastFunctionCallOutput(body: unknown): { callId: string; output: string } | null {
  const last = inputItems(body).at(-1);
  if (!isRecord(last) || last['type'] !== 'function_call_output' || typeof last['call_id'] !== 'string') return null;
  const output = last['output'];
  return { callId: last['call_id'], output: typeof output === 'string' ? output : JSON.stringify(output) };
}
