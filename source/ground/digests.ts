// Digests shared by the hook and the drain: the public session key of an activation and the
// digest that binds a prompt candidate to a transcript message.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { crypto } from './lazy-builtin.js';

/**
 * Below this many characters (or bytes) a digest is computed in JavaScript. The hook takes a few
 * short digests per event (keys of a session, a conversation, a repository), and loading
 * node:crypto would cost it about 6 ms — a fifth of what it may add to a bare Node start; the drain
 * hashes whole bodies, where the native hash is several times faster per byte. Both give the same
 * digest (test/unit/digests.test.ts).
 */
const NATIVE_FROM_LENGTH = 2048;

let native: typeof import('node:crypto') | undefined;

/** SHA-256 of a text's UTF-8 bytes (or of the bytes themselves), in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  if (native === undefined && data.length < NATIVE_FROM_LENGTH)
    return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data));
  native ??= crypto();
  // One-shot where Node has it (20.12+): a drain step hashes tens of thousands of bodies, and a
  // Hash object each costs more than the hashing.
  if (typeof native.hash === 'function') return native.hash('sha256', data, 'hex');
  return (
    typeof data === 'string'
      ? native.createHash('sha256').update(data, 'utf8')
      : native.createHash('sha256').update(data)
  ).digest('hex');
}

export const sessionKeyOf = (client: string, instance: string, hostSessionId: string, ordinal: number): string =>
  sha256Hex(`${client}\0${instance}\0${hostSessionId}\0${ordinal}`).slice(0, 32);

export const textDigest = (text: string): string => sha256Hex(text);
