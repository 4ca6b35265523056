// `memory assemble --skills`: approved work methods as agent skills, planned as a value. A skill is
// a folder `<skills dir>/<name>/SKILL.md` (Claude Code 2.1.332 and Codex 0.171.0 both load that
// form; docs/agents.md, Skills). One approved `work_method` entry becomes one skill; a source
// carries a list of sections and of entry ids so that a scene of methods can become one skill too.
//
// Ours are marked: the frontmatter's `metadata` names common-memory, the format, the source entry
// ids and a checksum of the file as written. A folder without that mark is the user's and is never
// written into, renamed or removed: a name it holds goes to another name. A marked file whose
// checksum no longer matches was edited by hand and is left alone too. A marked, unedited skill
// whose sources are no longer approved is removed. Pure: reading the folders and writing the
// files are effects/skill-folders.ts and pipeline/skills-assemble.ts.
//
// The frontmatter is written as `key: <JSON value>` lines: valid YAML for both clients (a JSON
// string is a YAML double-quoted scalar, a JSON object a flow mapping) and the entry dialect that
// entry-format.ts parses back, so a skill is recognised without a YAML parser.
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { sha256Hex } from '../ground/digests.js';
import { SKILL_DESCRIPTION_MAX_CHARS, SKILL_FILE_MAX_BYTES, SKILL_NAME_MAX_CHARS } from '../limits.js';
import { gitBlobOid } from './blob-oid.js';
import { parseEntryDocument } from './entry-format.js';
import { isPoisonRule } from './finding-kind.js';
import { lintMemoryText } from './memory-lint.js';
import type { SecretFinding } from './secret-lint.js';

export const SKILL_FILE = 'SKILL.md';
/** `metadata.managed-by` of a skill we wrote. */
export const SKILL_MANAGER = 'common-memory';
/** `metadata.format`: how the file was written, so a later version knows what it reads. */
export const SKILL_FORMAT = 'common-memory-skill@1';

/** A name both clients load: lowercase letters and digits in words joined by single hyphens. */
const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const isSkillName = (name: string): boolean => name.length <= SKILL_NAME_MAX_CHARS && NAME_RE.test(name);

/**
 * Names the clients use themselves: a project skill of the same name takes the place of Claude
 * Code's own in the model's list (seen with `debug`, `verify`, `init`), so a method never gets
 * one. Claude Code 2.1.332's bundled skills and commands as its stream-json `init` lists them, a
 * few interactive commands, and Codex 0.171.0's bundled skills.
 */
export const CLIENT_SKILL_NAMES: ReadonlySet<string> = new Set([
  ...['deep-research', 'dataviz', 'update-config', 'verify', 'debug', 'code-review', 'simplify', 'batch'],
  ...['fewer-permission-prompts', 'doctor', 'loop', 'claude-api', 'workflow-authoring', 'run'],
  ...['run-skill-generator', 'plugin-authoring', 'keybindings-help', 'agents', 'auto-mode-setup'],
  ...['autocompact', 'clear', 'color', 'compact', 'config', 'output-style', 'context', 'effort', 'fast'],
  ...['focus', 'heapdump', 'init', 'mcp', 'model', 'reload-plugins', 'reload-skills', 'rename'],
  ...['security-review', 'usage', 'insights', 'recap', 'goal', 'list-agents', 'team-onboarding'],
  ...['help', 'exit', 'quit', 'resume', 'login', 'logout', 'status', 'memory', 'review', 'permissions'],
  ...['hooks', 'skills', 'plugin', 'export', 'add-dir', 'cost', 'bug', 'theme', 'vim', 'ide', 'upgrade'],
  ...['imagegen', 'openai-docs', 'skill-creator', 'skill-installer'],
]);

/** What a skill is made from: one approved method entry today, a scene's methods later. */
export interface SkillSource {
  /** The entry ids it is made from, in the order of its sections. */
  sourceIds: string[];
  title: string;
  appliesWhen: string | null;
  /** One section per entry: its title (shown when there are several) and its body. */
  sections: Array<{ entryId: string; title: string; body: string }>;
}

/** An approved entry as the planner needs it (a scan's entry has these fields and more). */
export interface MethodEntry {
  id: string;
  type: string;
  title: string;
  appliesWhen: string | null;
  body: string;
  supersedes: readonly string[];
}

/**
 * One skill per approved `work_method` entry, by id. An entry that another approved entry
 * supersedes is left out: its successor says what holds now.
 */
