// common-memory's pi extension: records what happens in a pi session into common-memory's inbox.
// pi loads this file as it is (no build step); `common-memory install pi` lists it in pi's
// settings.json → extensions.
//
// Each recorded event is one durable transaction in the data home's core.sqlite, committed before
// the handler returns, so pi continues only once the event is kept. The channel is a direct append
// in pi's own process through common-memory's bundled hook (dist/hook.cjs: node:* and better-sqlite3
// only); when that cannot be loaded (e.g. a better-sqlite3 built for another Node), a short-lived
// `common-memory hook pi` child per event does the same work. Either way a failure never reaches
// pi: it is recorded in the data home's hook-errors.jsonl (shown by `common-memory status`), with
// the event quarantined for replay.
//
// Identity: client pi + this process's instance (kept on globalThis, so /reload keeps it) + pi's
// session id. Only a real quit ends the activation; reload/new/resume/fork just stop recording for
// the session being left.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../bin/common-memory.cjs', import.meta.url));
/** The child channel's bound: pi waits at most this long for one event (PI_EVENT_DEADLINE_MS). */
const CHILD_TIMEOUT_MS = 5000;

const STATE_KEY = Symbol.for('common-memory.pi-extension');
const state = (globalThis[STATE_KEY] ??= { instance: `pi:${process.pid}:${randomUUID()}`, direct: undefined });

function directChannel() {
  if (state.direct === undefined) {
    try {
      const hook = require('../dist/hook.cjs');
      state.direct = typeof hook.capturePiEvent === 'function' ? hook.capturePiEvent : null;
    } catch {
      state.direct = null;
    }
  }
  return state.direct;
}

/** Keeps one event; never throws. */
function record(name, ctx, fields) {
  let sessionId;
  try {
    sessionId = ctx.sessionManager.getSessionId();
  } catch {
    return;
  }
  const payload = JSON.stringify({
    hook_event_name: name,
    session_id: sessionId,
    cwd: ctx.cwd ?? null,
    record: { type: name, ...fields },
  });
  try {
    const direct = process.env.COMMON_MEMORY_PI_CHANNEL === 'child' ? null : directChannel();
    if (direct) {
      direct(state.instance, payload, BIN);
      return;
    }
    const env = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    spawnSync(process.execPath, [BIN, 'hook', 'pi', '--instance', state.instance], {
      input: payload,
      env,
      timeout: CHILD_TIMEOUT_MS,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    // The hook records its own failures; nothing of common-memory may stop pi.
  }
}

export default function commonMemory(pi) {
  pi.on('session_start', (event, ctx) => record('session_start', ctx, { reason: event.reason ?? null }));
  pi.on('input', (event, ctx) => {
    record('input', ctx, {
      text: event.text,
      source: event.source ?? null,
      images: Array.isArray(event.images) ? event.images.length : 0,
    });
    return { action: 'continue' };
  });
  pi.on('agent_start', (_event, ctx) => record('agent_start', ctx, {}));
  pi.on('message_end', (event, ctx) => record('message_end', ctx, { message: event.message }));
  pi.on('agent_end', (_event, ctx) => record('agent_end', ctx, {}));
  pi.on('session_compact', (event, ctx) =>
    record('session_compact', ctx, { fromExtension: event.fromExtension === true }),
  );
  pi.on('session_shutdown', (event, ctx) =>
    record(event.reason === 'quit' ? 'SessionEnd' : 'session_shutdown', ctx, { reason: event.reason ?? null }),
  );
}
