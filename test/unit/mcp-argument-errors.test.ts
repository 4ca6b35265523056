// Every MCP tool's argument errors, in-process through the real tool table: each names the
// argument, says what was wrong with what was sent and what the argument accepts (read from the
// tool's JSON Schema, as tools/list shows it), never zod's own wording, and reaches no backend.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ECHO_INPUT_MAX_CHARS } from '../../source/limits.js';
import { createToolTable, type MemoryBackend } from '../../source/mcp/tools.js';

function unreachableBackend(): { backend: Required<MemoryBackend>; calls: string[] } {
  const calls: string[] = [];
  const reached = (name: string) => async () => {
    calls.push(name);
    return {} as never;
  };
  const backend: Required<MemoryBackend> = {
    search: reached('search'),
    get: reached('get'),
    status: reached('status'),
    propose: reached('propose'),
    refresh: reached('refresh'),
    consolidatePreview: reached('consolidatePreview'),
  };
  return { backend, calls };
}

/** The message of the call's invalid_input result. */
async function refusal(name: string, args: unknown): Promise<string> {
  const { backend, calls } = unreachableBackend();
  const result = (await createToolTable(backend).call(name, args)) as {
    isError?: boolean;
    structuredContent: { error: { code: string; message: string } };
  };
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
  assert.equal(result.structuredContent.error.code, 'invalid_input');
  assert.deepEqual(calls, [], 'a refused call reaches no backend');
  return result.structuredContent.error.message;
}

// zod's wording, which names neither the argument in the tool's terms nor what it accepts.
const ZOD_WORDING =
  /Invalid input|expected string|received|Too (big|small)|Unrecognized key|Invalid option|expected int|>=|<=/;

const CASES: Array<[tool: string, args: unknown, expected: string]> = [
  ['memory_get', {}, 'memory_get: "id" is missing: give a string of 1 to 128 characters. Nothing was read or changed.'],
  [
    'memory_get',
    { id: 5 },
    'memory_get: "id" is 5: give a string of 1 to 128 characters. Nothing was read or changed.',
  ],
  [
    'memory_get',
    { id: '' },
    'memory_get: "id" is empty: give a string of 1 to 128 characters. Nothing was read or changed.',
  ],
  // The longest id any entry, scene or doctrine can have (MEMORY_ENTRY_ID_MAX_CHARS), as the files'.
  [
    'memory_get',
    { id: 'a'.repeat(200) },
    'memory_get: "id" is 200 characters long: give a string of 1 to 128 characters. Nothing was read or changed.',
  ],
  [
    'memory_get',
    { id: 'use-pnpm', extra: 1 },
    'memory_get: "extra" is not an argument of memory_get; its arguments are "id" (required). Nothing was read or changed.',
  ],
  [
    'memory_get',
    [1, 2],
    'memory_get: the arguments are an array, not an object of named arguments; its arguments are "id" (required). Nothing was read or changed.',
  ],
  [
    'memory_search',
    { query: 'pnpm', limit: '5' },
    'memory_search: "limit" is the string "5": give a whole number from 1 to 100. Nothing was read or changed.',
  ],
  [
    'memory_search',
    { query: 'pnpm', limit: 1.5 },
    'memory_search: "limit" is 1.5: give a whole number from 1 to 100. Nothing was read or changed.',
  ],
  [
    'memory_search',
    { query: 'x'.repeat(5000) },
    'memory_search: "query" is 5000 characters long: give a string of 1 to 1024 characters. Nothing was read or changed.',
  ],
  [
    'memory_status',
    { verbose: true },
    'memory_status: "verbose" is not an argument of memory_status; it takes no arguments: call it with {}. Nothing was read or changed.',
  ],
  [
    'memory_propose',
    { title: 't', content: 'c', type: 'bogus' },
    'memory_propose: "type" is the string "bogus": give one of "work_fact", "work_task", "work_method", "work_artifact". Nothing was read or changed.',
  ],
  [
    'memory_propose',
    { title: 'x'.repeat(600), content: 'c', type: 'work_fact' },
    'memory_propose: "title" is 600 characters long: give a string of 1 to 512 characters. Nothing was read or changed.',
  ],
  [
    'memory_refresh',
    { session: null },
    'memory_refresh: "session" is null: give a string of 1 to 256 characters. Nothing was read or changed.',
  ],
  [
    'memory_consolidate_preview',
    { scope: 'team' },
    'memory_consolidate_preview: "scope" is the string "team": give one of "project", "user". Nothing was read or changed.',
  ],
];

describe('MCP tool argument errors', () => {
  for (const [tool, args, expected] of CASES)
    it(`${tool} ${JSON.stringify(args).slice(0, 60)}: names the argument, what was wrong and what it accepts`, async () => {
      const message = await refusal(tool, args);
      assert.equal(message, expected);
      assert.doesNotMatch(message, ZOD_WORDING);
    });

  it('several wrong arguments are each named once, with every required one that is missing', async () => {
    const message = await refusal('memory_propose', { title: 'é'.repeat(300), type: 'work_fact', x: 1 });
    assert.equal(
      message,
      'memory_propose: "title" is over 512 bytes of UTF-8: give a string of 1 to 512 characters; ' +
        '"content" is missing: give a string of 1 to 4096 characters; ' +
        '"x" is not an argument of memory_propose; its arguments are "title" (required), "content" (required), ' +
        '"type" (required), "appliesWhen" (optional). Nothing was read or changed.',
    );
  });

  it('a hostile value or argument name is echoed only up to the limit', async () => {
    const huge = 'k'.repeat(100_000);
    for (const args of [
      { query: 'pnpm', limit: huge },
      { query: 'pnpm', [huge]: 1 },
    ]) {
      const message = await refusal('memory_search', args);
      assert.ok(message.length < 1_000, `the message is ${message.length} characters`);
      assert.ok(message.includes('k'.repeat(ECHO_INPUT_MAX_CHARS)));
      assert.match(message, /100000 characters/);
    }
  });

  it('a token sent in a wrong argument or as an argument name comes back masked', async () => {
    const token = `ghp_${'Q7wK2mZx9LpR4tVb8NcYd3Hf6JsGa1Ue5XoT'}`;
    for (const args of [
      { title: 't', content: 'c', type: token },
      { title: 't', content: 'c', type: 'work_fact', [token]: 1 },
      token,
    ]) {
      const message = await refusal('memory_propose', args);
      assert.ok(!message.includes(token.slice(4)), message);
      assert.match(message, /ghp_/, 'the masked form keeps its first characters');
    }
  });

  it('ten thousand unknown arguments: the first few are named with how many more, the message stays short', async () => {
    const args: Record<string, unknown> = { id: 'use-pnpm' };
    for (let i = 0; i < 10_000; i++) args[`extra${i}`] = i;
    const message = await refusal('memory_get', args);
    assert.ok(message.length < 1_000, `the message is ${message.length} characters`);
    assert.match(message, /^memory_get: "extra0", "extra1", "extra2" and 9997 more are not arguments of memory_get; /);
  });
});
