// `common-memory mcp`: the MCP server on stdio that a client (Claude Code, Codex) starts. stdout
// carries JSON-RPC only; anything for a person goes to stderr. It runs until the client closes
// stdin, and holds nothing between calls: each call opens memory-state read-only and closes it.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { localBackend } from './backend.js';
import { createMcpServer } from './tools.js';

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
  const server = createMcpServer(localBackend(home, cwd), packageVersion());
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
