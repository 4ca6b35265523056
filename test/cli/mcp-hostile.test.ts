// `common-memory mcp` against hostile input over stdio (issue 26, item 9), through the real
// shipped bin: a line that is not JSON, or not a JSON-RPC message, is answered (JSON-RPC's -32700
// parse error / -32600 invalid request, `id: null`) and the server goes on serving; input a client
// sent is echoed in messages only up to ECHO_INPUT_MAX_CHARS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { ECHO_INPUT_MAX_CHARS, MCP_LINE_MAX_BYTES, MEMORY_ENTRY_ID_MAX_CHARS } from '../../source/limits.js';
import { syncedRepo } from '../support/approved-repo.js';
import { runCli } from '../support/cli.js';
import { McpTestClient } from '../support/mcp-client.js';

/** Replies with `id: null`, as the server writes them to stdout. */
function nullIdReplies(client: McpTestClient): Array<{ error?: { code: number; message: string } }> {
  const replies: Array<{ error?: { code: number; message: string } }> = [];
  let buffer = '';
  client.child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const message = JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } };
      if (message.id === null) replies.push(message);
    }
  });
  return replies;
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('common-memory mcp against hostile input', () => {
  it('a malformed line gets a -32700 parse error with id null, an object that is no JSON-RPC message -32600; the server keeps serving', async () => {
    const { home, repo } = await syncedRepo('mcp-hostile-parse');
    const client = await McpTestClient.start(home, repo);
    try {
      const replies = nullIdReplies(client);
      client.child.stdin!.write('{"jsonrpc": "2.0", "id": 7, "method": \n');
      const parse = await until('the parse error', () => replies[0]);
      assert.equal(parse.error?.code, -32700);
      assert.match(parse.error!.message, /Parse error/);
      client.child.stdin!.write('[1, 2]\n"just a string"\n');
      await until('two invalid-request errors', () => (replies.length >= 3 ? true : undefined));
      assert.deepEqual(
        replies.slice(1).map((reply) => reply.error?.code),
        [-32600, -32600],
      );
      // A line over the bound is answered without being held, then the next line is read as usual.
      client.child.stdin!.write(`{"jsonrpc":"2.0","id":9,"method":"${'x'.repeat(MCP_LINE_MAX_BYTES)}"}\n`);
      const over = await until('the over-bound error', () => replies[3]);
      assert.equal(over.error?.code, -32600);
      assert.match(over.error!.message, /over the \d+-byte bound/);
      // Still serving, in order.
      const got = await client.call('memory_get', { id: 'use-pnpm' });
      assert.match(got.structuredContent.body, /pnpm-lock\.yaml/);
    } finally {
      assert.equal(await client.close(), 0);
    }
  });

  it('a 100 KB name or id is echoed in a message only up to the limit, with its length', async () => {
    const { home, repo } = await syncedRepo('mcp-hostile-echo');
    const client = await McpTestClient.start(home, repo);
    try {
      const huge = 'q'.repeat(100_000);
      const unknownTool = await client.request('tools/call', { name: huge, arguments: {} });
      const message = unknownTool.error?.message ?? JSON.stringify(unknownTool.result);
      assert.ok(message.length < 1000, `the message is ${message.length} characters`);
      assert.match(message, /100000 characters/);
      const get = await client.call('memory_get', { id: huge });
      assert.equal(get.isError, true);
      assert.ok(JSON.stringify(get).length < 2000, `the result is ${JSON.stringify(get).length} characters`);
      // Within the id bound: an unknown id is echoed, cut at the limit.
      const long = `z${'y'.repeat(MEMORY_ENTRY_ID_MAX_CHARS - 1)}`;
      const missing = await client.call('memory_get', { id: long });
      assert.equal(missing.structuredContent.error.code, 'not_found');
      assert.ok(!missing.structuredContent.error.message.includes(long));
      assert.ok(missing.structuredContent.error.message.includes(long.slice(0, ECHO_INPUT_MAX_CHARS)));
    } finally {
      assert.equal(await client.close(), 0);
    }
  });

  it("each tool's wrong arguments are named, with what was wrong and what they accept, in a spec CallToolResult", async () => {
    const { home, repo } = await syncedRepo('mcp-hostile-arguments');
    const client = await McpTestClient.start(home, repo);
    try {
      const cases: Array<[string, unknown, string]> = [
        ['memory_get', { id: 5 }, 'memory_get: "id" is 5: give a string of 1 to 128 characters.'],
        [
          'memory_search',
          { query: 'pnpm', limit: '5' },
          '"limit" is the string "5": give a whole number from 1 to 100.',
        ],
        ['memory_status', { verbose: true }, '"verbose" is not an argument of memory_status; it takes no arguments'],
        [
          'memory_propose',
          { title: 't', content: 'c', type: 'rule' },
          '"type" is the string "rule": give one of "work_fact"',
        ],
        ['memory_refresh', { session: 7 }, '"session" is 7: give a string of 1 to 256 characters.'],
        ['memory_consolidate_preview', { scope: [] }, '"scope" is an array: give one of "project", "user".'],
        ['memory_get', 'use-pnpm', 'the arguments are the string "use-pnpm", not an object of named arguments'],
      ];
      for (const [name, args, expected] of cases) {
        const reply = await client.request('tools/call', { name, arguments: args });
        const checked = specTypeSchemas.CallToolResult['~standard'].validate(reply.result) as { issues?: unknown };
        assert.equal(checked.issues, undefined, JSON.stringify(reply));
        const result = reply.result!;
        assert.equal(result['isError'], true);
        assert.equal(result['structuredContent'].error.code, 'invalid_input');
        const message: string = result['structuredContent'].error.message;
        assert.ok(message.includes(expected), `${name}: ${message}`);
        assert.match(message, /Nothing was read or changed\.$/);
        assert.doesNotMatch(message, /Invalid input|received|Unrecognized key|Invalid option|Too (big|small)/);
      }
      assert.equal((await client.call('memory_status', {})).structuredContent.candidates.draft, 0, 'nothing proposed');
    } finally {
      assert.equal(await client.close(), 0);
    }
  });

  it('the CLI get refuses a 100 KB id as usage, naming the limit, without echoing it', async () => {
    const { home, repo } = await syncedRepo('mcp-hostile-cli');
    const result = await runCli(['get', 'w'.repeat(100_000), '--home', home, '--json'], { cwd: repo });
    // Usage (exit 2), as the API and memory_get refuse it: an entry id has at most 128 characters.
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /at most 128 characters/);
    assert.ok(result.stderr.length < 1000, `stderr is ${result.stderr.length} characters`);
    assert.match(result.stderr, /this one has 100000\./);
  });
});
