// The MCP server's protocol (source/mcp/protocol.ts) in-process, each reply checked against the MCP
// SDK's own spec schemas (the SDK is a dev dependency: the reference, not shipped code), with the
// real tool table (source/mcp/tools.ts) over a backend that records what it was asked. The
// messages are those the real clients were recorded sending: Claude Code 2.1.332 probes
// `server/discover` and falls back to `initialize` 2025-11-25 on -32601; Codex 0.171.0 sends
// `initialize` 2025-06-18 and `tools/list` with a progress token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { CmError } from '../../source/errors.js';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  McpSession,
  METHOD_NOT_FOUND,
  PROTOCOL_VERSIONS,
  type Reply,
  type ToolTable,
} from '../../source/mcp/protocol.js';
import { createToolTable, type MemoryBackend } from '../../source/mcp/tools.js';

type SpecName = keyof typeof specTypeSchemas;

function conforms(name: SpecName, value: unknown): void {
  const schema = specTypeSchemas[name] as unknown as {
    '~standard': { validate(value: unknown): { issues?: unknown[] } | Promise<unknown> };
  };
  const checked = schema['~standard'].validate(value) as { issues?: unknown[] };
  assert.equal(checked.issues, undefined, `${name}: ${JSON.stringify(checked.issues)}\n${JSON.stringify(value)}`);
}

/** A result reply: a spec JSON-RPC result response whose result is a spec `result` of its kind. */
function result(reply: Reply | null, kind: SpecName): Record<string, unknown> {
  assert.ok(reply && 'result' in reply, `a result: ${JSON.stringify(reply)}`);
  conforms('JSONRPCResultResponse', reply);
  conforms(kind, reply.result);
  return reply.result as Record<string, unknown>;
}

function error(reply: Reply | null, code: number): string {
  assert.ok(reply && 'error' in reply, `an error: ${JSON.stringify(reply)}`);
  if (reply.id !== null) conforms('JSONRPCErrorResponse', reply);
  const { code: got, message } = reply.error as { code: number; message: string };
  assert.equal(got, code, message);
  return message;
}

function recordingBackend(): { backend: Required<MemoryBackend>; calls: string[] } {
  const calls: string[] = [];
  const backend: Required<MemoryBackend> = {
    search: async (query, limit) => {
      calls.push(`search ${query} ${limit}`);
      return { results: [], generation: 1, coverage: 'complete' } as never;
    },
    get: async (id) => {
      calls.push(`get ${id}`);
      throw new CmError('not_found', `No entry ${id}.`);
    },
    status: async () => {
      calls.push('status');
      return {} as never;
    },
    propose: async (proposal) => {
      calls.push(`propose ${proposal.title}`);
      return { candidateId: 'c1' } as never;
    },
    refresh: async (session) => {
      calls.push(`refresh ${session}`);
      return {} as never;
    },
    consolidatePreview: async (scope) => {
      calls.push(`preview ${scope}`);
      return {} as never;
    },
  };
  return { backend, calls };
}

const INFO = { name: 'common-memory', version: '9.9.9' };
const session = (tools?: () => Promise<ToolTable>) =>
  new McpSession(INFO, tools ?? (async () => createToolTable(recordingBackend().backend)));
const initialize = (protocolVersion: unknown, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.332' } },
});

