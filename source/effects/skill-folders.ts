// The folders of a skills directory (`.claude/skills`, `.agents/skills`, …) as the skill planner
// reads them (memory/skill-plan.ts): each folder's name, its SKILL.md's text and how many other
// entries it holds. Read through the memory-root checks of safe-files.ts — no link is followed,
// nothing outside the directory is touched — and never written here: writes and removals go
// through promotion-apply.ts's compare-and-swap steps, and a folder is removed only when empty.
import { readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKILL_FILE_MAX_BYTES } from '../limits.js';
import { SKILL_FILE, type SkillFolder } from '../memory/skill-plan.js';
import {
  checkDirectory,
  MemoryFileError,
  type MemoryRoot,
  readFileInDirectory,
  temporaryName,
  verifyDirectory,
} from './safe-files.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Every entry of the skills directory, as a folder the planner can judge; none when the directory does not exist. */
export function readSkillFolders(root: MemoryRoot): SkillFolder[] {
  const directory = checkDirectory(root, [], { create: false });
  if (!directory) return [];
  const folders: SkillFolder[] = [];
  for (const entry of readdirSync(directory.path, { withFileTypes: true })) {
    // A crash between a write and its rename leaves our temporary file beside the folders.
    if (entry.name.startsWith('.cm-') && entry.name.endsWith('.tmp')) continue;
    if (!entry.isDirectory()) {
      folders.push({ name: entry.name, skillText: null, otherEntries: 0, isDirectory: false });
      continue;
    }
    folders.push(readFolder(root, entry.name));
  }
  verifyDirectory(directory);
  return folders.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function readFolder(root: MemoryRoot, name: string): SkillFolder {
  let folder: ReturnType<typeof checkDirectory>;
  try {
    folder = checkDirectory(root, [name], { create: false });
  } catch (error) {
    // Replaced by a link or a file since the listing: its name is taken, nothing in it is ours.
    if (error instanceof MemoryFileError) return { name, skillText: null, otherEntries: 0, isDirectory: false };
    throw error;
  }
  if (!folder) return { name, skillText: null, otherEntries: 0, isDirectory: false };
  const leftover = temporaryName(SKILL_FILE);
  const others = readdirSync(folder.path).filter((one) => one !== SKILL_FILE && one !== leftover).length;
  let skillText: string | null = null;
  try {
    const read = readFileInDirectory(folder, SKILL_FILE, SKILL_FILE_MAX_BYTES);
    if (read) skillText = strictUtf8.decode(read.bytes);
  } catch (error) {
    // A link, a FIFO, a file over the limit or not UTF-8: not a file we wrote.
    if (!(error instanceof MemoryFileError) && !(error instanceof TypeError)) throw error;
    skillText = null;
  }
  verifyDirectory(folder);
  return { name, skillText, otherEntries: others, isDirectory: true };
}

/**
 * Removes the folder `<root>/<name>` if it is empty (its SKILL.md removed already); a folder that
 * gained an entry meanwhile is kept. True when it was removed.
 */
export function removeEmptySkillFolder(root: MemoryRoot, name: string): boolean {
  const folder = checkDirectory(root, [name], { create: false });
  if (!folder) return false;
  verifyDirectory(folder);
  try {
    // rmdir removes only an empty directory, and never what a link points to.
    rmdirSync(join(folder.path));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw new MemoryFileError(
      'io',
      folder.display,
      `cannot remove the folder ${folder.display}: ${(error as Error).message}`,
    );
  }
}
