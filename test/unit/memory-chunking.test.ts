// Chunking: whole consecutive turns of one session within 40 KiB, a deterministic serialisation,
// tool payload excerpts with their digest and a truncated coverage entry, an evidence catalogue of
// user messages only.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { evidenceTexts } from '../../source/memory/builtin-runner.js';
import { CHUNK_MAX_BYTES, EXCERPT_BYTES, planChunks } from '../../source/memory/chunking.js';
import type { SourceTurn } from '../../source/memory/source-turn.js';

function turn(
  session: string,
  ordinal: number,
  user: string,
  extra: Array<{ kind: string; body: string }> = [],
): SourceTurn {
  return {
    client: 'codex',
    sessionKey: session,
    turnKey: `${session}-t${ordinal}`,
    recordedAtMs: 1_000 + ordinal,
    cwd: null,
    ordinal,
    digest: `d${ordinal}`,
    messages: [
      {
        key: `u${ordinal}`,
        role: 'user',
        classification: 'evidence',
        kind: 'prompt',
        body: user,
        digest: `m${ordinal}`,
      },
      ...extra.map((m, i) => ({
        key: `c${ordinal}-${i}`,
        role: m.kind === 'answer' ? 'assistant' : 'tool',
        classification: 'context' as const,
        kind: m.kind,
        body: m.body,
        digest: `x${ordinal}-${i}`,
      })),
    ],
  };
}

describe('chunks', () => {
  it('whole turns of one session up to 40 KiB each; sessions never mix; the same turns give the same bytes and digests', () => {
    const turns = Array.from({ length: 12 }, (_, i) =>
      turn('s1', i, `prompt ${i}`, [{ kind: 'answer', body: 'a'.repeat(9_000) }]),
    );
    turns.push(turn('s2', 100, 'other session'));
    const chunks = planChunks(turns);
    const s1 = chunks.filter((chunk) => chunk.sessionKey === 's1');
    assert.ok(s1.length >= 3);
    for (const chunk of s1)
      assert.ok(
        Buffer.byteLength(chunk.transcript) <= CHUNK_MAX_BYTES + 64,
        `${Buffer.byteLength(chunk.transcript)} bytes`,
      );
    assert.deepEqual(
      s1.flatMap((chunk) => chunk.catalogue.map((e) => e.turnKey)),
      turns.slice(0, 12).map((t) => t.turnKey),
      'every turn once, in order, whole',
    );
    assert.equal(chunks.filter((chunk) => chunk.sessionKey === 's2').length, 1);
    const again = planChunks([...turns].reverse());
    assert.deepEqual(
      again.map((chunk) => [chunk.chunkRef, chunk.sourceInputDigest]),
      chunks.map((chunk) => [chunk.chunkRef, chunk.sourceInputDigest]),
    );
    assert.ok(chunks[0]!.transcript.endsWith('<<end-of-transcript>>\n'));
  });

  it('a turn that alone passes 40 KiB is a chunk of its own, whole, never split', () => {
    const huge = 'b'.repeat(50_000);
    const chunks = planChunks([
      turn('s1', 0, 'before'),
      turn('s1', 1, 'the long one', [{ kind: 'answer', body: huge }]),
      turn('s1', 2, 'after'),
    ]);
    assert.equal(chunks.length, 3);
    assert.deepEqual(
      chunks.map((chunk) => [chunk.turnRange.start, chunk.turnRange.end]),
      [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    );
    assert.ok(chunks[1]!.transcript.includes(huge), 'the whole turn');
    assert.ok(Buffer.byteLength(chunks[1]!.transcript) > CHUNK_MAX_BYTES);
  });

  it('an oversized tool payload is its head and tail with its sha256; coverage says truncated; the user text stays whole and is the only evidence', () => {
    const payload = `HEAD${'x'.repeat(20_000)}TAIL`;
    const [chunk] = planChunks([
      turn('s', 1, 'Always use named exports.', [
        { kind: 'tool_result', body: payload },
        { kind: 'answer', body: 'done' },
      ]),
    ]);
    const sha = createHash('sha256').update(payload).digest('hex');
    assert.ok(chunk!.transcript.includes(`sha256=${sha}`));
    assert.ok(chunk!.transcript.includes('HEAD') && chunk!.transcript.includes('TAIL'));
    assert.ok(Buffer.byteLength(chunk!.transcript) < 2 * EXCERPT_BYTES + 600);
    assert.deepEqual(
      chunk!.coverage.map((entry) => [entry.sourceKind, entry.completeness]),
      [
        ['turn', 'truncated'],
        ['tool-payload', 'truncated'],
      ],
    );
    assert.deepEqual(
      chunk!.catalogue.map((e) => e.evidenceId),
      ['e1'],
    );
    assert.deepEqual(evidenceTexts(chunk!.transcript), [{ evidenceId: 'e1', text: 'Always use named exports.' }]);
  });
});
