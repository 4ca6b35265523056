// A small line diff in unified format, for showing a config change before it is written
// (`install --dry-run`, the TUI Integrations screen). Config files are small and our edits are
// local, so common prefix/suffix trimming plus an LCS over the rest is enough; a huge middle
// falls back to "all removed, all added", which is still a correct (if blunt) diff.

const CONTEXT_LINES = 3;
/** Cells of the LCS table; beyond this the middle is shown as replaced wholesale. */
const LCS_MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Splits into lines without their terminators; a final terminator adds no empty line. */
function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  ops.push(...a.slice(endA).map((line): Op => ({ kind: ' ', line })));
  return ops;
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > LCS_MAX_CELLS) {
    return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  }
  // lengths[i][j] = LCS of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++]! });
  while (j < m) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

/**
 * `--- fromLabel` / `+++ toLabel` and `@@` hunks with three lines of context; "" when the texts
 * have the same lines.
 */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  if (changed.length === 0) return '';
  // Group changes whose context windows touch into one hunk.
  const hunks: Array<[number, number]> = [];
  for (const index of changed) {
    const last = hunks[hunks.length - 1];
    const from = Math.max(0, index - CONTEXT_LINES);
    const to = Math.min(ops.length, index + CONTEXT_LINES + 1);
    if (last && from <= last[1]) last[1] = to;
    else hunks.push([from, to]);
  }
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  // Line numbers of each op's position in the old and new text.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops) {
    oldAt.push(oldLine);
    newAt.push(newLine);
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  for (const [from, to] of hunks) {
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    // Unified diff convention: an empty side is numbered by the line before it.
    const oldStart = oldCount === 0 ? oldAt[from]! - 1 : oldAt[from]!;
    const newStart = newCount === 0 ? newAt[from]! - 1 : newAt[from]!;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
  }
  return `${out.join('\n')}\n`;
}