export function skillSourcesFromEntries(entries: readonly MethodEntry[]): SkillSource[] {
  const superseded = new Set(entries.flatMap((entry) => entry.supersedes));
  return entries
    .filter((entry) => entry.type === 'work_method' && !superseded.has(entry.id))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((entry) => ({
      sourceIds: [entry.id],
      title: entry.title,
      appliesWhen: entry.appliesWhen,
      sections: [{ entryId: entry.id, title: entry.title, body: entry.body }],
    }));
}

/**
 * A skill name from a title: ASCII letters and digits (accents folded), every other run a hyphen,
 * cut to `max` at a word boundary when one is near; `fallback` when nothing is left.
 */
export function skillNameOf(title: string, fallback: string, max: number = SKILL_NAME_MAX_CHARS): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > max) {
      // A first word longer than the limit is cut; later words stop at the last whole one.
      if (name === '') name = word.slice(0, max);
      break;
    }
    name = next;
  }
  return name === '' ? fallback : name;
}

/** A name from an entry id, for a title with no letters or digits (and for the fallback of a clash). */
export const idPart = (id: string): string => skillNameOf(id, 'method').slice(0, 24).replace(/-+$/, '') || 'method';

const oneLine = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** What a client shows to choose the skill: the title, then when it applies; one line, within the clients' cut. */
export function skillDescription(title: string, appliesWhen: string | null): string {
  const head = oneLine(title).replace(/[.;:,\s]+$/u, '');
  const when = appliesWhen === null ? '' : oneLine(appliesWhen).replace(/[.\s]+$/u, '');
  const text = when === '' ? `${head}.` : `${head}. Use when ${when}.`;
  if ([...text].length <= SKILL_DESCRIPTION_MAX_CHARS) return text;
  const chars = [...text].slice(0, SKILL_DESCRIPTION_MAX_CHARS - 1).join('');
  const cut = chars.lastIndexOf(' ');
  return `${cut > SKILL_DESCRIPTION_MAX_CHARS / 2 ? chars.slice(0, cut) : chars}…`;
}

/** The metadata line's checksum while the checksum itself is computed: the same length every time. */
const CHECKSUM_PLACEHOLDER = '';

function metadataLine(sourceIds: readonly string[], checksum: string): string {
  // Every value a string: a client that reads `metadata` as a map of strings loads it too.
  return `metadata: ${JSON.stringify({
    'managed-by': SKILL_MANAGER,
    format: SKILL_FORMAT,
    sources: sourceIds.join(' '),
    checksum,
  })}\n`;
}

/** The exact text of a skill's SKILL.md. */
export function renderSkill(source: SkillSource, name: string, scope: 'project' | 'user'): string {
  const sections =
    source.sections.length === 1
      ? [source.sections[0]!.body.trim()]
      : source.sections.map((section) => `## ${oneLine(section.title)}\n\n${section.body.trim()}`);
  const ids = source.sourceIds.map((id) => `\`${id}\``).join(', ');
  const body =
    `# ${oneLine(source.title)}\n\n${sections.join('\n\n')}\n\n` +
    `---\n\nFrom the approved ${scope} memory of common-memory (entry ${ids}). ` +
    'This folder is generated: `common-memory memory assemble --skills` rewrites it when the entry changes ' +
    'and removes it when the entry is retired.\n';
  const head = (checksum: string) =>
    `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(skillDescription(source.title, source.appliesWhen))}\n${metadataLine(source.sourceIds, checksum)}---\n`;
  const checksum = sha256Hex(`${head(CHECKSUM_PLACEHOLDER)}${body}`);
  return `${head(checksum)}${body}`;
}

/** What a skill folder holds, as read (effects/skill-folders.ts). */
export interface SkillFolder {
  name: string;
  /** SKILL.md's text; null when the folder has none, or it is not a readable regular UTF-8 file within the limit. */
  skillText: string | null;
  /** Entries of the folder other than SKILL.md (files the user added): the folder itself is then kept. */
  otherEntries: number;
  /** False for anything but a real directory (a file, a link): its name is taken, nothing in it is ours. */
  isDirectory: boolean;
}

export type FolderState =
  | { kind: 'unmanaged' }
  | { kind: 'managed'; sourceIds: string[] }
  /** Marked as ours but changed since it was written: kept as it is. */
  | { kind: 'edited'; sourceIds: string[] };

