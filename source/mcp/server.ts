// `common-memory mcp`: the MCP server on stdio that a client (Claude Code, Codex) starts. stdout
// carries JSON-RPC only; anything for a person goes to stderr. It runs until the client closes
// stdin, and holds nothing between calls: each call opens memory-state read-only and closes it.
// stdio-lines.ts frames and checks the lines, protocol.ts answers them, tools.ts (loaded once
// `initialize` is answered) does the work through backend.ts.
import { readFileSync } from 'node:fs';
import type { ProposalOrigin } from '../api/proposal.js';
import { sha256Hex } from '../ground/digests.js';
import { MCP_SERVER_NAME } from '../hosts/mcp-config.js';
import { localBackend } from './backend.js';
import { McpSession, type ToolTable } from './protocol.js';
import { checkedLines } from './stdio-lines.js';

/**
 * Where a client names, in the environment it starts an MCP server with, the conversation that
 * started it. Checked live: Claude Code 2.1.332 sets CLAUDE_CODE_SESSION_ID (the root session);
 * Codex 0.171.0 names none (a Codex proposal has no conversation). It is the conversation at the
 * server's start.
 */
const CONVERSATION_ENV = ['CLAUDE_CODE_SESSION_ID'] as const;

/** Who proposes: the client as it named itself at initialize, and its conversation as a digest (never the id). */
export function proposalOrigin(
  clientInfo: { name?: unknown; version?: unknown } | undefined,
  env: NodeJS.ProcessEnv,
): ProposalOrigin {
  // Control characters go (C1 too: U+009B is a terminal's CSI); review shows hidden ones as ⟨U+XXXX⟩.
  const text = (value: unknown) =>
    typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 100) : '';
  const client = text(clientInfo?.name) || 'unknown client';
  const version = text(clientInfo?.version) || null;
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

/** Serves until stdin ends and every call begun has been answered; resolves with the exit status. */
export async function runMcpServer(home: string, cwd: string): Promise<number> {
  // The origin is read at each proposal: the client names itself at initialize, after the server exists.
  const session: McpSession = new McpSession(
    { name: MCP_SERVER_NAME, version: packageVersion() },
    async (): Promise<ToolTable> =>
      (await import('./tools.js')).createToolTable(
        localBackend(home, cwd, () => proposalOrigin(session.clientInfo(), process.env)),
      ),
  );
  // A person who typed `common-memory mcp` would otherwise face a silent prompt that looks hung.
  if (process.stdin.isTTY)
    process.stderr.write(
      'common-memory mcp: the MCP server Claude Code and Codex start (install claude|codex registers it). ' +
        'It reads JSON-RPC, one message a line, on stdin; Ctrl+D ends it.\n',
    );
  const write = (reply: object) => process.stdout.write(`${JSON.stringify(reply)}\n`);
  const pending = new Set<Promise<void>>();
  // Lines that are no JSON-RPC message are answered in stdio-lines.ts; each other line here.
  const lines = process.stdin.pipe(checkedLines((reply) => process.stdout.write(reply)));
  // A client that went away (EPIPE) is seen as the end of stdin; the write is not retried.
  process.stdout.on('error', () => undefined);
  lines.on('data', (message: Record<string, unknown>) => {
    const answered = session.handle(message).then((reply) => {
      if (reply !== null) write(reply);
    });
    pending.add(answered);
    void answered.finally(() => pending.delete(answered));
  });
  await new Promise<void>((resolve) => lines.once('end', resolve));
  await Promise.all(pending);
  return 0;
}
