// What an agent proposes through `memory_propose`: its fields, each bounded in bytes, and who
// proposed it. Apart from the memory area's routes (memory.ts) because the MCP server builds its
// tool schemas from these at start, before a client's first request, and needs nothing else of
// the area until a tool is called.
import { z } from 'zod';
import { TERMINAL_CONTROL } from '../terminal-controls.js';
import {
  MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES,
  MCP_PROPOSAL_MAX_BYTES,
  MCP_PROPOSAL_TITLE_MAX_BYTES,
} from '../limits.js';
import { ENTRY_ID_CHARS } from './entry-id-bounds.js';
import { ENTRY_TYPES } from './common.js';

export const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * An approved entry's id as a request names it (get, retire, a proposal's `revises`, MCP
 * memory_get): as long as an entry id may be (entry-format.ts checkEntryId) — a longer one names
 * nothing, so it is refused as invalid input, never looked up; a scene's or doctrine's
 * (`scene:<slug>`) is shorter. Surrounding whitespace is the read's to trim (memoryGetAt).
 */
export const entryIdText = z.string().min(ENTRY_ID_CHARS.min).max(ENTRY_ID_CHARS.max);

/** Who proposed it: what the client said it is at MCP initialize, and the conversation if the client names it. */
export const proposalOrigin = z.strictObject({
  client: z.string().min(1).max(100),
  clientVersion: z.string().max(100).nullable(),
  /** SHA-256 of the client's conversation reference; null when the client gave the server none. */
  conversation: hex64.nullable(),
});
export type ProposalOrigin = z.infer<typeof proposalOrigin>;

/**
 * Text of at most `maxBytes` UTF-8 bytes (so at most that many characters too, which JSON Schema can
 * say). A required one (`min` 1) must hold more than whitespace: a blank title or content would
 * otherwise become a candidate of nothing (an "Untitled entry" with an empty body).
 */
const utf8Text = (maxBytes: number, min = 1) =>
  z
    .string()
    .min(min)
    .max(maxBytes)
    .refine((text) => Buffer.byteLength(text, 'utf8') <= maxBytes, { message: `is over ${maxBytes} bytes of UTF-8` })
    .refine((text) => min === 0 || text.trim() !== '', { message: 'is blank (only whitespace)' })
    // The reviewer's terminal would act on a control and show other text than the model is given.
    .refine((text) => !TERMINAL_CONTROL.test(text), {
      message: 'holds a control character (ESC, backspace, …) that a terminal would act on; write it as text',
    });

/** What an agent gives: the fields of `memory_propose`, each bounded in bytes. */
export const proposalFields = {
  title: utf8Text(MCP_PROPOSAL_TITLE_MAX_BYTES),
  content: utf8Text(MCP_PROPOSAL_MAX_BYTES),
  type: z.enum(ENTRY_TYPES),
  appliesWhen: utf8Text(MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES, 0),
};
