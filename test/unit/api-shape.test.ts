// The shape an invalid request body is told ("Expected {…}") is written from the body's schema:
// it names every field the server accepts, marks the optional ones, and cannot drift from them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { apiRoutes } from '../../source/api/application.js';
import type { Route } from '../../source/api/route.js';
import { shapeOf } from '../../source/api/shape.js';
import { MEMORY_ENTRY_ID_MAX_CHARS } from '../../source/limits.js';
import { TOOL_INPUTS } from '../../source/mcp/tools.js';
import { checkEntryId } from '../../source/memory/entry-format.js';

describe('request shapes from their schemas', () => {
  it('spells out each kind a body uses', () => {
    const schema = z
      .object({
        name: z.string(),
        limit: z.number().optional(),
        scope: z.enum(['project', 'user']).optional(),
        ids: z.array(z.string()),
        note: z.string().nullable(),
        origin: z.object({ client: z.string() }),
        recover: z.string().describe('"rec-<n>"').optional(),
      })
      .strict();
    assert.equal(
      shapeOf(schema),
      '{"name": string, "limit"?: number, "scope"?: "project"|"user", "ids": string[], "note": string|null, "origin": {"client": string}, "recover"?: "rec-<n>"}',
    );
  });

  it('every declared body names each of its fields, optional ones marked', () => {
    for (const [name, declared] of Object.entries(apiRoutes)) {
      const body = (declared as Route).body;
      if (!body) continue;
      const fields = (body.schema as unknown as z.ZodObject).shape;
      for (const [field, schema] of Object.entries(fields)) {
        const optional = (schema as z.ZodType).safeParse(undefined).success;
        assert.ok(body.shape.includes(`"${field}"${optional ? '?' : ''}: `), `${name}: ${field} in ${body.shape}`);
      }
    }
  });

  it('an invalid body is answered with its schema-written shape', () => {
    assert.equal(apiRoutes.memoryPromote.body?.shape, '{"planId": string}');
    assert.equal(apiRoutes.sessionDrain.body?.shape, '{"recover"?: "rec-<n>"}');
  });
});

describe('response schemas', () => {
  const receipt = { storeId: 's', operationId: 'op', sequence: 3, replayed: false };

  it('every route carries one', () => {
    for (const [name, declared] of Object.entries(apiRoutes))
      assert.ok((declared as Route).response instanceof z.ZodType, `${name} has a response schema`);
  });

  it('refuse an answer with a field missing, of another type, or undeclared', () => {
    const schema = apiRoutes.appendNote.response;
    assert.equal(schema.safeParse(receipt).success, true);
    const { replayed: _, ...missing } = receipt;
    assert.equal(schema.safeParse(missing).success, false, 'missing');
    assert.equal(schema.safeParse({ ...receipt, sequence: '3' }).success, false, 'another type');
    assert.equal(schema.safeParse({ ...receipt, generationId: 'g' }).success, false, 'undeclared');
  });
});

describe('an entry id in a request', () => {
  // As long as an entry id may be (entry-format.ts checkEntryId): a longer one names nothing and is
  // refused as invalid, through the API as through MCP memory_get.
  const fits = 'a'.repeat(MEMORY_ENTRY_ID_MAX_CHARS);
  const over = 'a'.repeat(MEMORY_ENTRY_ID_MAX_CHARS + 1);
  const fields = [
    ['memoryGet', 'entryId'],
    ['memoryRetire', 'entryId'],
    ['memoryPropose', 'revises'],
  ] as const;

  it('is at most as long as an entry id may be, in every route that names one', () => {
    assert.equal(checkEntryId(fits), null);
    assert.notEqual(checkEntryId(over), null);
    for (const [route, field] of fields) {
      const schema = ((apiRoutes[route] as Route).body!.schema as unknown as z.ZodObject).shape[field] as z.ZodType;
      assert.equal(schema.safeParse(fits).success, true, `${route}.${field}: ${fits.length} characters`);
      assert.equal(schema.safeParse(over).success, false, `${route}.${field}: ${over.length} characters`);
    }
    assert.equal(TOOL_INPUTS.memory_get.safeParse({ id: fits }).success, true, 'MCP memory_get');
    assert.equal(TOOL_INPUTS.memory_get.safeParse({ id: over }).success, false, 'MCP memory_get');
  });
});
