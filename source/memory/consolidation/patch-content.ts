// What a patch's scene and doctrine files say, checked before the patch is kept (pure). A runner
// may be a model: the file it writes must be the scene or doctrine its operation names, every entry
// the file groups or cites must be an entry of the task that the operation rests on, and its text
// goes through the memory lint (secrets, poisoning) exactly as an entry's text does — a blocking
// finding keeps the operation out of the review queue, never a character of a secret stored.
import { lintMemoryText, type MemoryFinding } from '../memory-lint.js';
import type { ConsolidationOperation, ConsolidationTarget } from './patch.js';
import { parseConsolidationFile } from './scene-format.js';

const encoder = new TextEncoder();

/**
 * Why an operation's file does not answer the task, or null: it parses as the scene or doctrine the
 * operation names; a doctrine cites at least one entry; every entry it groups or cites is one the
 * task gave and the operation rests on (so its revision is compared at submission).
 */
export function contentProblem(operation: ConsolidationOperation, taskEntries: ReadonlySet<string>): string | null {
  if (operation.newContent === null || operation.target === 'entry') return null;
  const what = `${operation.op} ${operation.target} "${operation.name}"`;
  const parsed = parseConsolidationFile(encoder.encode(operation.newContent));
  if (!parsed.ok) return `${what}: its file does not parse (line ${parsed.problem.line}: ${parsed.problem.message})`;
  const file = parsed.value.file;
  if (file.kind !== operation.target) return `${what}: its file is a ${file.kind}, not a ${operation.target}`;
  if (file.name !== operation.name) return `${what}: its file names itself "${file.name}"`;
  const cited = file.kind === 'scene' ? file.entries : file.cites;
  if (cited.length === 0) return `${what} cites no entry`;
  const restsOn = new Set(operation.basedOn.map((item) => item.entryId));
  for (const id of cited) {
    if (!taskEntries.has(id)) return `${what} cites ${id}, which is not an approved entry of the task`;
    if (!restsOn.has(id)) return `${what} cites ${id} but does not rest on it (basedOn)`;
  }
  return null;
}

/** A lint finding in an operation's text, as the submission reports it (excerpts masked). */
export interface OperationFinding {
  /** `create scene <name>`, `update doctrine <name>`, …: which operation. */
  operation: string;
  /** `file` (the scene or doctrine file as it would be written) or `reason`. */
  field: 'file' | 'reason';
  line: number;
  column: number;
  rule: string;
  severity: 'block' | 'warn';
  excerpt: string;
  transform?: string;
}

const label = (operation: { op: string; target: ConsolidationTarget; name: string }) =>
  `${operation.op} ${operation.target} ${operation.name}`;

/** The memory lint of what an operation would show or write: its file's text and its reason. */
export function lintOperation(
  operation: ConsolidationOperation,
  lint: (text: string) => readonly MemoryFinding[] = lintMemoryText,
): OperationFinding[] {
  const findings: OperationFinding[] = [];
  const texts: Array<['file' | 'reason', string]> = [['reason', operation.reason]];
  if (operation.newContent !== null) texts.unshift(['file', operation.newContent]);
  for (const [field, text] of texts)
    for (const found of lint(text))
      findings.push({
        operation: label(operation),
        field,
        line: found.line,
        column: found.column,
        rule: found.rule,
        severity: found.severity,
        excerpt: found.excerpt,
        ...(found.transform === undefined ? {} : { transform: found.transform }),
      });
  return findings;
}

/**
 * The operations a patch may keep, and the findings of all of them: an operation with a blocking
 * finding is left out (named in `findings`, its text never kept); warnings are listed and kept.
 */
export function screenOperations(operations: readonly ConsolidationOperation[]): {
  kept: ConsolidationOperation[];
  findings: OperationFinding[];
  blocked: number;
} {
  const kept: ConsolidationOperation[] = [];
  const findings: OperationFinding[] = [];
  let blocked = 0;
  // A patch repeats its reasons (the built-in runner's merges): each text is linted once.
  const seen = new Map<string, readonly MemoryFinding[]>();
  const lintOnce = (text: string) => {
    let found = seen.get(text);
    if (found === undefined) seen.set(text, (found = lintMemoryText(text)));
    return found;
  };
  for (const operation of operations) {
    const found = lintOperation(operation, lintOnce);
    findings.push(...found);
    if (found.some((finding) => finding.severity === 'block')) blocked += 1;
    else kept.push(operation);
  }
  return { kept, findings, blocked };
}
