// What an MCP tool answers when its arguments are wrong: for each argument, its name, what was
// wrong with what the caller sent, and what it accepts — in words an agent (or the person reading
// its transcript) can act on, never zod's own wording ("Invalid input: expected string, received
// number", issue paths). What an argument accepts is read from the JSON Schema tools/list gives the
// client, so the error and the schema the model was shown cannot disagree. A value or name quoted
// back is cut (echo-text.ts) and passed through the caller's secret mask first: a token sent in the
// wrong argument would otherwise come back in the result, unmasked, for the transcript to keep.
// Pure: no I/O.
import type { z } from 'zod';
import { echoed } from '../echo-text.js';

/** The part of a tool's JSON Schema (z.toJSONSchema of its input) this reads. */
export interface ArgumentsSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/** What one argument accepts: "a string of 1 to 256 characters", "a whole number from 1 to 100", "one of …". */
export function acceptedValue(property: PropertySchema): string {
  if (property.enum) return `one of ${property.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if (property.type === 'string') {
    const { minLength = 0, maxLength } = property;
    if (maxLength === undefined) return minLength > 0 ? `a non-empty string` : 'a string';
    return minLength > 0
      ? `a string of ${minLength} to ${maxLength} characters`
      : `a string of at most ${maxLength} characters`;
  }
  if (property.type === 'integer' || property.type === 'number') {
    const kind = property.type === 'integer' ? 'a whole number' : 'a number';
    const { minimum, maximum } = property;
    if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
    return kind;
  }
  return property.type ? `a ${property.type}` : 'a value';
}

/** The tool's arguments, named: `"id" (required)`, or that it takes none. */
function argumentList(schema: ArgumentsSchema): string {
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return 'it takes no arguments: call it with {}';
  const required = new Set(schema.required ?? []);
  const named = names.map((name) => `"${name}" (${required.has(name) ? 'required' : 'optional'})`);
  return `its arguments are ${named.join(', ')}`;
}

/** How many unknown argument names a refusal quotes. */
const UNKNOWN_KEYS_NAMED = 3;

/** Masks what the secret lint finds in a text quoted back. */
export type Mask = (text: string) => string;

/** A value as the message names it: its JSON type, or the value itself (masked, cut). */
function described(value: unknown, mask: Mask): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value === '' ? 'empty' : `the string ${echoed(mask(value))}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/** What is wrong with one argument, from zod's first issue for it. */
function wrongWith(issue: z.core.$ZodIssue, value: unknown, mask: Mask): string {
  if (value === undefined) return 'is missing';
  switch (issue.code) {
    case 'too_big':
    case 'too_small':
      return typeof value === 'string'
        ? value === ''
          ? 'is empty'
          : `is ${value.length} characters long`
        : `is ${described(value, mask)}`;
    case 'invalid_value':
    case 'invalid_type':
      return `is ${described(value, mask)}`;
    case 'custom':
      // The schema's own refinements say it in these terms already ("is blank (only whitespace)").
      return issue.message;
    default:
      return `is ${described(value, mask)}`;
  }
}

/**
 * The message of an `invalid_input` result: one clause per argument at fault, then the fact that
 * nothing happened. `input` is what the client sent as `arguments`.
 */
export function argumentErrors(
  tool: string,
  schema: ArgumentsSchema,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  mask: Mask,
): string {
  const clauses: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    clauses.push(
      `the arguments are ${described(input, mask)}, not an object of named arguments; ${argumentList(schema)}`,
    );
  } else {
    const args = input as Record<string, unknown>;
    const seen = new Set<string>();
    for (const issue of issues) {
      if (issue.code === 'unrecognized_keys') {
        // The first few, then how many more: a client can send any number of keys, and the
        // result must not grow with them.
        const named = issue.keys.slice(0, UNKNOWN_KEYS_NAMED).map((key) => echoed(mask(key)));
        const more = issue.keys.length - named.length;
        const keys = more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
        clauses.push(
          `${keys} ${issue.keys.length === 1 ? 'is not an argument' : 'are not arguments'} of ${tool}; ${argumentList(schema)}`,
        );
        continue;
      }
      const name = String(issue.path[0] ?? '');
      // One clause an argument: "too long" and "over its bytes" of one title say the same thing.
      if (seen.has(name)) continue;
      seen.add(name);
      const property = schema.properties?.[name];
      if (!property) {
        clauses.push(`the arguments are wrong; ${argumentList(schema)}`);
        continue;
      }
      clauses.push(`"${name}" ${wrongWith(issue, args[name], mask)}: give ${acceptedValue(property)}`);
    }
  }
  return `${tool}: ${clauses.join('; ')}. Nothing was read or changed.`;
}
