// Digests shared by the hook and the drain (node:crypto only): the public session key of an
// activation and the digest that binds a prompt candidate to a transcript message.
import { createHash } from 'node:crypto';

export const sessionKeyOf = (client: string, instance: string, hostSessionId: string, ordinal: number): string =>
  createHash('sha256').update(`${client}\0${instance}\0${hostSessionId}\0${ordinal}`).digest('hex').slice(0, 32);

export const textDigest = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
