// Shared helpers for the driven-agents drills (seed 003 B3, §8 groups B–D): a host — in process or
// as a `common-memory host` child — whose pi is the fake-pi double, and readers that check the
// committed journal, timeline and operations through the application API only. Every answer the
// drills get is checked against its route's response schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { apiClient } from '../../source/client/api-client.js';
import { storeFiles } from '../../source/home.js';
import { Host } from '../../source/host/host.js';
import type { Application } from '../../source/api/application.js';
import type { JournalRow, OperationView, TimelineRow } from '../../source/api/history.js';
import { openDatabase } from '../../source/store/database.js';
import { runDoctor } from '../../source/store/doctor.js';
import { checkedApplication } from './checked-application.js';
import { fakePiCommand, type FakePiScript } from './fake-pi.js';
import { fixturePath } from './pi-transcript.js';
import { runCliInProcess } from './cli-in-process.js';
import { startHost, stopHost, waitFor } from './cli.js';
import { readAllPages } from './results.js';

/** The recorded answer to "Say hello" (fixtures/pi/a-simple-prompt): the fake echoes exactly this user text. */
export const HELLO = 'Say hello';
export const SIMPLE = fixturePath('a-simple-prompt', 'stdout');

/** a-simple-prompt's prompt segment, line by line: 0 response, 1 agent_start, 2 turn_start, 3–4 user start/end, 5 assistant start, 6–12 updates, 13 assistant end, 14 turn_end, 15 agent_end. */
export const SIMPLE_LINES = {
  throughUserEcho: 5,
  throughUpdates: 10,
  throughAssistantEnd: 14,
  throughAgentEnd: 16,
} as const;

/** One recorded line of the simple answer (0-based index into the prompt segment, as above). */
export function simpleLine(index: number): string {
  const lines = readFileSync(SIMPLE, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const start = lines.findIndex((line) => line.includes('"command":"prompt"'));
  return lines[start + index]!;
}

export const piEnv = (script: FakePiScript) => ({ COMMON_MEMORY_PI_COMMAND: JSON.stringify(fakePiCommand(script)) });

export const journal = (app: Application, agentId?: string) =>
  readAllPages<JournalRow>((after) => app.journal({ after, limit: 100, agentId }));
export const timeline = (app: Application, agentId?: string) =>
  readAllPages<TimelineRow>((after) => app.timeline({ after, limit: 100, agentId }));

export const TERMINAL = ['settled', 'interrupted', 'rejected', 'abandoned'];

export async function ended(app: Application, operationId: string, timeoutMs = 20_000): Promise<OperationView> {
  return waitFor(
    `operation ${operationId} to end`,
    async () => {
      const op = await app.operation({ operationId });
      return TERMINAL.includes(op.state) ? op : undefined;
    },
    timeoutMs,
  );
}

/**
 * Resolves once the agent's journal holds exactly `lines` stdout records: where a fake holding its
 * stream (FakePiPromptAction.hold) stopped. More than that fails at once: the hold did not hold.
 */
export async function heldAt(app: Application, agentId: string, lines: number, timeoutMs = 20_000): Promise<void> {
  await waitFor(
    `${lines} stdout records of the held stream`,
    async () => {
      const stdout = (await journal(app, agentId)).filter((row) => row.wireStream === 'stdout').length;
      assert.ok(stdout <= lines, `the held stream went on: ${stdout} stdout records, expected ${lines}`);
      return stdout === lines ? true : undefined;
    },
    timeoutMs,
  );
}

export async function generationState(app: Application, agent: string, states: string[], timeoutMs = 20_000) {
  return waitFor(
    `agent ${agent} generation in ${states.join('|')}`,
    async () => {
      const view = (await app.listAgents()).find((a) => a.name === agent);
      return view?.generation && states.includes(view.generation.state) ? view : undefined;
    },
    timeoutMs,
  );
}

/** Doctor in process over a read-only connection (works beside a running host). */
export function doctorInProcess(home: string): void {
  const db = openDatabase(storeFiles(home).core, { readonly: true });
  try {
    assert.deepEqual(runDoctor(db), []);
  } finally {
    db.close();
  }
}

/**
 * Doctor as users run it, `common-memory doctor --json` (in-process: a read-only check, so no
 * spawn per drill; the bin's doctor is e2e/drills.test.ts): exit 0 and consistent.
 */
export async function doctorCli(home: string): Promise<void> {
  const result = await runCliInProcess(['doctor', '--json', '--home', home]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(JSON.parse(result.stdout).consistent, true);
}

/**
 * Runs `body` against an in-process host whose pi is the fake with `script`. Environment knobs
 * are read when the host starts its worker threads (each gets a copy of the environment), so they
 * are set only around Host.start. Doctor runs after every drill.
 */
export async function withFakeHost(
  script: FakePiScript,
  body: (ctx: { app: Application; host: Host; home: string }) => Promise<void>,
  options: { home: string; env?: Record<string, string> },
): Promise<void> {
  const env = { ...piEnv(script), ...options.env };
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  let host: Host;
  try {
    host = await Host.start({ home: options.home, serve: true });
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  try {
    await body({ app: checkedApplication(host.application), host, home: options.home });
  } finally {
    await host.stop();
  }
  doctorInProcess(options.home);
}

/** A `common-memory host` child process and an API client to it. */
export async function childHost(
  home: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; api: Application; pid: number }> {
  const { child, info } = await startHost(home, env);
  const token = (JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')) as { token: string }).token;
  return { child, api: checkedApplication(apiClient(info.port, token)), pid: info.pid };
}

/** Resolves when the child is gone (killed by a fault or by us). */
export function exited(
  child: ChildProcess,
  timeoutMs = 20_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    const timer = setTimeout(() => reject(new Error('host child did not exit')), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

export { stopHost };

/** Provenance both ways for every timeline row: its source journal row exists, is the right kind, and links back. */
export function assertProvenance(journalRows: JournalRow[], timelineRows: TimelineRow[]): void {
  const bySequence = new Map(journalRows.map((row) => [row.sequence, row]));
  for (const row of timelineRows) {
    const source = bySequence.get(row.sourceJournalSequence);
    assert.ok(source, `timeline ${row.sequence} (${row.role}) has no journal raw at ${row.sourceJournalSequence}`);
    assert.equal(source.canonicalMessageId, row.messageId, `journal ${source.sequence} links back to ${row.messageId}`);
    assert.equal(
      source.kind,
      row.role === 'user' ? 'prompt.requested' : 'pi.message_end',
      `source kind of a ${row.role} row`,
    );
    assert.equal(source.agentId, row.agentId);
    assert.equal(source.generationId, row.generationId);
    assert.equal(source.operationId, row.operationId);
  }
}

/** Every operation a receipt was given for has its intent in the journal (no "receipt without intent"). */
export function assertIntent(journalRows: JournalRow[], op: OperationView): void {
  const intent = journalRows.find((row) => row.sequence === op.journalSequence);
  assert.ok(intent, `operation ${op.operationId} names journal ${op.journalSequence}, which is missing`);
  assert.equal(intent.operationId, op.operationId);
  if (op.kind === 'prompt') {
    assert.equal(intent.kind, 'prompt.requested');
    assert.equal(intent.canonicalMessageId, op.userMessageId);
  }
}
