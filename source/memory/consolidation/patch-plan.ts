// A consolidation patch as a promotion plan (issue 28, item 3): the operations a person accepted,
// turned into the exact bytes of every file they create, update or remove — a scene or doctrine
// file written from the operation's `newContent`; an entry merge: the survivor's file rewritten to
// name the merged entries in `supersedes`, each merged entry's file removed; a retirement and a
// delete: the file removed with the bytes it holds now (promote removes it only while it still
// holds them). The plan is a promotion plan (promotion-plan.ts): the same journal, approval by
// digest and compare-and-swap apply; it carries no candidate and says which operations it holds
// and which were left out. Pure: the caller reads the files, the revisions and the task.
//
// Stale: an operation whose entries changed since the task was made (a revision, the file's
// bytes, a file gone) or whose scene file changed is refused here, never planned against text
// nobody reviewed: consolidating again makes a new patch.
import { sha256Hex } from '../../ground/digests.js';
import { MEMORY_ENTRY_MAX_BYTES } from '../../limits.js';
import { gitBlobOid } from '../blob-oid.js';
import { isPoisonRule } from '../finding-kind.js';
import { checkEntryPath, parseEntry, serializeEntryDocument, updateEntryDocument } from '../entry-format.js';
import { lintMemoryText } from '../memory-lint.js';
import {
  type CurrentFile,
  type LintText,
  type PlanConsolidation,
  type PlanFile,
  type PromotionPlan,
  type PromotionScope,
  planWithoutCandidates,
} from '../promotion-plan.js';
import type { SecretFinding } from '../secret-lint.js';
import { type ConsolidationOperation, checkOperation } from './patch.js';
import { goneBySupersedes, relistFile, relistText } from './relist.js';
import { consolidationPath, parseConsolidationFile, SCENE_DIRECTORY } from './scene-format.js';

export type { PlanConsolidation };

export interface PatchPlanInput {
  planId: string;
  scope: PromotionScope;
  ownerKey: string;
  anchor: string;
  patch: { taskId: string; operations: readonly ConsolidationOperation[] };
  /** What the task gave: each entry's content digest, each scene file's (by name). */
  task: {
    entries: ReadonlyArray<{ id: string; revision: number; contentDigest: string }>;
    scenes: ReadonlyArray<{ name: string; contentDigest: string }>;
  };
  /** Operation numbers (from 1) the person accepted; null: all of them. */
  accepted: readonly number[] | null;
  /** Each approved entry's revision in memory-state now. */
  revisions: ReadonlyMap<string, number>;
  /** The root's entry files now (`<type>/*.md`). */
  entryFiles: readonly CurrentFile[];
  /**
   * The scene and doctrine files the operations name, those that exist now, and every scene file of
   * the root (a scene listing an entry the plan removes is updated to list its survivor).
   */
  consolidationFiles: readonly CurrentFile[];
  now: string;
  lintText?: LintText;
}

/** An operation of the patch that cannot be planned as it is: stale (consolidate again) or not plannable. */
export type PatchPlanRefusal =
  | { reason: 'stale'; message: string; changed: string[] }
  | { reason: 'invalid' | 'secret' | 'poisoning'; message: string };

export type PatchPlanResult =
  | { ok: true; plan: PromotionPlan & { consolidation: PlanConsolidation } }
  | { ok: false; refusal: PatchPlanRefusal };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The paths a patch's operations would write or remove (the caller reads those that exist). */
export function consolidationTargets(operations: readonly ConsolidationOperation[]): string[] {
  const paths = new Set<string>();
  for (const operation of operations) {
    if (operation.target === 'entry') continue;
    const kind = operation.target;
    for (const name of [operation.name, ...operation.mergeSources])
      if (checkName(name) === null) paths.add(consolidationPath({ kind, name }));
  }
  return [...paths].sort();
}

const checkName = (name: string): string | null =>
  /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name) && name.length <= 80 ? null : `"${name}" is not a scene or doctrine name`;

interface Step {
  path: string;
  entryId: string;
  action: 'create' | 'update' | 'remove';
  /** Written bytes, or for a removal the bytes the file holds now. */
  content: Uint8Array;
  /** The file's bytes now (null: absent). */
  current: Uint8Array | null;
  number: number;
}

