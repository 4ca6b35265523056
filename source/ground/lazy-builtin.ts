// A Node built-in loaded at its first use instead of at import. The SessionStart hook pays every
// module it loads on every event: node:child_process (about 5 ms), node:crypto (about 6 ms, with
// the stream modules it loads) and node:os (about 2 ms) are needed only off its usual path. `require` of a built-in resolves the same from any base path,
// and import.meta is not there in the hook's CommonJS bundle, so the base is node's own path.
import { createRequire } from 'node:module';

const load = createRequire(process.execPath);

export const childProcess = (): typeof import('node:child_process') => load('node:child_process');
export const os = (): typeof import('node:os') => load('node:os');
export const crypto = (): typeof import('node:crypto') => load('node:crypto');

/** Milliseconds since this process started; `performance.now()` would load node:perf_hooks first (about 2 ms). */
export const processUptimeMs = (): number => process.uptime() * 1000;
