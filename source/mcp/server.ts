// `common-memory mcp`: the MCP server on stdio that a client (Claude Code, Codex) starts. stdout
// carries JSON-RPC only; anything for a person goes to stderr. It runs until the client closes
// stdin, and holds nothing between calls: each call opens memory-state read-only and closes it.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { sha256Hex } from '../ground/digests.js';
import type { ProposalOrigin } from '../api/proposal.js';
import { echoed } from '../echo-text.js';
import { MCP_ERROR_MESSAGE_MAX_CHARS } from '../limits.js';
import { localBackend } from './backend.js';
import { checkedLines } from './stdio-lines.js';
import { createMcpServer, MCP_TOOLS } from './tools.js';

/**
 * Where a client names, in the environment it starts an MCP server with, the conversation that
 * started it. Checked live: Claude Code 2.1.332 sets CLAUDE_CODE_SESSION_ID (the root session);
 * Codex 0.171.0 names none (a Codex proposal has no conversation). It is the conversation at the
 * server's start.
 */
const CONVERSATION_ENV = ['CLAUDE_CODE_SESSION_ID'] as const;

/** Who proposes: the client as it named itself at initialize, and its conversation as a digest (never the id). */
export function proposalOrigin(
  clientInfo: { name?: string; version?: string } | undefined,
  env: NodeJS.ProcessEnv,
): ProposalOrigin {
  const client = (clientInfo?.name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100) || 'unknown client';
  const version = clientInfo?.version?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 100) || null;
  const named = CONVERSATION_ENV.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  return { client, clientVersion: version, conversation: named ? sha256Hex(`${client}\0${named}`) : null };
}

function packageVersion(): string {
  try {
    const url = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

const TOOLS = new Set<string>(MCP_TOOLS);

type Transport = InstanceType<typeof StdioServerTransport>;
type Message = Parameters<Transport['send']>[0];

/**
 * What the SDK says quotes the caller's input whole ("Tool <name> not found" with a 100 KB name):
 * an unknown tool is answered here with its name cut (echo-text.ts), and every error message
 * written is cut at MCP_ERROR_MESSAGE_MAX_CHARS.
 */
function boundEchoes(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message: Message) => {
    const error = (message as { error?: { message?: unknown } }).error;
    if (error !== undefined && typeof error.message === 'string' && error.message.length > MCP_ERROR_MESSAGE_MAX_CHARS)
      message = {
        ...message,
        error: { ...error, message: `${error.message.slice(0, MCP_ERROR_MESSAGE_MAX_CHARS)}… (cut)` },
      } as Message;
    return send(message);
  };
  const receive = transport.onmessage;
  transport.onmessage = (message: Message) => {
    const request = message as { id?: string | number; method?: string; params?: { name?: unknown } };
    const name = request.params?.name;
    if (request.method === 'tools/call' && request.id !== undefined && typeof name === 'string' && !TOOLS.has(name)) {
      void send({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32602, message: `Tool ${echoed(name)} not found; the tools are ${[...TOOLS].join(', ')}.` },
      } as Message).catch(() => undefined);
      return;
    }
    receive?.(message);
  };
}

/** Serves until stdin ends; resolves with the exit status. */
export async function runMcpServer(home: string, cwd: string): Promise<number> {
  // The origin is read at each proposal: the client names itself at initialize, after the server exists.
  const server = createMcpServer(
    localBackend(home, cwd, () => proposalOrigin(server.server.getClientVersion(), process.env)),
    packageVersion(),
  );
  // Lines that are no JSON-RPC message are answered here (stdio-lines.ts); the rest reach the SDK.
  const input = process.stdin.pipe(checkedLines((reply) => process.stdout.write(reply)));
  const transport = new StdioServerTransport(input, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  boundEchoes(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}
