// Builds the secret-lint corpus (fixtures/memory/secret-corpus.jsonl) at test time. Values are
// synthetic: bodies come from a PRNG seeded by the entry's id, and provider prefixes are written
// split in two ({{cat:gh:p_}}), so the repository never holds a string that looks like a live token.
import { createHash } from 'node:crypto';
import { readMemoryFixture } from './fixture-jsonl.js';

export interface CorpusEntry {
  id: string;
  kind: 'secret' | 'benign';
  /** The rule expected to find the secret (secrets only). */
  rule?: string;
  text: string;
}

const ALPHABETS: Record<string, string> = {
  base62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  hex: '0123456789abcdef',
  upper32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  digits: '0123456789',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  bech32: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  lower36: 'abcdefghijklmnopqrstuvwxyz0123456789',
};

/** mulberry32: small, fast, and the same sequence on every machine for the same seed. */
function prng(seedText: string): () => number {
  let seed = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digest = (algorithm: string, text: string, encoding: 'hex' | 'base64') =>
  createHash(algorithm).update(text).digest(encoding);
const base64url = (text: string) => Buffer.from(text).toString('base64url');

export function expandTemplate(id: string, template: string): string {
  const random = prng(id);
  const draw = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const uuid4 = () => {
    const hex = draw(ALPHABETS['hex']!, 32).split('');
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(random() * 4)]!;
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  return template.replace(/\{\{(\w+)(?::(.*?))?\}\}(?!\})/gs, (_, kind: string, argument = '') => {
    switch (kind) {
      case 'cat': {
        const split = argument.lastIndexOf(':');
        return argument.slice(0, split) + argument.slice(split + 1);
      }
      case 'rand': {
        const [alphabet, length] = argument.split(':');
        return draw(ALPHABETS[alphabet]!, Number(length));
      }
      case 'sha1':
        return digest('sha1', argument, 'hex');
      case 'sha256':
        return digest('sha256', argument, 'hex');
      case 'sri512':
        return digest('sha512', argument, 'base64');
      case 'sri384':
        return digest('sha384', argument, 'base64');
      case 'sri256':
        return digest('sha256', argument, 'base64');
      case 'uuid4':
        return uuid4();
      case 'b64':
        return Buffer.from(argument).toString('base64');
      case 'b64url':
        return base64url(argument);
      case 'jwt':
        return `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url('{"sub":"fake-user","iat":1700000000}')}.${draw(ALPHABETS['base64url']!, 43)}`;
      default:
        throw new Error(`unknown corpus placeholder {{${kind}}} in ${id}`);
    }
  });
}

export function readSecretCorpus(): CorpusEntry[] {
  return readMemoryFixture<{ id: string; kind: 'secret' | 'benign'; rule?: string; template: string }>(
    'secret-corpus.jsonl',
  ).map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    rule: entry.rule,
    text: expandTemplate(entry.id, entry.template),
  }));
}
