// The beside bundles' regular expressions compiled once (source/bundle-beside.ts,
// withRegExpsCompiledOnce): an expression made while a lint bundle loads goes straight to machine
// code, one made after it is made as before (interpreter first), and the V8 flag it sets is put
// back, so code caches made with node's own flags are accepted again, also when the load throws.
// V8's own state is read with --allow-natives-syntax, which only a child process can have.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const SOURCE = join(import.meta.dirname, '../../source/bundle-beside.ts');
const dir = mkdtempSync(join(tmpdir(), 'cm-regexp-once-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a CommonJS probe (natives syntax allowed) that prints one JSON line. */
function probe(body: string): Record<string, unknown> {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(
    file,
    `const vm = require('node:vm');
const { withRegExpsCompiledOnce } = require(${JSON.stringify(SOURCE)});
const state = (re) => { re.test('zzzabbbc'); return { bytecode: %RegexpHasBytecode(re, true), native: %RegexpHasNativeCode(re, true) }; };
const code = 'function f() { return 40 + 2; } f();';
const made = new vm.Script(code, { filename: 'made.js' }); made.runInThisContext();
const cache = made.createCachedData();
// Another name each time, or V8 answers from the code it compiled in this process and reads no cache.
let checks = 0;
const rejected = () => new vm.Script(code, { filename: 'check-' + ++checks + '.js', cachedData: cache }).cachedDataRejected;
${body}`,
  );
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', file], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('regular expressions of a bundle loaded beside', () => {
  it('are compiled for machine code at once while it loads, and as before after it', () => {
    const seen = probe(`
const before = /ab+c|x[yz]{2}/;
let cacheDuringLoad;
const during = withRegExpsCompiledOnce(() => { cacheDuringLoad = rejected(); return /ab+c|x[yz]{3}/; });
const afterLoad = /ab+c|x[yz]{4}/;
console.log(JSON.stringify({ before: state(before), during: state(during), after: state(afterLoad), cacheDuringLoad, cacheAfter: rejected() }));`);
    assert.deepEqual(seen.during, { bytecode: false, native: true });
    assert.equal((seen.before as { bytecode: boolean }).bytecode, true);
    assert.equal((seen.after as { bytecode: boolean }).bytecode, true, 'the flag is put back after the load');
    // The flag really differed during the load (V8 refused the cache), and no longer does.
    assert.equal(seen.cacheDuringLoad, true);
    assert.equal(seen.cacheAfter, false);
  });

  it('puts the flag back when the load throws', () => {
    const seen = probe(`
let message;
try { withRegExpsCompiledOnce(() => { throw new Error('no bundle'); }); } catch (error) { message = error.message; }
const afterLoad = /ab+c|x[yz]{5}/;
console.log(JSON.stringify({ message, after: state(afterLoad), cacheAfter: rejected() }));`);
    assert.equal(seen.message, 'no bundle');
    assert.equal((seen.after as { bytecode: boolean }).bytecode, true);
    assert.equal(seen.cacheAfter, false);
  });
});
