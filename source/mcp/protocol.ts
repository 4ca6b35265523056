// The MCP server's side of the protocol over stdio, for the few methods a tool server needs:
// `initialize` (version negotiation), `ping`, `tools/list` and `tools/call`; every other request is
// "method not found" and every notification is taken without a reply. Written here rather than
// taken from the MCP SDK because the SDK built some 200 protocol and OAuth schemas at every start,
// about 40 % of the time to answer `initialize`, which a client waits for before it offers the
// tools. test/unit/mcp-protocol.test.ts checks each reply against the SDK's own spec schemas.
// What the real clients send was recorded live: Claude Code 2.1.332 first asks `server/discover`
// (protocol revision 2026-07-28) and on "method not found" sends `initialize` with 2025-11-25;
// Codex 0.171.0 sends `initialize` with 2025-06-18. Pure: no I/O; the tools are the caller's.
import { echoed } from '../echo-text.js';
import { MCP_ERROR_MESSAGE_MAX_CHARS } from '../limits.js';

/** The revisions this server speaks, newest first (those of the SDK it replaced). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** The tools, loaded when first asked for (they bring zod and the tool schemas). */
export interface ToolTable {
  /** The `tools` of tools/list: name, description, JSON Schema of the arguments, annotations. */
  readonly list: readonly object[];
  has(name: string): boolean;
  /** A CallToolResult; a failure of the tool is a result with `isError`, never a throw. */
  call(name: string, args: unknown): Promise<object>;
}

/** As the client sent it: any JSON, read with care (server.ts). */
export interface ClientInfo {
  name?: unknown;
  version?: unknown;
}

type Id = string | number;
export type Reply =
  | { jsonrpc: '2.0'; id: Id | null; result: object }
  | { jsonrpc: '2.0'; id: Id | null; error: object };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function failure(id: Id | null, code: number, message: string): Reply {
  const bounded =
    message.length > MCP_ERROR_MESSAGE_MAX_CHARS ? `${message.slice(0, MCP_ERROR_MESSAGE_MAX_CHARS)}… (cut)` : message;
  return { jsonrpc: '2.0', id, error: { code, message: bounded } };
}

/**
 * One client's session: `handle` takes each JSON-RPC message (an object with `"jsonrpc": "2.0"`,
 * as stdio-lines.ts lets through) and resolves with the reply to write, or null for none.
 */
export class McpSession {
  private client: ClientInfo | undefined;
  private tools: Promise<ToolTable> | undefined;

  constructor(
    private readonly server: { name: string; version: string },
    private readonly loadTools: () => Promise<ToolTable>,
  ) {}

  /** What the client called itself at initialize (undefined before). */
  clientInfo(): ClientInfo | undefined {
    return this.client;
  }

  /** Starts loading the tools, so that tools/list after initialize does not wait for it. */
  warm(): void {
    if (this.tools) return;
    this.tools = this.loadTools();
    // A load that fails is answered at the tools' first request; until then it is no crash.
    this.tools.catch(() => undefined);
  }

  async handle(message: Record<string, unknown>): Promise<Reply | null> {
    const { id, method } = message;
    // A number JSON cannot write back (1e400 parses as Infinity, written as null) is no usable id.
    const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (method === undefined) {
      // A response (we send no requests, so it answers nothing) is taken silently; anything else is no message.
      if ('result' in message || 'error' in message) return null;
      return failure(validId ? id : null, INVALID_REQUEST, 'Invalid Request: a message has a "method" or a "result".');
    }
    if (typeof method !== 'string')
      return failure(validId ? id : null, INVALID_REQUEST, 'Invalid Request: "method" is not a string.');
    if (id === undefined) return null; // A notification: initialized, cancelled, roots changed; none needs an answer.
    if (!validId) return failure(null, INVALID_REQUEST, 'Invalid Request: "id" is a string or a number.');
    const params = message['params'] ?? {};
    if (!isObject(params)) return failure(id, INVALID_PARAMS, `Invalid params: the params of ${method} are an object.`);
    try {
      const result = await this.answer(method, params);
      if (result === null) return failure(id, METHOD_NOT_FOUND, `Method not found: ${echoed(method)}.`);
      return typeof result === 'string' ? failure(id, INVALID_PARAMS, result) : { jsonrpc: '2.0', id, result };
    } catch (error) {
      return failure(id, INTERNAL_ERROR, `Internal error: ${(error as Error).message ?? String(error)}`);
    }
  }

  /** The result; the message of an invalid-params error; null for a method this server does not serve. */
  private async answer(method: string, params: Record<string, unknown>): Promise<object | string | null> {
    switch (method) {
      case 'initialize': {
        const requested = params['protocolVersion'];
        if (typeof requested !== 'string')
          return 'Invalid params: initialize names the client\'s "protocolVersion" (a string).';
        if (isObject(params['clientInfo'])) this.client = params['clientInfo'] as ClientInfo;
        this.warm();
        const version = (PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : PROTOCOL_VERSIONS[0];
        return {
          protocolVersion: version,
          capabilities: { tools: { listChanged: false } },
          serverInfo: this.server,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        this.warm();
        return { tools: (await this.tools!).list };
      case 'tools/call': {
        const name = params['name'];
        if (typeof name !== 'string') return 'Invalid params: tools/call names the tool in "name" (a string).';
        this.warm();
        const tools = await this.tools!;
        if (!tools.has(name))
          return `Tool ${echoed(name)} not found; the tools are ${tools.list.map((tool) => (tool as { name: string }).name).join(', ')}.`;
        return tools.call(name, params['arguments']);
      }
      default:
        return null;
    }
  }
}
