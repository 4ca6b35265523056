// Test helpers for host capture: replay recorded hook payloads against a transcript copy, in
// process (fast) or through the real shipped bin, and drain with a lease-holding local host.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHome, storeFiles } from '../../source/home.js';
import { captureEvent } from '../../source/store/core/inbox-writes.js';
import { parsePayload, type HookClient } from '../../source/hook/payload.js';
import { readTail } from '../../source/hook/transcript-tail.js';
import { INSTANCE_ENV } from '../../source/hook/process-instance.js';
import { Host } from '../../source/host/host.js';
import { connect } from '../../source/client/connect.js';
import type { CaptureStatus, DrainReport, FlushReport } from '../../source/api/capture.js';
import { coreSchema } from '../../source/store/core/core-schema.js';
import { openDatabase, type Db } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { runCli } from './cli.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The hook payload files of a recorded scenario, in firing order. */
export function hookFiles(client: HookClient, scenario: string): string[] {
  const dir = join(FIXTURES, client, 'hooks', scenario);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

export function rolloutFixture(name: string): string {
  return join(FIXTURES, 'codex', 'rollouts', name);
}

export function claudeTranscriptFixture(scenario: string): string {
  const dir = join(FIXTURES, 'claude', 'transcripts', scenario);
  return join(dir, readdirSync(dir).find((name) => name.endsWith('.jsonl'))!);
}

/** A payload with its transcript_path pointing at `transcript` (and optionally another session id). */
export function payloadFor(file: string, transcript: string | null, overrides: Record<string, unknown> = {}): string {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if ('transcript_path' in value) value['transcript_path'] = transcript;
  return JSON.stringify({ ...value, ...overrides });
}

/** Copies a fixture transcript into `dir`, keeping its file name (the session id lives in it). */
export function copyTranscript(fixture: string, dir: string, bytes?: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, basename(fixture));
  if (bytes === undefined) copyFileSync(fixture, path);
  else writeFileSync(path, readFileSync(fixture).subarray(0, bytes));
  return path;
}

/** Byte offset just after the first line that contains `marker` (e.g. the end of turn 1). */
export function offsetAfter(file: string, marker: string): number {
  const text = readFileSync(file);
  const at = text.indexOf(marker);
  return text.indexOf(0x0a, at) + 1;
}

const stores = new Map<string, Db>();

/** The hook's transaction in this process (the real bin is exercised separately). */
export function hookInProcess(home: string, client: HookClient, payload: string, instance: string): string | null {
  let db = stores.get(home);
  if (!db) {
    ensureHome(home);
    db = openDatabase(storeFiles(home).core);
    migrate(db, coreSchema);
    stores.set(home, db);
  }
  return captureEvent(db, client, `given:${instance}`, parsePayload(payload), readTail).snapshot;
}

export function closeStores(): void {
  for (const db of stores.values()) db.close();
  stores.clear();
}

/** The real shipped hook process. */
export async function hookBin(
  home: string,
  client: HookClient,
  payload: string | Buffer,
  instance: string,
  env: NodeJS.ProcessEnv = {},
) {
  return runCli(['hook', client, '--home', home], { input: payload, env: { [INSTANCE_ENV]: instance, ...env } });
}

/**
 * A Codex SessionStart (startup) in `cwd` through the real shipped hook: the snapshot text it gives
 * the model ("" when it gives nothing). The process must exit 0.
 */
export async function sessionStartContext(home: string, cwd: string, session: string): Promise<string> {
  const start = hookFiles('codex', 'b')[0]!;
  const run = await hookBin(
    home,
    'codex',
    payloadFor(start, null, { cwd, session_id: session, source: 'startup' }),
    `i-${session}`,
  );
  if (run.code !== 0) throw new Error(`the hook exited ${run.code}: ${run.stderr}`);
  if (run.stdout === '') return '';
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

/** Replays every hook file of a scenario against `transcript`. */
export function replay(
  home: string,
  client: HookClient,
  files: string[],
  transcript: string | null,
  instance: string,
  overrides: Record<string, unknown> = {},
): void {
  for (const file of files) hookInProcess(home, client, payloadFor(file, transcript, overrides), instance);
}

/** Runs `work` with a local host (the lease, writer and drain threads), as session-drain does without a host. */
export async function withLocalHost<T>(home: string, work: (app: Host['application']) => Promise<T>): Promise<T> {
  const host = await Host.start({ home, serve: false, leaseWaitMs: 3000 });
  try {
    return await work(host.application);
  } finally {
    await host.stop();
  }
}

export const drain = (home: string): Promise<DrainReport> => withLocalHost(home, (app) => app.sessionDrain({}));
export const flush = (home: string): Promise<FlushReport> => withLocalHost(home, (app) => app.flush({}));
/**
 * Capture status the way `common-memory status` reads it: from a running host, else over a
 * read-only connection (a store of an older schema migrated first). No local host: its worker
 * threads take seconds to start under the tsx loader.
 */
export async function status(home: string, afterRecovery?: string): Promise<CaptureStatus> {
  const connection = await connect(home, 'read');
  try {
    return await connection.app.captureStatus({ afterRecovery });
  } finally {
    await connection.close();
  }
}

export function readOnly(home: string): Db {
  return openDatabase(storeFiles(home).core, { readonly: true });
}

export const transcriptDir = (home: string) => join(dirname(home), 'transcripts');
