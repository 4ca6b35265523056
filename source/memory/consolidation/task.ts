// ConsolidationTask@v1: what a consolidation runner is given — one scope's approved entries, each
// with the revision and content digest the task saw (the binding), and the patch format it must
// answer in. The task id is a digest of the binding: the same entries at the same revisions are the
// same task; any change makes a new one, and a patch for the old one is stale.
import { sha256Hex } from '../../ground/digests.js';
import { canonicalJson } from '../../ground/canonical-json.js';
import {
  BUILTIN_CONSOLIDATION_VERSION,
  type ConsolidationEntry,
  consolidate,
  type ExistingScene,
} from './builtin-consolidation.js';
import { CONSOLIDATION_FORMATS, type ConsolidationPatch } from './patch.js';

export interface ConsolidationTaskEntry extends ConsolidationEntry {
  contentDigest: string;
}

/** A scene file of the memory root as the task gives it: its fields, and its bytes' sha256. */
export interface ConsolidationTaskScene extends ExistingScene {
  /** The file's text: the runner updates it in place. */
  text: string;
  contentDigest: string;
}

export interface ConsolidationBinding {
  memoryStateUuid: string;
  owner: { repositoryKey: string; worktreeKey: string };
  scope: 'project' | 'user';
  /** sha256 of the canonical JSON of the (id, revision, contentDigest) triples, in id order. */
  entriesDigest: string;
  /** sha256 of the canonical JSON of the (name, contentDigest) pairs of the root's scenes, in name order. */
  scenesDigest: string;
  schemaVersion: 1;
  /**
   * The external runner the task is made for (its profile name); absent for the built-in runner.
   * Another runner over the same entries is another task: its answer is not the built-in one's.
   */
  runner?: string;
}

export interface ConsolidationTask {
  format: typeof CONSOLIDATION_FORMATS.task;
  /** sha256 of the canonical JSON of `binding`, cut: the same entries for the same runner are the same task. */
  taskId: string;
  binding: ConsolidationBinding;
  entries: ConsolidationTaskEntry[];
  scenes: ConsolidationTaskScene[];
  contract: { patchSchema: typeof CONSOLIDATION_FORMATS.patch };
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function consolidationTask(input: {
  memoryStateUuid: string;
  owner: { repositoryKey: string; worktreeKey: string };
  scope: 'project' | 'user';
  entries: readonly ConsolidationTaskEntry[];
  scenes?: readonly ConsolidationTaskScene[];
  runner?: string;
}): ConsolidationTask {
  const entries = [...input.entries].sort(byId);
  const scenes = [...(input.scenes ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const binding: ConsolidationBinding = {
    memoryStateUuid: input.memoryStateUuid,
    owner: { repositoryKey: input.owner.repositoryKey, worktreeKey: input.owner.worktreeKey },
    scope: input.scope,
    entriesDigest: sha256Hex(canonicalJson(entries.map((entry) => [entry.id, entry.revision, entry.contentDigest]))),
    scenesDigest: sha256Hex(canonicalJson(scenes.map((scene) => [scene.name, scene.contentDigest]))),
    schemaVersion: 1,
    ...(input.runner === undefined ? {} : { runner: input.runner }),
  };
  return {
    format: CONSOLIDATION_FORMATS.task,
    taskId: `con-${sha256Hex(canonicalJson(binding)).slice(0, 24)}`,
    binding,
    entries,
    scenes,
    contract: { patchSchema: CONSOLIDATION_FORMATS.patch },
  };
}

/** The built-in runner's answer to a task: its operations, the binding returned as given. */
export function builtinConsolidationPatch(task: ConsolidationTask): ConsolidationPatch {
  return {
    format: CONSOLIDATION_FORMATS.patch,
    taskId: task.taskId,
    binding: task.binding,
    operations: consolidate({ entries: task.entries, scenes: task.scenes }),
  };
}

/** What an external runner's plan names as the prompt of a consolidation task (the task's JSON, and for a client runner fixed instructions). */
export const CONSOLIDATION_PROMPT_VERSION = 'consolidation-prompt@1';

export const BUILTIN_CONSOLIDATION_RUNNER = `builtin (${BUILTIN_CONSOLIDATION_VERSION})`;
