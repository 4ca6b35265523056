// The MCP server's stdin, framed and checked before protocol.ts sees it: every complete line is
// parsed here once; one that is not JSON is answered with JSON-RPC's parse error (-32700), one that
// is JSON but no JSON-RPC message with invalid request (-32600), both with `id: null` as JSON-RPC
// 2.0 says (the id could not be read); a line over MCP_LINE_MAX_BYTES is answered likewise and its
// bytes are dropped as they arrive. Every other line comes out as its parsed object, one object a
// chunk, and the server keeps serving. Frames on LF only (a CR before it is JSON whitespace).
import { Transform } from 'node:stream';
import { MCP_LINE_MAX_BYTES } from '../limits.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** A JSON-RPC error response for a line whose id is unknown. */
export function nullIdError(code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;
}

/** The JSON-RPC 2.0 message of a line, or why it is none (protocol.ts checks the rest). */
function messageOf(line: string): Record<string, unknown> | [number, string] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return [PARSE_ERROR, `Parse error: the line is not JSON (${(error as Error).message.slice(0, 120)}).`];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [INVALID_REQUEST, 'Invalid Request: a JSON-RPC 2.0 message is one JSON object per line (no batches).'];
  if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0')
    return [INVALID_REQUEST, 'Invalid Request: the message has no "jsonrpc": "2.0".'];
  return value as Record<string, unknown>;
}

/**
 * stdin as the server reads it: the JSON-RPC messages, parsed (an object mode stream); `answer`
 * writes the error reply for each other line (to stdout, where the server's own replies go).
 */
export function checkedLines(answer: (reply: string) => void, maxLineBytes = MCP_LINE_MAX_BYTES): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of the current line dropped so far (it is over the bound); 0 while within it. */
  let dropped = 0;
  const finishLine = (stream: Transform, tail: Buffer): void => {
    if (dropped > 0) {
      answer(
        nullIdError(
          INVALID_REQUEST,
          `Invalid Request: a line of ${dropped + tail.length} bytes is over the ${maxLineBytes}-byte bound; it was not read.`,
        ),
      );
    } else {
      const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
      const line = bytes.toString('utf8');
      if (line.trim() !== '') {
        const message = messageOf(line);
        if (Array.isArray(message)) answer(nullIdError(message[0], message[1]));
        else stream.push(message);
      }
    }
    pending = [];
    pendingBytes = 0;
    dropped = 0;
  };
  const keep = (piece: Buffer): void => {
    if (dropped > 0 || pendingBytes + piece.length > maxLineBytes) {
      dropped += pendingBytes + piece.length;
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(piece);
    pendingBytes += piece.length;
  };
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      let at = 0;
      for (let end = chunk.indexOf(0x0a, at); end >= 0; end = chunk.indexOf(0x0a, at)) {
        const tail = chunk.subarray(at, end);
        if (dropped > 0 || pendingBytes + tail.length > maxLineBytes) {
          keep(tail);
          finishLine(this, Buffer.alloc(0));
        } else finishLine(this, tail);
        at = end + 1;
      }
      if (at < chunk.length) keep(Buffer.from(chunk.subarray(at)));
      done();
    },
    flush(done) {
      // A last line without LF: judged like any other.
      if (pendingBytes > 0 || dropped > 0) finishLine(this, Buffer.alloc(0));
      done();
    },
  });
}
