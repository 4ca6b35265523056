// Digests shared by the hook and the drain (node:crypto only): the public session key of an
// activation and the digest that binds a prompt candidate to a transcript message.
import * as crypto from 'node:crypto';

/**
 * SHA-256 of a text's UTF-8 bytes (or of the bytes themselves), in hex. One-shot where Node has it
 * (20.12+): a drain step hashes tens of thousands of bodies, and a Hash object each costs more
 * than the hashing.
 */
export const sha256Hex: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (data) => crypto.hash('sha256', data, 'hex')
    : (data) =>
        (typeof data === 'string'
          ? crypto.createHash('sha256').update(data, 'utf8')
          : crypto.createHash('sha256').update(data)
        ).digest('hex');

export const sessionKeyOf = (client: string, instance: string, hostSessionId: string, ordinal: number): string =>
  sha256Hex(`${client}\0${instance}\0${hostSessionId}\0${ordinal}`).slice(0, 32);

export const textDigest = (text: string): string => sha256Hex(text);
