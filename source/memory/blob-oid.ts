// The git blob object id of some bytes, as `git hash-object` computes it (SHA-1 object format):
// sha1("blob <length>\0" + bytes). Computed in-process: promotion compares a target's current OID
// with the one its plan recorded, and never runs git.

import { crypto } from '../ground/lazy-builtin.js';

export function gitBlobOid(bytes: Uint8Array): string {
  return crypto().createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
