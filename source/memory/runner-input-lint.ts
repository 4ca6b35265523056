// Runner input is linted before its plan is made: every text of the task that came from a person
// or a model (the chunk's transcript, earlier turns sent as context, an adjudication's drafts and
// pool summaries, a consolidation's entries and scenes) goes through the secret lint, and each blocking finding is replaced by a typed
// placeholder `[secret:<rule>]` BEFORE the bytes are built and digested. So the bytes a person
// approves, and the only bytes a runner may be sent, never hold a blocked secret as typed; the plan
// lists every finding (rule, turn, masked excerpt) and how many were replaced.
//
// Only the text changes: ids, digests, the binding and the evidence catalogue stay as they were, so
// a runner still copies the binding and cites the same evidence ids. Pure: a task in, a task out.
import { CmError } from '../errors.js';
import type { RunnerInputFinding } from '../api/memory-runs.js';
import type { ConsolidationTask } from './consolidation/task.js';
import type { ExtractionTask } from './contracts.js';
import type { RunnerTask } from './runner.js';
import { lintText, type SecretFinding } from './secret-lint.js';
import { maskText } from './secret-mask.js';

export type { RunnerInputFinding };

/** What stands in the runner input where a blocked secret was: its rule, never a character of it. */
export const secretPlaceholder = (rule: string): string => `[secret:${rule}]`;

/**
 * Rounds of lint → replace over one text. A replacement could in principle complete another match
 * (text around it read anew); each round replaces what is still found, and a text that still holds
 * a blocking finding after the last round is not sent at all.
 */
const SCREEN_ROUNDS_MAX = 3;

export interface ScreenedRunnerTask {
  /** The task with every blocking finding replaced: build the runner's bytes from this one. */
  work: RunnerTask;
  /** Every finding of the original texts, masked, in task order. */
  findings: RunnerInputFinding[];
  /** How many blocking findings were replaced by a placeholder. */
  replaced: number;
}

/** Where a finding is; `start` is the offset its line and column count from (the turn's start in a transcript). */
type Where = Pick<RunnerInputFinding, 'source' | 'turn' | 'ref'> & { start: number };