describe('the MCP protocol, against the spec schemas', () => {
  it("answers Claude Code's discover probe with method-not-found, then negotiates the version it asks for", async () => {
    const s = session();
    const probe = await s.handle({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    assert.equal(probe?.id, 'server-discover-probe-1');
    error(probe, METHOD_NOT_FOUND);
    const init = result(await s.handle(initialize('2025-11-25', 0)), 'InitializeResult');
    assert.deepEqual(init, {
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: false } },
      serverInfo: INFO,
    });
    assert.deepEqual(s.clientInfo(), { name: 'claude-code', version: '2.1.332' });
    for (const version of PROTOCOL_VERSIONS)
      assert.equal(result(await s.handle(initialize(version)), 'InitializeResult')['protocolVersion'], version);
    assert.equal(
      result(await s.handle(initialize('2099-01-01')), 'InitializeResult')['protocolVersion'],
      PROTOCOL_VERSIONS[0],
      'an unknown version gets the newest this server speaks',
    );
  });

  it('lists the tools with their schemas and annotations, and calls them with checked arguments', async () => {
    const { backend, calls } = recordingBackend();
    const s = session(async () => createToolTable(backend));
    assert.equal(await s.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }), null);
    const listed = result(
      await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 0 } } }),
      'ListToolsResult',
    );
    const tools = listed['tools'] as Array<{ name: string; inputSchema: Record<string, unknown> }>;
    assert.deepEqual(
      tools.map((tool) => tool.name),
      [
        'memory_search',
        'memory_get',
        'memory_status',
        'memory_propose',
        'memory_refresh',
        'memory_consolidate_preview',
      ],
    );
    assert.deepEqual(tools[0]!.inputSchema['required'], ['query']);
    assert.equal(tools[0]!.inputSchema['additionalProperties'], false);

    const call = (name: string, args: unknown, id = 2) =>
      s.handle({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const found = result(await call('memory_search', { query: 'pnpm', limit: 3 }), 'CallToolResult');
    assert.equal(found['isError'], undefined);
    const refused = result(await call('memory_search', { query: 'x', extra: 1 }), 'CallToolResult');
    assert.equal(refused['isError'], true);
    assert.match(JSON.stringify(refused['structuredContent']), /invalid_input/);
    const missing = result(await call('memory_get', { id: 'nope' }), 'CallToolResult');
    assert.match(JSON.stringify(missing['structuredContent']), /"code":"not_found"/);
    result(await call('memory_consolidate_preview', { scope: 'user' }), 'CallToolResult');
    result(await call('memory_consolidate_preview', { scope: 'all' }), 'CallToolResult');
    assert.deepEqual(calls, ['search pnpm 3', 'get nope', 'preview user'], 'the refused calls reached no backend');

    const unknown = error(await call('x'.repeat(100_000), {}), INVALID_PARAMS);
    assert.ok(unknown.length < 2_000, 'an unknown tool name is echoed only up to the limit');
    assert.match(unknown, /the tools are memory_search, memory_get/);
  });

  it('a proposal holding a terminal control character is invalid_input and reaches no backend', async () => {
    const { backend, calls } = recordingBackend();
    const s = session(async () => createToolTable(backend));
    const propose = (args: Record<string, unknown>) =>
      s.handle({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'memory_propose', arguments: { type: 'work_method', ...args } },
      });
    // ESC clears the reviewer's screen, backspaces overwrite what precedes them, BEL rings, C1's CSI is ESC [.
    for (const args of [
      { title: 'Use pnpm', content: 'We use pnpm \u001b[2J\u001b[H here.' },
      { title: 'Use pnpm', content: 'We use npm\b\b\bpnpm.' },
      { title: 'Esc \u001b]0;owned\u0007', content: 'We use pnpm.' },
      { title: 'Use pnpm', content: 'We use pnpm.', appliesWhen: 'installing \u009b2J' },
      // A lone carriage return returns to the line's start: what follows draws over it.
      { title: 'Use pnpm', content: 'We use yarn.\rWe use pnpm.' },
    ]) {
      const refused = result(await propose(args), 'CallToolResult');
      assert.equal(refused['isError'], true, JSON.stringify(args));
      assert.match(JSON.stringify(refused['structuredContent']), /invalid_input.*control character/);
    }
    // Tabs and line breaks are text.
    result(await propose({ title: 'Use pnpm', content: 'We use pnpm:\n\tpnpm install\r\n' }), 'CallToolResult');
    assert.deepEqual(calls, ['propose Use pnpm']);
  });

  it('a proposal whose title or content is only whitespace is invalid_input and reaches no backend', async () => {
    const { backend, calls } = recordingBackend();
    const s = session(async () => createToolTable(backend));
    for (const [title, content] of [
      ['   ', 'We use pnpm.'],
      ['Use pnpm', ' \n\t '],
      ['\u3000', '\u00a0'],
    ]) {
      const refused = result(
        await s.handle({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'memory_propose', arguments: { title, content, type: 'work_method' } },
        }),
        'CallToolResult',
      );
      assert.equal(refused['isError'], true, JSON.stringify([title, content]));
      assert.match(JSON.stringify(refused['structuredContent']), /invalid_input.*blank/);
    }
    assert.deepEqual(calls, []);
  });

  /** A tool called with one argument of only whitespace: the refusal's text, and the backend calls it made. */
  async function blankRefused(name: string, args: Record<string, string>) {
    const { backend, calls } = recordingBackend();
    const s = session(async () => createToolTable(backend));
    const refused = result(
      await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      'CallToolResult',
    );
    assert.equal(refused['isError'], true);
    return { text: JSON.stringify(refused['structuredContent']), calls };
  }

  it("a memory_search query of only whitespace is invalid_input in the tool's terms and reaches no backend", async () => {
    const { text, calls } = await blankRefused('memory_search', { query: ' \t\n ' });
    assert.match(text, /invalid_input.*memory_search: \\"query\\" is blank/);
    assert.doesNotMatch(text, /common-memory memory search/, 'an agent is not sent to the CLI');
    assert.deepEqual(calls, []);
  });

  it('a memory_get id of only whitespace is invalid_input (the read trims an id) and reaches no backend', async () => {
    const { text, calls } = await blankRefused('memory_get', { id: ' \t ' });
    assert.match(text, /invalid_input.*memory_get: \\"id\\" is blank/);
    assert.deepEqual(calls, []);
  });

  it('a read-only backend offers only the read tools', async () => {
    const { backend } = recordingBackend();
    const { propose: _p, refresh: _r, consolidatePreview: _c, ...reads } = backend;
    const s = session(async () => createToolTable(reads));
    const listed = result(await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), 'ListToolsResult');
    assert.deepEqual(
      (listed['tools'] as Array<{ name: string }>).map((tool) => tool.name),
      ['memory_search', 'memory_get', 'memory_status'],
    );
    error(
      await s.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_propose' } }),
      INVALID_PARAMS,
    );
  });

  it('ping, notifications and responses; every message that is none gets an error with its id', async () => {
    const s = session();
    result(await s.handle({ jsonrpc: '2.0', id: 'p', method: 'ping' }), 'EmptyResult');
    assert.equal(await s.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), null);
    assert.equal(await s.handle({ jsonrpc: '2.0', id: 9, result: {} }), null, 'a response answers nothing');
    assert.equal((await s.handle({ jsonrpc: '2.0', id: 3 }))?.id, 3);
    error(await s.handle({ jsonrpc: '2.0', id: 3 }), INVALID_REQUEST);
    error(await s.handle({ jsonrpc: '2.0', id: 4, method: 5 }), INVALID_REQUEST);
    // 1e400 parses as Infinity, which JSON writes as null: a result no client could match to its request.
    const infinite = await s.handle({ jsonrpc: '2.0', id: Number.POSITIVE_INFINITY, method: 'ping' });
    assert.equal(infinite?.id, null);
    error(infinite, INVALID_REQUEST);
    const nullId = await s.handle({ jsonrpc: '2.0', id: null, method: 'ping' });
    assert.equal(nullId?.id, null);
    error(nullId, INVALID_REQUEST);
    error(await s.handle({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: 'x' }), INVALID_PARAMS);
    error(await s.handle({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: {} }), INVALID_PARAMS);
    error(await s.handle({ jsonrpc: '2.0', id: 7, method: 'initialize', params: {} }), INVALID_PARAMS);
    for (const method of ['resources/list', 'prompts/list', 'logging/setLevel', 'x'.repeat(50_000)]) {
      const message = error(await s.handle({ jsonrpc: '2.0', id: 8, method }), METHOD_NOT_FOUND);
      assert.ok(message.length < 2_000);
    }
  });

  it('tools that cannot be loaded are an internal error of the call, and the session goes on', async () => {
    let loads = 0;
    const s = session(async () => {
      loads++;
      throw new Error('the bundle is damaged');
    });
    result(await s.handle(initialize('2025-06-18')), 'InitializeResult');
    await new Promise((resolve) => setTimeout(resolve, 10)); // a rejection nobody handled would end the process here
    assert.match(error(await s.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), INTERNAL_ERROR), /damaged/);
    result(await s.handle({ jsonrpc: '2.0', id: 2, method: 'ping' }), 'EmptyResult');
    assert.equal(loads, 1);
  });
});