/** Builds the plan of the accepted operations, or says why there cannot be one. Pure. */
export function buildConsolidationPlan(input: PatchPlanInput): PatchPlanResult {
  const invalid = (message: string): PatchPlanResult => ({ ok: false, refusal: { reason: 'invalid', message } });
  const count = input.patch.operations.length;
  if (count === 0) return invalid(`patch ${input.patch.taskId} has no operation to prepare`);
  const accepted = [...new Set(input.accepted ?? input.patch.operations.map((_, index) => index + 1))].sort(
    (a, b) => a - b,
  );
  if (accepted.length === 0) return invalid('no operation accepted; name at least one');
  const outside = accepted.find((n) => !Number.isInteger(n) || n < 1 || n > count);
  if (outside !== undefined) return invalid(`operation ${outside} is not in the patch (it has ${count})`);

  const taskEntries = new Map(input.task.entries.map((entry) => [entry.id, entry]));
  const taskScenes = new Map(input.task.scenes.map((scene) => [scene.name, scene.contentDigest]));
  const entryFiles = new Map<string, CurrentFile[]>();
  for (const file of input.entryFiles) {
    const parsed = parseEntry(file.bytes);
    if (!parsed.ok) continue;
    const list = entryFiles.get(parsed.value.entry.id) ?? [];
    list.push(file);
    entryFiles.set(parsed.value.entry.id, list);
  }
  const files = new Map(input.consolidationFiles.map((file) => [file.path, file.bytes]));

  // Stale first: every entry an accepted operation rests on is as the task saw it, in memory-state
  // and in its file; every scene file it acts on is the one the task read.
  const changed: string[] = [];
  const note = (line: string) => {
    if (!changed.includes(line)) changed.push(line);
  };
  for (const number of accepted) {
    const operation = input.patch.operations[number - 1]!;
    for (const { entryId, revision } of operation.basedOn) {
      const now = input.revisions.get(entryId);
      const held = entryFiles.get(entryId) ?? [];
      if (now === undefined || held.length === 0) note(`entry ${entryId} was removed (revision ${revision} → none)`);
      else if (now !== revision) note(`entry ${entryId} changed (revision ${revision} → ${now})`);
      else if (held.length === 1 && sha256Hex(held[0]!.bytes) !== taskEntries.get(entryId)?.contentDigest)
        note(`entry ${entryId}'s file changed since revision ${revision}`);
    }
    if (operation.target === 'scene') {
      for (const name of [operation.name, ...operation.mergeSources]) {
        const path = consolidationPath({ kind: 'scene', name });
        const bytes = files.get(path);
        const seen = taskScenes.get(name);
        const writesNew = operation.op === 'create' || (operation.op === 'merge' && name === operation.name);
        if (seen === undefined && bytes !== undefined && writesNew) note(`${path} was created since the task was made`);
        else if (seen !== undefined && bytes === undefined) note(`${path} was removed since the task was made`);
        else if (seen !== undefined && bytes !== undefined && sha256Hex(bytes) !== seen)
          note(`${path} changed since the task was made`);
      }
    }
  }
  if (changed.length > 0)
    return {
      ok: false,
      refusal: {
        reason: 'stale',
        message: `patch ${input.patch.taskId} is stale: ${changed.slice(0, 5).join('; ')}${changed.length > 5 ? `; and ${changed.length - 5} more` : ''}`,
        changed,
      },
    };

  const steps: Step[] = [];
  const entryFileOf = (entryId: string, number: number): CurrentFile | string => {
    const held = entryFiles.get(entryId) ?? [];
    if (held.length !== 1)
      return `operation ${number}: entry ${entryId} is held by ${held.length} files${held.length > 1 ? ` (${held.map((f) => f.path).join(', ')}); remove the extra ones by hand first` : ''}`;
    const check = checkEntryPath(held[0]!.path, 'existing');
    return check.ok ? held[0]! : `operation ${number}: ${check.reason}`;
  };
  const removal = (file: CurrentFile, entryId: string, number: number): Step => ({
    path: file.path,
    entryId,
    action: 'remove',
    content: file.bytes,
    current: file.bytes,
    number,
  });

  for (const number of accepted) {
    const operation = input.patch.operations[number - 1]!;
    const problem = checkOperation(operation);
    if (problem) return invalid(`operation ${number}: ${problem}`);
    if (operation.target === 'entry') {
      if (operation.op === 'retire') {
        const file = entryFileOf(operation.name, number);
        if (typeof file === 'string') return invalid(file);
        steps.push(removal(file, operation.name, number));
        continue;
      }
      // merge: the survivor names the merged entries in `supersedes`; their files go.
      const survivor = entryFileOf(operation.name, number);
      if (typeof survivor === 'string') return invalid(survivor);
      const parsed = parseEntry(survivor.bytes);
      if (!parsed.ok) return invalid(`operation ${number}: ${survivor.path} does not read as an entry`);
      const supersedes = [...new Set([...parsed.value.entry.supersedes, ...operation.mergeSources])];
      if (supersedes.length !== parsed.value.entry.supersedes.length) {
        const document = updateEntryDocument(parsed.value.document, { supersedes, updated: input.now });
        steps.push({
          path: survivor.path,
          entryId: operation.name,
          action: 'update',
          content: encoder.encode(serializeEntryDocument(document)),
          current: survivor.bytes,
          number,
        });
      }
      for (const source of operation.mergeSources) {
        const file = entryFileOf(source, number);
        if (typeof file === 'string') return invalid(file);
        steps.push(removal(file, source, number));
      }
      continue;
    }
    const kind = operation.target;
    for (const name of [operation.name, ...operation.mergeSources]) {
      const bad = checkName(name);
      if (bad) return invalid(`operation ${number}: ${bad}`);
    }
    const path = consolidationPath({ kind, name: operation.name });
    const current = files.get(path) ?? null;
    const id = `${kind}:${operation.name}`;
    if (operation.op === 'delete') {
      if (current === null) return invalid(`operation ${number}: ${path} does not exist`);
      steps.push({ path, entryId: id, action: 'remove', content: current, current, number });
      continue;
    }
    if (operation.op === 'create' && current !== null)
      return { ok: false, refusal: { reason: 'stale', message: `${path} exists now`, changed: [`${path} exists`] } };
    if (operation.op === 'update' && current === null) return invalid(`operation ${number}: ${path} does not exist`);
    const content = encoder.encode(operation.newContent ?? '');
    const parsed = parseConsolidationFile(content);
    if (!parsed.ok)
      return invalid(
        `operation ${number}: the new ${path} would not read back (line ${parsed.problem.line}: ${parsed.problem.message})`,
      );
    if (parsed.value.file.kind !== kind || parsed.value.file.name !== operation.name)
      return invalid(`operation ${number}: its newContent is not the ${kind} "${operation.name}"`);
    if (current === null || Buffer.compare(Buffer.from(current), Buffer.from(content)) !== 0)
      steps.push({ path, entryId: id, action: current === null ? 'create' : 'update', content, current, number });
    for (const source of operation.mergeSources) {
      if (source === operation.name) continue;
      const sourcePath = consolidationPath({ kind, name: source });
      const bytes = files.get(sourcePath);
      if (bytes === undefined) return invalid(`operation ${number}: ${sourcePath} does not exist`);
      steps.push({
        path: sourcePath,
        entryId: `${kind}:${source}`,
        action: 'remove',
        content: bytes,
        current: bytes,
        number,
      });
    }
  }
  const relisted = relistRemovedEntries(input.patch.operations, accepted, steps, files, entryFiles);
  if (typeof relisted === 'string') return invalid(relisted);
  if (steps.length === 0)
    return invalid(
      `the accepted operation${accepted.length === 1 ? '' : 's'} would change no file (the root already says it)`,
    );
  const byPath = new Map<string, Step>();
  for (const step of steps) {
    const other = byPath.get(step.path);
    if (other)
      return invalid(
        `operations ${other.number} and ${step.number} both change ${step.path}; accept one of them (--operations)`,
      );
    byPath.set(step.path, step);
  }

  // The memory lint over every byte written and every new name, as for candidates.
  const lint = input.lintText ?? lintMemoryText;
  const planFiles: PlanFile[] = [];
  const blocking: Array<SecretFinding & { number: number }> = [];
  for (const step of [...steps].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (step.content.length > MEMORY_ENTRY_MAX_BYTES)
      return invalid(`operation ${step.number}: ${step.path} would be over the ${MEMORY_ENTRY_MAX_BYTES}-byte limit`);
    const findings =
      step.action === 'remove'
        ? []
        : [...lint(step.path).map((f) => ({ ...f, line: 0 })), ...lint(decoder.decode(step.content))];
    blocking.push(...findings.filter((f) => f.severity === 'block').map((f) => ({ ...f, number: step.number })));
    planFiles.push({
      path: step.path,
      entryId: step.entryId,
      action: step.action,
      candidateIds: [],
      targetBlobHash: step.current === null ? null : gitBlobOid(step.current),
      content: step.content,
      sanitizedContentDigest: sha256Hex(step.content),
      findings: findings.filter((f) => f.severity !== 'block'),
    });
  }
  if (blocking.length > 0) {
    const first = blocking.find((f) => !isPoisonRule(f.rule)) ?? blocking[0]!;
    const poisoning = isPoisonRule(first.rule);
    return {
      ok: false,
      refusal: {
        reason: poisoning ? 'poisoning' : 'secret',
        message:
          `refused: operation ${first.number} would write ${poisoning ? 'text written to steer the model that reads it' : 'what looks like a secret'} ` +
          `(${first.rule}: ${first.excerpt}); leave it out with --operations, or consolidate again`,
      },
    };
  }

  const current = new Map(steps.filter((s) => s.current !== null).map((s) => [s.path, { bytes: s.current! }]));
  const consolidation: PlanConsolidation = {
    taskId: input.patch.taskId,
    operations: accepted.map((number) => {
      const operation = input.patch.operations[number - 1]!;
      return {
        number,
        op: operation.op,
        target: operation.target,
        name: operation.name,
        basedOn: operation.basedOn.map(({ entryId, revision }) => ({ entryId, revision })),
      };
    }),
    leftOut: input.patch.operations.map((_, index) => index + 1).filter((n) => !accepted.includes(n)),
  };
  const plan = planWithoutCandidates(input, planFiles, current, consolidation);
  return { ok: true, plan: { ...plan, consolidation } };
}

