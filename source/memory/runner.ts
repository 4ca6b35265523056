// The runner interface: how the pipeline hands a task to whatever drafts or decides — the offline
// built-in rules here, an external command or a model CLI elsewhere — without the pipeline
// changing. A runner receives the task as JSON and answers with JSON text; the pipeline, never the
// runner, bounds, parses and checks that answer and applies it through a submission.
import { CmError } from '../errors.js';
import type { ConsolidationTask } from './consolidation/task.js';
import type { AdjudicationTask, ExtractionTask } from './contracts.js';

/** An earlier turn of the chunk's session sent as context only (never citable): its text and size. */
export interface ContextTurn {
  turnKey: string;
  text: string;
  bytes: number;
}

export type RunnerTask =
  | { kind: 'extraction'; task: ExtractionTask; context?: ContextTurn[] }
  | { kind: 'adjudication'; task: AdjudicationTask }
  /** A scope's approved entries and scenes, answered by a ConsolidationPatch@v1 (issue 28). */
  | { kind: 'consolidation'; task: ConsolidationTask };

export interface RunOptions {
  /** Aborted when the run is cancelled or its time is up; a runner stops and rejects. */
  signal: AbortSignal;
  /** The answer's byte cap; a runner may stop reading beyond it (the pipeline refuses it anyway). */
  maxOutputBytes: number;
}

export interface Runner {
  /** The name users pass to --runner. */
  readonly name: string;
  /** True when no byte leaves the machine; any other runner needs an authorised plan first. */
  readonly offline: boolean;
  /** The raw answer (JSON text of the contract named in the task). */
  run(task: RunnerTask, options: RunOptions): Promise<string>;
}

/** The runners a pipeline may use, by name. */
export type RunnerRegistry = ReadonlyMap<string, Runner>;

/** Where a runner's bytes go, as a plan shows it. */
export interface RunnerDestination {
  name: string;
  provider: string;
  model: string;
  endpoint: string;
  providerRetention: 'unknown' | 'no-retention' | 'provider-policy';
  budget: { runBytes: number; dayBytes: number };
  timeoutMs: number;
  /** Whether earlier turns of the chunk's session may be sent as context (granted in the profile). */
  conversationContext: boolean;
}

/**
 * A runner whose bytes leave the machine: it says exactly which bytes a task sends (`input`), and
 * `send` sends those bytes and no others — the pipeline calls it only with bytes an approved plan
 * declared.
 */
export interface ExternalRunner extends Runner {
  readonly offline: false;
  readonly profile: RunnerDestination;
  input(task: RunnerTask): Buffer;
  send(input: Buffer, task: RunnerTask, options: RunOptions): Promise<string>;
  /** The conformance cache key: the profile and its client's version (a missing or other client throws). */
  conformanceKey(): string;
  /** The deny-all probe, judged by side effects. */
  probe(): Promise<{ passed: boolean; failed: { item: string; detail: string } | null; probeVersion: string }>;
}

export const isExternal = (runner: Runner): runner is ExternalRunner => !runner.offline;

/**
 * A --runner that names none of the data home's runners: a usage error naming those there are
 * (`available`: builtin, then the profiles of runners.json).
 */
export const unknownRunner = (named: string | undefined, available: readonly string[]): CmError =>
  new CmError(
    'usage',
    `No runner named ${JSON.stringify(named)}; available: ${available.join(', ')} (profiles are in runners.json in the data home).`,
  );

/** `memory reverify-runner` of an offline runner: it sends nothing, so it has no probe to run again. */
export const offlineNeedsNoProbe = (name: string): CmError =>
  new CmError('usage', `The ${name} runner is offline and needs no probe; name a profile of runners.json.`);