/** Whose a folder is, from its SKILL.md's mark and checksum. */
export function folderState(folder: SkillFolder): FolderState {
  if (!folder.isDirectory || folder.skillText === null) return { kind: 'unmanaged' };
  const parsed = parseEntryDocument(folder.skillText);
  if (!parsed.ok) return { kind: 'unmanaged' };
  const item = parsed.value.items.find((one) => one.kind === 'field' && one.key === 'metadata');
  const metadata = item?.kind === 'field' ? item.value : null;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return { kind: 'unmanaged' };
  if (metadata['managed-by'] !== SKILL_MANAGER || metadata['format'] !== SKILL_FORMAT) return { kind: 'unmanaged' };
  const sources = typeof metadata['sources'] === 'string' ? metadata['sources'].split(' ').filter(Boolean) : [];
  const checksum = metadata['checksum'];
  if (typeof checksum !== 'string' || sources.length === 0) return { kind: 'edited', sourceIds: sources };
  const line = item!.kind === 'field' ? item!.raw : '';
  const blank = folder.skillText.replace(line, metadataLine(sources, CHECKSUM_PLACEHOLDER));
  // The line must be exactly the one we write (same key order and spelling), else it was edited.
  const intact = line === metadataLine(sources, checksum) && sha256Hex(blank) === checksum;
  return intact ? { kind: 'managed', sourceIds: sources } : { kind: 'edited', sourceIds: sources };
}

export type SkillAction = 'create' | 'update' | 'remove';

export interface SkillChange {
  name: string;
  action: SkillAction;
  sourceIds: string[];
  /** `<name>/SKILL.md`, relative to the skills directory. */
  path: string;
  /** The bytes written; for a removal, the bytes the file must still hold to be removed. */
  content: string;
  /** The file's git blob OID as read (null: it must not exist yet). */
  targetBlobHash: string | null;
  /** A removal's folder is removed too when SKILL.md was all it held. */
  removeFolder: boolean;
}

export type KeptReason =
  /** Marked as ours but changed by hand: neither rewritten nor removed. */
  | 'edited'
  /** A removed skill's folder also holds files common-memory did not write: those stay. */
  | 'other-files';

export interface SkillPlan {
  changes: SkillChange[];
  unchanged: Array<{ name: string; sourceIds: string[] }>;
  kept: Array<{ name: string; sourceIds: string[]; reason: KeptReason }>;
  /** A source whose natural name a folder not ours (or another source) holds: it got `name` instead. */
  renamed: Array<{ wanted: string; name: string; sourceIds: string[]; heldBy: 'user' | 'another source' | 'client' }>;
  /** Unified diff of every change, `<dir>/<name>/SKILL.md` paths. */
  diff: string;
}

export type SkillPlanResult =
  | { ok: true; plan: SkillPlan }
  | {
      ok: false;
      reason: 'secret' | 'poisoning' | 'too_large';
      message: string;
      sourceIds: string[];
      findings: SecretFinding[];
    };

export interface SkillPlanInput {
  sources: readonly SkillSource[];
  folders: readonly SkillFolder[];
  scope: 'project' | 'user';
  /** The skills directory as the diff names it, e.g. `.claude/skills`. */
  directory: string;
  /** Default: the memory lint (secrets and poisoning) every promoted text passes. */
  lintText?: (text: string) => SecretFinding[];
}

const key = (ids: readonly string[]): string => ids.join('\0');

/**
 * The changes that make the skills directory hold one managed skill per source and no managed
 * skill of a source that is gone, touching nothing that is not ours. Deterministic: the same
 * sources and folders give the same plan.
 */
