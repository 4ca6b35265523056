// The memory lint of a file found in a memory root — an entry, a scene or a doctrine file, written
// by the gate or by hand, or brought in by a pull (pure). Its own module because the SessionStart
// hook loads it only when a file changed (a bundle of its own: hook/file-lint.ts), never at every
// event.
import { lintMemoryText } from './memory-lint.js';

/**
 * The first blocking finding of a file found in a memory root, as a line for the person (null:
 * none): the scan and consolidation leave such a file out, as they leave out a file that does not
 * parse, and say where it is and which rule (the secret masked).
 */
export function blockedFileProblem(
  path: string,
  text: string,
  /** The file as a person names it to memory lint (the scan knows its root): the path when not given. */
  lintPath = path,
): { line: number; message: string; rule: string } | null {
  const found = lintMemoryText(text).find((finding) => finding.severity === 'block');
  if (!found) return null;
  const via = found.transform === undefined ? '' : ` (${found.transform})`;
  return {
    line: found.line,
    rule: found.rule,
    message: `${path}:${found.line}:${found.column}: block ${found.rule}${via} ${found.excerpt}: a secret or an instruction to the model; left out until the file is fixed (common-memory memory lint ${lintPath})`,
  };
}
