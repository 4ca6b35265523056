// A Node built-in loaded at its first use instead of at import. The SessionStart hook pays every
// module it loads on every event: node:child_process (about 5 ms), node:crypto (about 6 ms, with
// the stream modules it loads), node:os (about 2 ms) and node:module (about 2 ms: what
// createRequire would cost) are needed only off its usual path. process.getBuiltinModule (Node
// 20.16+) needs no require at all; before it, both bundles have `require` (the hook's is CommonJS,
// the CLI's makes one from its own URL).

function builtin<T>(id: string): T {
  return (process.getBuiltinModule?.(id) ?? require(id)) as T;
}

export const childProcess = (): typeof import('node:child_process') => builtin('node:child_process');
export const os = (): typeof import('node:os') => builtin('node:os');
export const crypto = (): typeof import('node:crypto') => builtin('node:crypto');
/** node:http (with node:net and the stream modules: several ms) only when a host is asked over loopback. */
export const http = (): typeof import('node:http') => builtin('node:http');

/** Milliseconds since this process started; `performance.now()` would load node:perf_hooks first (about 2 ms). */
export const processUptimeMs = (): number => process.uptime() * 1000;