/** The 1-based line and column of `offset` in `text`, counted from `start`. */
function positionFrom(text: string, start: number, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = start;
  for (let i = text.indexOf('\n', start); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const transformOf = (finding: SecretFinding): string | undefined =>
  (finding as SecretFinding & { transform?: string }).transform;

/**
 * The turn of each part of an extraction transcript: the chunk joins its turns' serialised texts
 * with a newline, and its coverage lists each turn with that text's UTF-8 size, in order.
 */
function turnLocator(task: ExtractionTask): (offset: number) => { turn: string | null; start: number } {
  const transcript = task.chunk.transcript;
  const bytes = Buffer.from(transcript, 'utf8');
  const spans: Array<{ turnKey: string; start: number; end: number }> = [];
  let byte = 0;
  let at = 0;
  for (const item of task.chunk.coverage) {
    if (item.sourceKind !== 'turn') continue;
    if (byte + item.bytes > bytes.length) break;
    const length = bytes.subarray(byte, byte + item.bytes).toString('utf8').length;
    spans.push({ turnKey: item.ref, start: at, end: at + length });
    byte += item.bytes + 1;
    at += length + 1;
  }
  return (offset) => {
    const span = spans.find((entry) => offset >= entry.start && offset < entry.end);
    return span ? { turn: span.turnKey, start: span.start } : { turn: null, start: 0 };
  };
}

/** Replaces the blocking findings of one text; records every finding of it. */
function screenText(
  text: string,
  where: (offset: number) => Where,
  out: { findings: RunnerInputFinding[]; replaced: number },
): string {
  let current = text;
  for (let round = 0; round < SCREEN_ROUNDS_MAX; round++) {
    const found = lintText(current);
    // Later rounds read a rewritten text: only what still blocks there is news.
    const listed = round === 0 ? found : found.filter((finding) => finding.severity === 'block');
    for (const finding of listed) {
      const transform = transformOf(finding);
      const { start, ...place } = where(finding.offset);
      out.findings.push({
        rule: finding.rule,
        severity: finding.severity,
        ...place,
        ...positionFrom(current, start, finding.offset),
        excerpt: finding.excerpt,
        replaced: finding.severity === 'block',
        ...(transform === undefined ? {} : { transform }),
      });
    }
    const blocking = found.filter((finding) => finding.severity === 'block');
    if (blocking.length === 0) return current;
    out.replaced += blocking.length;
    current = maskText(current, blocking, (_secret, covered) => secretPlaceholder(covered[0]!.rule));
  }
  const left = lintText(current).find((finding) => finding.severity === 'block');
  if (!left) return current;
  const place = where(left.offset);
  const at = positionFrom(current, place.start, left.offset);
  throw new CmError(
    'secret_found',
    `The runner input still holds a ${left.rule} finding (${place.source}${place.turn ? ` turn ${place.turn}` : ''} ${at.line}:${at.column}, ${left.excerpt}) after replacing secrets; nothing was sent. Discard or edit that text, or run with the builtin runner.`,
  );
}

/** The task as it may be sent: blocking secrets replaced by placeholders, every finding listed (masked). */
export function screenRunnerTask(work: RunnerTask): ScreenedRunnerTask {
  const out = { findings: [] as RunnerInputFinding[], replaced: 0 };
  if (work.kind === 'extraction') {
    const { task } = work;
    // A task read back from storage is checked by its schema elsewhere; here a missing text is simply not there.
    const chunk = task.chunk as ExtractionTask['chunk'] | undefined;
    const turnAt = chunk && Array.isArray(chunk.coverage) ? turnLocator(task) : () => ({ turn: null, start: 0 });
    const transcript =
      typeof chunk?.transcript === 'string'
        ? screenText(
            chunk.transcript,
            (offset) => ({ source: 'transcript', ...turnAt(offset), ref: chunk.chunkRef }),
            out,
          )
        : undefined;
    const context = work.context?.map((turn) => {
      const text = screenText(
        turn.text,
        () => ({ source: 'context', turn: turn.turnKey, ref: turn.turnKey, start: 0 }),
        out,
      );
      return text === turn.text ? turn : { ...turn, text, bytes: Buffer.byteLength(text, 'utf8') };
    });
    if (out.findings.length === 0) return { work, findings: [], replaced: 0 };
    return {
      work: {
        kind: 'extraction',
        task: transcript === undefined ? task : { ...task, chunk: { ...task.chunk, transcript } },
        ...(context === undefined ? {} : { context }),
      },
      ...out,
    };
  }
  if (work.kind === 'consolidation') return screenConsolidation(work.task, out);
  const { task } = work;
  const text = (value: string, where: () => Where) =>
    typeof value === 'string' ? screenText(value, where, out) : value;
  const drafts = (task.drafts ?? []).map((draft) => {
    const where = () => ({ source: 'draft' as const, turn: null, ref: draft.candidateId, start: 0 });
    return {
      ...draft,
      content: text(draft.content, where),
      scene: draft.scene === null ? null : text(draft.scene, where),
      statements: (draft.statements ?? []).map((statement) => ({ ...statement, text: text(statement.text, where) })),
    };
  });
  const pool = (task.pool ?? []).map((item) => ({
    ...item,
    summary: text(item.summary, () => ({ source: 'pool', turn: null, ref: `${item.sourceKind}:${item.id}`, start: 0 })),
  }));
  if (out.findings.length === 0) return { work, findings: [], replaced: 0 };
  const screened = { ...task, ...(task.drafts ? { drafts } : {}), ...(task.pool ? { pool } : {}) };
  return { work: { kind: 'adjudication', task: screened }, ...out };
}

/**
 * A consolidation task's texts: each approved entry's title, `appliesWhen` and body, each scene's
 * fields and file text. Ids, revisions and digests stay: the patch still rests on the same entries.
 */
function screenConsolidation(
  task: ConsolidationTask,
  out: { findings: RunnerInputFinding[]; replaced: number },
): ScreenedRunnerTask {
  const text = (value: string | null, source: 'entry' | 'scene', ref: string) =>
    typeof value === 'string' ? screenText(value, () => ({ source, turn: null, ref, start: 0 }), out) : value;
  const entries = (task.entries ?? []).map((entry) => ({
    ...entry,
    title: text(entry.title, 'entry', entry.id) as string,
    appliesWhen: text(entry.appliesWhen, 'entry', entry.id),
    body: text(entry.body, 'entry', entry.id) as string,
  }));
  const scenes = (task.scenes ?? []).map((scene) => ({
    ...scene,
    title: text(scene.title, 'scene', scene.name) as string,
    appliesWhen: text(scene.appliesWhen, 'scene', scene.name),
    body: text(scene.body, 'scene', scene.name) as string,
    text: text(scene.text, 'scene', scene.name) as string,
  }));
  if (out.findings.length === 0) return { work: { kind: 'consolidation', task }, findings: [], replaced: 0 };
  return { work: { kind: 'consolidation', task: { ...task, entries, scenes } }, ...out };
}