export function planSkills(input: SkillPlanInput): SkillPlanResult {
  const states = new Map(input.folders.map((folder) => [folder.name, folderState(folder)]));
  const folderByName = new Map(input.folders.map((folder) => [folder.name, folder]));
  const ours = new Map<string, string>();
  for (const folder of [...input.folders].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const state = states.get(folder.name)!;
    if (state.kind !== 'unmanaged' && isSkillName(folder.name) && !ours.has(key(state.sourceIds)))
      ours.set(key(state.sourceIds), folder.name);
  }
  const sources = [...input.sources].sort((a, b) => (key(a.sourceIds) < key(b.sourceIds) ? -1 : 1));
  const plan: SkillPlan = { changes: [], unchanged: [], kept: [], renamed: [], diff: '' };
  const used = new Set<string>();
  const given: Array<{ source: SkillSource; name: string }> = [];
  // First the sources that already have a folder of theirs: they keep its name.
  for (const source of sources) {
    const name = ours.get(key(source.sourceIds));
    if (name !== undefined && !used.has(name)) {
      used.add(name);
      given.push({ source, name });
    }
  }
  // Names no new skill may take: a folder not ours, one edited by hand, one a source keeps. A
  // managed folder no source keeps is free: the skill that takes its name rewrites it in place.
  // Compared without case: on a case-insensitive file system `Deploy` is the folder `deploy`.
  const held = input.folders.filter((folder) => states.get(folder.name)!.kind !== 'managed' || used.has(folder.name));
  const taken = new Set([...held.map((folder) => folder.name.toLowerCase()), ...CLIENT_SKILL_NAMES]);
  for (const source of sources) {
    if (given.some((one) => one.source === source)) continue;
    const wanted = skillNameOf(source.title, idPart(source.sourceIds[0] ?? 'method'));
    let name = wanted;
    if (taken.has(name) || used.has(name)) {
      const suffix = `-${idPart(source.sourceIds[0] ?? 'method')}`;
      name = `${skillNameOf(wanted, 'method', SKILL_NAME_MAX_CHARS - suffix.length)}${suffix}`;
      for (let n = 2; taken.has(name) || used.has(name); n++) {
        const more = `${suffix}-${n}`;
        name = `${skillNameOf(wanted, 'method', SKILL_NAME_MAX_CHARS - more.length)}${more}`;
      }
      plan.renamed.push({
        wanted,
        name,
        sourceIds: source.sourceIds,
        heldBy: held.some(
          (folder) => folder.name.toLowerCase() === wanted && states.get(folder.name)!.kind !== 'managed',
        )
          ? 'user'
          : CLIENT_SKILL_NAMES.has(wanted)
            ? 'client'
            : 'another source',
      });
    }
    used.add(name);
    given.push({ source, name });
  }

  const lint = input.lintText ?? lintMemoryText;
  for (const { source, name } of given.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const state = states.get(name);
    if (state?.kind === 'edited') {
      plan.kept.push({ name, sourceIds: source.sourceIds, reason: 'edited' });
      continue;
    }
    const content = renderSkill(source, name, input.scope);
    const before = folderByName.get(name)?.skillText ?? null;
    if (before === content) {
      plan.unchanged.push({ name, sourceIds: source.sourceIds });
      continue;
    }
    const findings = [...lint(name), ...lint(content)];
    const blocking = findings.filter((finding) => finding.severity === 'block');
    if (blocking.length > 0) {
      const first = blocking.find((finding) => !isPoisonRule(finding.rule)) ?? blocking[0]!;
      const poisoning = isPoisonRule(first.rule);
      return {
        ok: false,
        reason: poisoning ? 'poisoning' : 'secret',
        sourceIds: source.sourceIds,
        findings: blocking,
        message:
          `the skill of entry ${source.sourceIds.join(', ')} would hold ` +
          `${poisoning ? 'text written to steer the model that reads it' : 'what looks like a secret'} ` +
          `(${first.rule}: ${first.excerpt}); revise or retire the entry`,
      };
    }
    if (new TextEncoder().encode(content).length > SKILL_FILE_MAX_BYTES)
      return {
        ok: false,
        reason: 'too_large',
        sourceIds: source.sourceIds,
        findings: [],
        message: `the skill of entry ${source.sourceIds.join(', ')} would be over the ${SKILL_FILE_MAX_BYTES}-byte limit the clients load`,
      };
    plan.changes.push({
      name,
      action: before === null ? 'create' : 'update',
      sourceIds: source.sourceIds,
      path: `${name}/${SKILL_FILE}`,
      content,
      targetBlobHash: before === null ? null : blobOf(before),
      removeFolder: false,
    });
  }

  const current = new Set(given.map((one) => one.name));
  for (const folder of [...input.folders].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const state = states.get(folder.name)!;
    if (state.kind === 'unmanaged' || current.has(folder.name)) continue;
    if (state.kind === 'edited') {
      plan.kept.push({ name: folder.name, sourceIds: state.sourceIds, reason: 'edited' });
      continue;
    }
    plan.changes.push({
      name: folder.name,
      action: 'remove',
      sourceIds: state.sourceIds,
      path: `${folder.name}/${SKILL_FILE}`,
      content: folder.skillText!,
      targetBlobHash: blobOf(folder.skillText!),
      removeFolder: folder.otherEntries === 0,
    });
    if (folder.otherEntries > 0)
      plan.kept.push({ name: folder.name, sourceIds: state.sourceIds, reason: 'other-files' });
  }
  plan.changes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  plan.diff = plan.changes
    .map((change) =>
      createTwoFilesPatch(
        change.action === 'create' ? '/dev/null' : `a/${input.directory}/${change.path}`,
        change.action === 'remove' ? '/dev/null' : `b/${input.directory}/${change.path}`,
        change.action === 'create' ? '' : (folderByName.get(change.name)?.skillText ?? ''),
        change.action === 'remove' ? '' : change.content,
        undefined,
        undefined,
        { headerOptions: FILE_HEADERS_ONLY },
      ),
    )
    .join('');
  return { ok: true, plan };
}

const blobOf = (text: string): string => gitBlobOid(new TextEncoder().encode(text));
