// A second reporter for `npm test`: what each test file cost, slowest first, so the suite's time
// can be seen and kept down. A file's time is the wall time from the end of the previous file's
// last event to its own last event as the runner receives them (process start, imports and
// tests); with files run concurrently the spans overlap, so read them as costs, not a timeline.
export default async function* fileDurations(source) {
  const files = new Map();
  let previous = performance.now();
  for await (const event of source) {
    // Only results: the runner announces (enqueues) every file up front.
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const file = event.data.file;
    if (!file) continue;
    const now = performance.now();
    const entry = files.get(file) ?? { start: previous, end: now, failed: 0 };
    entry.end = now;
    if (event.type === 'test:fail' && event.data.nesting === 0) entry.failed += 1;
    files.set(file, entry);
    previous = now;
  }
  const rows = [...files]
    .map(([file, entry]) => ({ file: file.replace(`${process.cwd()}/`, ''), ms: entry.end - entry.start, ...entry }))
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  let out = `\n# per-file time (s), slowest first; ${rows.length} files, ${(total / 1000).toFixed(0)} s in all\n`;
  for (const row of rows)
    out += `# ${(row.ms / 1000).toFixed(1).padStart(7)}  ${row.file}${row.failed > 0 ? `  (${row.failed} failed)` : ''}\n`;
  yield out;
}
