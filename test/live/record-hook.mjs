#!/usr/bin/env node
// Recording hook for the live harness tests: appends one JSON line per invocation to the
// file named by CM_LIVE_HOOK_RECORD. It prints nothing and always exits 0, so it never
// changes what the host does; only node:* imports, so it starts as fast as node can.
// Usage in a hook config: node record-hook.mjs <EventName>
import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.CM_LIVE_HOOK_RECORD;
let raw = '';
try {
  raw = readFileSync(0, 'utf8');
} catch {
  // No stdin at all is itself worth recording (payload null, raw "").
}
let payload = null;
try {
  payload = JSON.parse(raw);
} catch {
  payload = null;
}
// The host-provided environment matters to hook authors (HOSTS.md 1.4 / 2.4 "Env").
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(CLAUDE|CODEX)/.test(k)));
const record = {
  // argv[2] is the event the config registered this command for; the payload says which fired.
  event: process.argv[2] ?? null,
  at: Date.now(),
  pid: process.pid,
  cwd: process.cwd(),
  env,
  payload,
  ...(payload === null ? { raw } : {}),
};
if (file) {
  try {
    // One write() per record: O_APPEND keeps concurrent hooks' lines whole.
    appendFileSync(file, JSON.stringify(record) + '\n');
  } catch {
    // A recording failure must not fail the host's turn; the test sees the missing line.
  }
}
process.exitCode = 0;
