// A minimal MCP client over stdio for tests and benchmarks: starts the real `common-memory mcp`,
// speaks newline-delimited JSON-RPC, and waits for each answer with a deadline that names the request.
import type { ChildProcess } from 'node:child_process';
import { startCli } from './cli.js';

export interface McpReply {
  result?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  error?: { code: number; message: string };
}

export class McpTestClient {
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<number, (reply: McpReply) => void>();
  stderr = '';

  private constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        if (line.trim() === '') continue;
        const message = JSON.parse(line) as McpReply & { id?: number };
        if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
  }

  /** Starts the server and completes the initialize handshake. */
  static async start(
    home: string,
    cwd: string,
    options: { env?: NodeJS.ProcessEnv; clientInfo?: { name: string; version: string } } = {},
  ): Promise<McpTestClient> {
    const client = new McpTestClient(startCli(['mcp', '--home', home], { cwd, env: options.env ?? {} }));
    const init = await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: options.clientInfo ?? { name: 'test', version: '0' },
    });
    if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)}\n${client.stderr}`);
    client.notify('notifications/initialized');
    return client;
  }

  notify(method: string, params?: object): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  request(method: string, params?: object, timeoutMs = 15_000): Promise<McpReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${method} #${id} within ${timeoutMs} ms\n${this.stderr}`)),
        timeoutMs,
      );
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply);
      });
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`);
    });
  }

  /** tools/call; the CallToolResult. */
  async call(name: string, args: object, timeoutMs?: number): Promise<Record<string, any>> {
    // eslint-disable-line @typescript-eslint/no-explicit-any
    const reply = await this.request('tools/call', { name, arguments: args }, timeoutMs);
    if (!reply.result) throw new Error(`tools/call ${name} failed: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  /** Closes stdin and waits for the server to exit (it must, on its own). */
  close(timeoutMs = 10_000): Promise<number | null> {
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null) return resolve(this.child.exitCode);
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`the MCP server did not exit within ${timeoutMs} ms of stdin closing`));
      }, timeoutMs);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      this.child.stdin!.end();
    });
  }
}
