// The scene files of a memory root (`scenes/*.md`), read as the entries are: never through a link,
// never over the size cap, only files that did not change while read. A file that is not a scene
// (malformed, a link, a doctrine, or text the memory lint blocks) is left out and named with its problem: consolidation then works
// as if it were not there, and says so.
import { readdirSync } from 'node:fs';
import { MEMORY_ENTRY_MAX_BYTES } from '../limits.js';
import {
  type ParsedConsolidationFile,
  parseConsolidationFile,
  SCENE_DIRECTORY,
} from '../memory/consolidation/scene-format.js';
import { blockedFileProblem } from '../memory/file-lint.js';
import { serializeEntryDocument } from '../memory/entry-format.js';
import { sha256Hex } from '../ground/digests.js';
import { checkDirectory, type MemoryRoot, readFileInDirectory } from './safe-files.js';
import { lintPathOf, type MemoryScope } from './approved-scan.js';

export interface SceneRead {
  path: string;
  contentDigest: string;
  parsed: ParsedConsolidationFile;
}

/** At most this many scene files are read: a scope has a few dozen. */
const SCENE_FILES_MAX = 500;

export function readSceneFiles(root: MemoryRoot, scope: MemoryScope): { scenes: SceneRead[]; problems: string[] } {
  const problems: string[] = [];
  let directory: ReturnType<typeof checkDirectory>;
  try {
    directory = checkDirectory(root, [SCENE_DIRECTORY], { create: false });
  } catch (error) {
    return { scenes: [], problems: [`${SCENE_DIRECTORY}/: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (!directory) return { scenes: [], problems };
  const scenes: SceneRead[] = [];
  const names = readdirSync(directory.path, { withFileTypes: true })
    .filter((dirent) => dirent.name.endsWith('.md') && !dirent.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of names.slice(0, SCENE_FILES_MAX)) {
    const path = `${SCENE_DIRECTORY}/${dirent.name}`;
    if (dirent.isSymbolicLink()) {
      problems.push(`${path}: a symbolic link; links are never followed`);
      continue;
    }
    let bytes: Uint8Array;
    try {
      const read = readFileInDirectory(directory, dirent.name, MEMORY_ENTRY_MAX_BYTES);
      if (!read) continue;
      bytes = read.bytes;
    } catch (error) {
      problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const parsed = parseConsolidationFile(bytes);
    if (!parsed.ok) {
      problems.push(`${path}:${parsed.problem.line}: ${parsed.problem.message}`);
      continue;
    }
    if (parsed.value.file.kind !== 'scene') {
      problems.push(`${path}: a doctrine file in ${SCENE_DIRECTORY}/`);
      continue;
    }
    if (`${parsed.value.file.name}.md` !== dirent.name) {
      problems.push(`${path}: its \`scene\` is "${parsed.value.file.name}"; the file is named <scene>.md`);
      continue;
    }
    // Linted like an entry: a scene whose text holds a secret or an instruction to the model is left out.
    const blocked = blockedFileProblem(
      path,
      serializeEntryDocument(parsed.value.document),
      lintPathOf(root, scope, path),
    );
    if (blocked) {
      problems.push(blocked.message);
      continue;
    }
    scenes.push({ path, contentDigest: sha256Hex(bytes), parsed: parsed.value });
  }
  if (names.length > SCENE_FILES_MAX)
    problems.push(`${SCENE_DIRECTORY}/ holds over ${SCENE_FILES_MAX} files; the rest were not read`);
  return { scenes, problems };
}

/**
 * The scene and doctrine files a consolidation plan names, those that exist, with their bytes (the
 * entries' safe reads). A link or any unsafe component is refused outright, as for entry files:
 * a plan is never made against a root that cannot be written safely.
 */
export function readConsolidationFiles(
  root: MemoryRoot,
  paths: readonly string[],
): Array<{ path: string; bytes: Uint8Array }> {
  const files: Array<{ path: string; bytes: Uint8Array }> = [];
  for (const path of paths) {
    const [folder, name] = path.split('/') as [string, string];
    const directory = checkDirectory(root, [folder], { create: false });
    if (!directory) continue;
    const read = readFileInDirectory(directory, name, MEMORY_ENTRY_MAX_BYTES);
    if (read) files.push({ path, bytes: read.bytes });
  }
  return files;
}
