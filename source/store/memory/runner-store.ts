// Writer commands of external runners on memory-state: the authorisation log (every approval and
// refusal of a plan, with what it bound), the sends (each task's bytes, against which budgets are
// checked) and the day's spend of a profile.
import { z } from 'zod';
import { memoryCommand } from '../command.js';
import { prepared } from '../database.js';
import type { Db } from '../database.js';
import { utcDay } from '../../memory/window.js';
import type { StoredTask } from './task-store.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const decisionInput = z
  .object({
    planDigest: z.string(),
    taskId: z.string().nullable(),
    runnerInputDigest: hex64.nullable(),
    inputCoverageDigest: hex64.nullable(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    endpoint: z.string().nullable(),
    bytes: z.number().int().nullable(),
    via: z.enum(['interactive', 'digest', 'manifest']),
    manifestDigest: z.string().nullable(),
    runnerProfile: z.string(),
    decision: z.enum(['approved', 'refused']),
    reason: z.string().nullable(),
  })
  .strict();

/** Bytes a profile sent on a UTC day. */
export function sentOn(db: Db, profile: string, day: string): number {
  return prepared(db, 'SELECT coalesce(sum(bytes), 0) FROM runner_sends WHERE runner_profile = ? AND utc_day = ?')
    .pluck()
    .get(profile, day) as number;
}

export const runnerCommands = {
  memoryRecordAuthorization: memoryCommand({
    schema: z.object({ decisions: z.array(decisionInput).max(64) }).strict(),
    run: (tx, _context, input) => {
      const insert = prepared(
        tx.db,
        `INSERT INTO authorization_log (plan_digest, task_id, runner_input_digest, input_coverage_digest, provider, model,
           endpoint, bytes, decided_at_ms, via, manifest_digest, runner_profile, decision, reason)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const d of input.decisions)
        insert.run(
          d.planDigest,
          d.taskId,
          d.runnerInputDigest,
          d.inputCoverageDigest,
          d.provider,
          d.model,
          d.endpoint,
          d.bytes,
          tx.nowMs,
          d.via,
          d.manifestDigest,
          d.runnerProfile,
          d.decision,
          d.reason,
        );
      return { recorded: input.decisions.length };
    },
  }),
  /** Counts a task's bytes against its profile's day before they are sent, unless the day's budget would be passed. */
  memoryRecordSend: memoryCommand({
    schema: z
      .object({
        taskId: z.string(),
        planDigest: hex64,
        runnerProfile: z.string(),
        runId: z.string(),
        bytes: z.number().int().min(0),
        dayBudgetBytes: z.number().int().min(1),
      })
      .strict(),
    run: (tx, _context, input) => {
      const day = utcDay(tx.nowMs);
      const sentToday = sentOn(tx.db, input.runnerProfile, day);
      if (sentToday + input.bytes > input.dayBudgetBytes) return { recorded: false as const, sentToday };
      prepared(
        tx.db,
        `INSERT INTO runner_sends (task_id, plan_digest, runner_profile, run_id, bytes, sent_at_ms, utc_day)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(input.taskId, input.planDigest, input.runnerProfile, input.runId, input.bytes, tx.nowMs, day);
      return { recorded: true as const, sentToday: sentToday + input.bytes };
    },
  }),
  memoryRunnerSpend: memoryCommand({
    schema: z.object({ runnerProfile: z.string() }).strict(),
    run: (tx, _context, input) => ({
      day: utcDay(tx.nowMs),
      bytes: sentOn(tx.db, input.runnerProfile, utcDay(tx.nowMs)),
    }),
  }),
  /** A claimed task whose bytes were not sent (a budget, a changed plan): back to pending, no attempt counted. */
  memoryReleaseUnsent: memoryCommand({
    schema: z.object({ taskId: z.string(), claimToken: z.string(), reason: z.string() }).strict(),
    run: (tx, _context, input) => ({
      released:
        prepared(
          tx.db,
          `UPDATE tasks SET status = 'pending', last_error = ?, lease_holder = NULL, claim_token = NULL, lease_expires_at_ms = NULL
            WHERE task_id = ? AND status = 'claimed' AND claim_token = ?`,
        ).run(input.reason, input.taskId, input.claimToken).changes === 1,
    }),
  }),
  /** The stored task a plan is made of, before any claim. */
  memoryReadTask: memoryCommand({
    schema: z.object({ taskId: z.string() }).strict(),
    run: (tx, _context, input) => {
      const row = prepared(tx.db, 'SELECT task_json, status FROM tasks WHERE task_id = ?').get(input.taskId) as
        | { task_json: string; status: string }
        | undefined;
      return row ? { status: row.status, task: (JSON.parse(row.task_json) as StoredTask).task } : null;
    },
  }),
  /** The cached pass of a profile's conformance probe, if its key and probe version still hold. */
  memoryConformance: memoryCommand({
    schema: z.object({ runnerProfile: z.string(), fingerprint: hex64, probeVersion: z.string() }).strict(),
    run: (tx, _context, input) => {
      const row = prepared(tx.db, 'SELECT * FROM runner_conformance WHERE profile = ?').get(input.runnerProfile) as
        | { cli_version_fingerprint: string; test_version: string; passed_at_ms: number }
        | undefined;
      const passed = row?.cli_version_fingerprint === input.fingerprint && row.test_version === input.probeVersion;
      return { passedAtMs: passed ? row.passed_at_ms : null };
    },
  }),
  /** A pass is cached; a failure removes any earlier pass of the profile. */
  memoryRecordConformance: memoryCommand({
    schema: z
      .object({ runnerProfile: z.string(), fingerprint: hex64, probeVersion: z.string(), passed: z.boolean() })
      .strict(),
    run: (tx, _context, input) => {
      prepared(tx.db, 'DELETE FROM runner_conformance WHERE profile = ?').run(input.runnerProfile);
      if (input.passed)
        prepared(
          tx.db,
          'INSERT INTO runner_conformance (profile, cli_version_fingerprint, test_version, passed_at_ms) VALUES (?, ?, ?, ?)',
        ).run(input.runnerProfile, input.fingerprint, input.probeVersion, tx.nowMs);
      return { recorded: true };
    },
  }),
};