/**
 * No scene or doctrine file points at an entry the plan removes: an entry merged away is named as
 * the survivor it was merged into, a retired one as the entry that supersedes it (dropped when that
 * one is already listed) — in its id list and in its text (relist.ts). A scene or doctrine the plan
 * writes is rewritten so, for entries an earlier plan removed too (a live entry names them in
 * `supersedes`); an existing scene the plan does not touch that names an entry this plan removes
 * gets an update step of its own (the operation that removes the entry), every other byte kept.
 * Mutates `steps`; a problem is returned as text.
 */
function relistRemovedEntries(
  operations: readonly ConsolidationOperation[],
  accepted: readonly number[],
  steps: Step[],
  files: ReadonlyMap<string, Uint8Array>,
  entryFiles: ReadonlyMap<string, CurrentFile[]>,
): string | null {
  const byPlan = new Map<string, { by: string | null; number: number }>();
  for (const number of accepted) {
    const operation = operations[number - 1]!;
    if (operation.target !== 'entry') continue;
    if (operation.op === 'merge')
      for (const source of operation.mergeSources) byPlan.set(source, { by: operation.name, number });
    else if (operation.op === 'retire') byPlan.set(operation.name, { by: operation.supersededBy, number });
  }
  const live: Array<{ id: string; supersedes: readonly string[] }> = [];
  const titles = new Map<string, string>();
  for (const [id, held] of entryFiles) {
    const parsed = held.length === 1 ? parseEntry(held[0]!.bytes) : null;
    if (!parsed?.ok || byPlan.has(id)) continue;
    live.push({ id, supersedes: parsed.value.entry.supersedes });
    titles.set(id, parsed.value.entry.title);
  }
  const gone = new Map<string, string | null>(goneBySupersedes(live));
  for (const [id, { by }] of byPlan) gone.set(id, by);
  if (gone.size === 0) return null;
  const relist = (path: string, bytes: Uint8Array, number: number | null) => {
    const parsed = parseConsolidationFile(bytes);
    if (!parsed.ok) return null;
    const done = relistFile(parsed.value.document, parsed.value.file, gone, titles);
    if (typeof done === 'string')
      return `operation ${number ?? '?'}: ${path} ${done}; accept a delete of it too, or leave the operation out`;
    return done && { content: encoder.encode(done.text) };
  };
  for (const step of steps) {
    if (step.action === 'remove' || !/^(scene|doctrine):/.test(step.entryId)) continue;
    const done = relist(step.path, step.content, step.number);
    if (typeof done === 'string') return done;
    if (done) step.content = done.content;
  }
  if (byPlan.size === 0) return null;
  const touched = new Set(steps.map((step) => step.path));
  for (const [path, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (touched.has(path) || !path.startsWith(`${SCENE_DIRECTORY}/`)) continue;
    // Only a scene naming an entry this plan removes is this plan's business.
    const text = decoder.decode(bytes);
    const named = [...byPlan.keys()].find((id) => relistText(text, new Map([[id, null]]), titles) !== text);
    if (named === undefined) continue;
    const done = relist(path, bytes, byPlan.get(named)!.number);
    if (typeof done === 'string') return done;
    if (done)
      steps.push({
        path,
        entryId: `scene:${path.slice(SCENE_DIRECTORY.length + 1, -'.md'.length)}`,
        action: 'update',
        content: done.content,
        current: bytes,
        number: byPlan.get(named)!.number,
      });
  }
  return null;
}
