// Preloaded (--require) into each hook process by the capture bench when CM_BENCH_HOOK_PHASES_FILE
// is set: appends one line per hook saying where its time went — node's own start (until this file
// runs), loading and preparing (until BEGIN IMMEDIATE), the wait for the write lock (BEGIN
// IMMEDIATE), the transaction's work, and the commit (WAL write and fsync). Bench-only; the hook
// knows nothing of it.
'use strict';
const { appendFileSync } = require('node:fs');
const { join, dirname } = require('node:path');
const { performance } = require('node:perf_hooks');

const Database = require('better-sqlite3');
const addon = join(dirname(require.resolve('better-sqlite3')), '..', 'build', 'Release', 'better_sqlite3.node');
const probe = new Database(':memory:', { nativeBinding: addon });
const statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();
const phases = { startMs: performance.now(), beginAtMs: null, lockMs: 0, workMs: 0, commitMs: 0, exitAtMs: 0 };
let begunAt = null;
const run = statement.run;
statement.run = function timedRun(...args) {
  const source = this.source;
  const at = performance.now();
  try {
    return run.apply(this, args);
  } finally {
    const now = performance.now();
    if (source === 'BEGIN IMMEDIATE') {
      phases.beginAtMs ??= at;
      phases.lockMs += now - at;
      begunAt = now;
    } else if (source === 'COMMIT' && begunAt !== null) {
      phases.workMs += at - begunAt;
      phases.commitMs += now - at;
      begunAt = null;
    }
  }
};
process.on('exit', () => {
  phases.exitAtMs = performance.now();
  appendFileSync(process.env.CM_BENCH_HOOK_PHASES_FILE, `${JSON.stringify(phases)}\n`);
});
