// `common-memory mcp`: the MCP server on stdio that a client (Claude Code, Codex) starts. stdout
// carries JSON-RPC only; anything for a person goes to stderr. It runs until the client closes
// stdin, and holds nothing between calls: each call opens memory-state read-only and closes it.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { sha256Hex } from '../ground/digests.js';
import type { ProposalOrigin } from '../memory/proposal.js';
import { localBackend } from './backend.js';
import { createMcpServer } from './tools.js';

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

/** Serves until stdin ends; resolves with the exit status. */
export async function runMcpServer(home: string, cwd: string): Promise<number> {
  // The origin is read at each proposal: the client names itself at initialize, after the server exists.
  const server = createMcpServer(
    localBackend(home, cwd, () => proposalOrigin(server.server.getClientVersion(), process.env)),
    packageVersion(),
  );
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}
