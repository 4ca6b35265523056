// A second installation of common-memory in a temp dir, copied from this checkout's build, that a
// test may move, delete parts of or break — as a user's clone is moved or their Node changes.
// It holds what the shim, the hook and the CLI load: bin/, dist/, pi-extension/, package.json and
// node_modules with better-sqlite3 (a real copy: its native module may be broken on purpose) and
// the one package it loads its module with; everything else of the CLI is bundled into dist/.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
const MODULES = join(CHECKOUT, 'node_modules');
export const SQLITE_ADDON = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

/** Copies the installation into `dir` (which must not exist yet); returns its shim. */
export function copyInstall(dir: string): { dir: string; bin: string } {
  mkdirSync(dir, { recursive: true });
  for (const part of ['bin', 'dist', 'pi-extension', 'package.json'])
    cpSync(join(CHECKOUT, part), join(dir, part), { recursive: true, filter: (src) => !src.endsWith('.map') });
  const sqlite = join(dir, 'node_modules', 'better-sqlite3');
  for (const part of ['package.json', 'lib'])
    cpSync(join(MODULES, 'better-sqlite3', part), join(sqlite, part), { recursive: true });
  cpSync(join(MODULES, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), join(dir, SQLITE_ADDON));
  for (const name of ['bindings', 'file-uri-to-path'])
    cpSync(join(MODULES, name), join(dir, 'node_modules', name), { recursive: true });
  return { dir, bin: join(dir, 'bin', 'common-memory.cjs') };
}

/**
 * Rewrites the copy's better-sqlite3 module so that this very Node refuses it exactly as it refuses
 * a module built for another Node: Node reads the version a module registers with (`nm_version` in
 * its `node_module` record) and, failing that, looks for `node_register_module_v<version>`. The
 * record's version becomes ours + 1 and the symbol's version digits are changed, so `dlopen` throws
 * Node's own ERR_DLOPEN_FAILED "was compiled against a different Node.js version using
 * NODE_MODULE_VERSION <ours + 1>" — the real error, from the real loader, with no second Node
 * installed. The record is found by its shape: the version, then flags and the DSO handle (zero),
 * the file name (set), the plain register function (NULL: the module is context-aware) and the
 * context register function (set); exactly one such record must be found.
 */
export function breakAbi(install: { dir: string }): void {
  const path = join(install.dir, SQLITE_ADDON);
  const bytes = readFileSync(path);
  const ours = Number(process.versions.modules);
  const records: number[] = [];
  for (let at = 0; at + 48 <= bytes.length; at += 8) {
    if (bytes.readInt32LE(at) !== ours || bytes.readUInt32LE(at + 4) !== 0) continue;
    const handle = bytes.readBigUInt64LE(at + 8);
    const file = bytes.readBigUInt64LE(at + 16);
    const register = bytes.readBigUInt64LE(at + 24);
    const contextRegister = bytes.readBigUInt64LE(at + 32);
    if (handle === 0n && file !== 0n && register === 0n && contextRegister !== 0n) records.push(at);
  }
  assert.equal(records.length, 1, `expected one node_module record of version ${ours} in ${path}`);
  bytes.writeInt32LE(ours + 1, records[0]!);
  const symbol = Buffer.from(`node_register_module_v${ours}\0`);
  const renamed = Buffer.from(`node_register_module_v${'9'.repeat(String(ours).length)}\0`);
  let found = 0;
  for (let at = bytes.indexOf(symbol); at >= 0; at = bytes.indexOf(symbol, at + 1)) {
    renamed.copy(bytes, at);
    found++;
  }
  assert.ok(found > 0, `node_register_module_v${ours} not found in ${path}`);
  writeFileSync(path, bytes);
}

/** Puts the copy's better-sqlite3 module back as npm rebuild would build it for this Node. */
export function rebuildAbi(install: { dir: string }): void {
  cpSync(join(MODULES, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), join(install.dir, SQLITE_ADDON));
}
