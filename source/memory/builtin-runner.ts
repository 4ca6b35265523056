// The `builtin` runner: offline and deterministic. Extraction drafts from the user's own words by
// the rules of builtin-rules.ts; adjudication decides by the normalised-text rules of
// adjudication-rules.ts. It reads only the task it is given, like any other runner.
import { builtinConsolidationPatch } from './consolidation/task.js';
import { decideDraft, type RecalledItem } from './adjudication-rules.js';
import { draftCandidates } from './builtin-rules.js';
import {
  FORMATS,
  type AdjudicationResult,
  type AdjudicationTask,
  type DraftBatch,
  type ExtractionTask,
} from './contracts.js';
import type { Runner, RunnerTask } from './runner.js';

/** The user turns of a serialised chunk, by evidence id: `<<past-user evidence=eN>>` up to the next marker line. */
export function evidenceTexts(transcript: string): Array<{ evidenceId: string; text: string }> {
  const turns: Array<{ evidenceId: string; text: string }> = [];
  const lines = transcript.split('\n');
  let current: { evidenceId: string; lines: string[] } | null = null;
  const close = () => {
    if (current) turns.push({ evidenceId: current.evidenceId, text: current.lines.join('\n').replace(/\n+$/, '') });
    current = null;
  };
  for (const line of lines) {
    const marker = /^<<(past-[a-z_-]+|end-of-transcript)(?: [^>]*)?>>$/.exec(line);
    if (marker) {
      close();
      const evidence = /^<<past-user evidence=(e\d+)>>$/.exec(line);
      if (evidence) current = { evidenceId: evidence[1]!, lines: [] };
      continue;
    }
    current?.lines.push(line);
  }
  close();
  return turns;
}

const confidenceOf = (value: number): 'high' | 'medium' | 'low' =>
  value >= 0.8 ? 'high' : value >= 0.6 ? 'medium' : 'low';

export function builtinExtraction(task: ExtractionTask): DraftBatch {
  const catalogue = new Set(task.evidenceCatalog.map((entry) => entry.evidenceId));
  const turns = evidenceTexts(task.chunk.transcript).filter((turn) => catalogue.has(turn.evidenceId));
  const drafts = draftCandidates(turns).slice(0, task.contract.maxCandidates);
  return {
    format: FORMATS.draftBatch,
    taskId: task.taskId,
    binding: task.binding,
    candidates: drafts.map((draft) => ({
      content: draft.content,
      type: draft.type,
      priority: Math.max(0, Math.min(100, Math.round(draft.priority))),
      confidence: confidenceOf(draft.confidence),
      scene: null,
      signals: draft.signals,
      statements: draft.statements.map((statement, index) => ({
        statementId: `s${index + 1}`,
        text: statement.text,
        evidenceIds: statement.evidenceIds,
      })),
    })),
  };
}

export function builtinAdjudication(task: AdjudicationTask): AdjudicationResult {
  const pool = new Map(task.pool.map((item) => [`${item.sourceKind}\0${item.id}`, item]));
  const kept: RecalledItem[] = [];
  const adjudications = task.drafts.map((draft) => {
    const set = task.recallSets.find((entry) => entry.draftRef === draft.candidateId)?.ordered ?? [];
    const recalled = set.flatMap((entry) => {
      const item = pool.get(`${entry.sourceKind}\0${entry.id}`);
      return item ? [{ id: item.id, sourceKind: item.sourceKind, content: item.summary, revision: item.revision }] : [];
    });
    const decision = decideDraft(draft, recalled);
    if (decision.decision === 'store') {
      // A duplicate of an earlier draft of this batch converges on it by skip (never by a mutation).
      const sibling = decideDraft(draft, kept);
      if (sibling.decision === 'skip')
        return {
          draftRef: draft.candidateId,
          action: 'skip' as const,
          targetIds: [sibling.targetId!],
          mergedFields: null,
        };
    }
    if (decision.decision !== 'skip')
      kept.push({ id: draft.candidateId, sourceKind: 'candidate', content: draft.content, revision: 1 });
    return {
      draftRef: draft.candidateId,
      action: decision.decision,
      targetIds: decision.targetId ? [decision.targetId] : [],
      mergedFields: null,
    };
  });
  return { format: FORMATS.adjudicationResult, taskId: task.taskId, binding: task.binding, adjudications };
}

export const builtinRunner: Runner = {
  name: 'builtin',
  offline: true,
  async run(work: RunnerTask): Promise<string> {
    switch (work.kind) {
      case 'extraction':
        return JSON.stringify(builtinExtraction(work.task));
      case 'adjudication':
        return JSON.stringify(builtinAdjudication(work.task));
      default:
        return JSON.stringify(builtinConsolidationPatch(work.task));
    }
  },
};
