// The shape an invalid request body is told to have ("Expected {…}"), written from the body's zod
// schema so it cannot drift from what the server accepts. Only the kinds request bodies use are
// spelled out; a field whose schema carries a description (`.describe('"rec-<n>"')`) shows that
// instead, for a value whose form a type name would not tell.
import type { z } from 'zod';

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string | number>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `{"name": string, "limit"?: number, "scope"?: "project"|"user", "ids": string[]}` for an object schema. */
export function shapeOf(schema: z.ZodType): string {
  if (schema.description) return schema.description;
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return `{${Object.entries(def.shape ?? {})
        .map(([name, field]) => fieldShape(name, field))
        .join(', ')}}`;
    case 'optional':
      return shapeOf(def.innerType!);
    case 'nullable':
      return `${shapeOf(def.innerType!)}|null`;
    case 'array':
      return `${shapeOf(def.element!)}[]`;
    case 'enum':
      return Object.values(def.entries ?? {})
        .map((value) => JSON.stringify(value))
        .join('|');
    default:
      return def.type;
  }
}

function fieldShape(name: string, field: z.ZodType): string {
  const optional = defOf(field).type === 'optional';
  return `${JSON.stringify(name)}${optional ? '?' : ''}: ${shapeOf(field)}`;
}
