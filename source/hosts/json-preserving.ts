// Rewriting a JSON document so that every value we did not change keeps its exact source text:
// the user's hand-laid-out objects, escapes and number forms survive a merge. Only the
// containers on the path to a change (the root, `hooks`, one event's list) are laid out anew,
// in the file's own indentation; their unchanged members are copied byte for byte.

/** The layout of a JSON file, so that a rewrite looks like the user's own. */
export interface JsonFormat {
  /** JSON.stringify's `space`: a number of spaces, "\t", or 0 for one compact line. */
  readonly indent: number | '\t';
  readonly eol: '\n' | '\r\n';
  readonly finalNewline: boolean;
  readonly bom: boolean;
}

interface Node {
  readonly start: number;
  readonly end: number;
  readonly value: unknown;
  /** Object members by key (last one wins, as in JSON.parse). */
  readonly members?: ReadonlyMap<string, Node>;
  readonly items?: readonly Node[];
}

/** Parses already-validated JSON text, remembering where each value's text is. */
export function parseSpans(text: string): Node {
  let at = 0;
  const skip = (): void => {
    while (at < text.length && /[ \t\r\n]/.test(text[at]!)) at++;
  };
  const value = (): Node => {
    skip();
    const start = at;
    const c = text[at];
    if (c === '{') {
      at++;
      const members = new Map<string, Node>();
      skip();
      if (text[at] === '}') at++;
      else {
        for (;;) {
          const keyNode = value();
          skip();
          at++; // ':'
          const member = value();
          members.set(keyNode.value as string, member);
          skip();
          if (text[at++] === '}') break; // else ','
        }
      }
      return { start, end: at, value: JSON.parse(text.slice(start, at)) as unknown, members };
    }
    if (c === '[') {
      at++;
      const items: Node[] = [];
      skip();
      if (text[at] === ']') at++;
      else {
        for (;;) {
          items.push(value());
          skip();
          if (text[at++] === ']') break;
        }
      }
      return { start, end: at, value: JSON.parse(text.slice(start, at)) as unknown, items };
    }
    if (c === '"') {
      at++;
      while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      at++;
    } else {
      while (at < text.length && /[^,\]} \t\r\n]/.test(text[at]!)) at++;
    }
    return { start, end: at, value: JSON.parse(text.slice(start, at)) as unknown };
  };
  return value();
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]));
  }
  return a === b;
}

/**
 * `value` as JSON text in `format`, reusing the source text of `original` (the parse of `text`)
 * for every subtree that is unchanged. Key order is `value`'s own.
 */
export function serializePreserving(
  value: unknown,
  original: Node | undefined,
  text: string,
  format: JsonFormat,
  depth = 0,
): string {
  if (original !== undefined && same(value, original.value)) return text.slice(original.start, original.end);
  const unit = format.indent === '\t' ? '\t' : ' '.repeat(format.indent);
  const compact = format.indent === 0;
  const open = (d: number): string => (compact ? '' : `${format.eol}${unit.repeat(d)}`);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Unchanged elements keep their text even when an earlier one was removed.
    const unused = [...(original?.items ?? [])];
    const parts = value.map((item) => {
      const index = unused.findIndex((node) => same(item, node.value));
      const node = index >= 0 ? unused.splice(index, 1)[0] : undefined;
      return `${open(depth + 1)}${serializePreserving(item, node, text, format, depth + 1)}`;
    });
    return `[${parts.join(',')}${open(depth)}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    const parts = keys.map(
      (key) =>
        `${open(depth + 1)}${JSON.stringify(key)}:${compact ? '' : ' '}${serializePreserving(value[key], original?.members?.get(key), text, format, depth + 1)}`,
    );
    return `{${parts.join(',')}${open(depth)}}`;
  }
  return JSON.stringify(value);
}
