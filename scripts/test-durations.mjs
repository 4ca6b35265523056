// A second reporter for `npm test`: what each test file cost, slowest first, so the suite's time
// can be seen and kept down. Each row is the file's wall time (its process's start to its exit,
// imports included) and its CPU time (user + sys of the process, its worker threads and the child
// processes it waited for), as the file's own process measured them (scripts/test-cost.cjs). With
// files run side by side the wall times overlap and stretch each other: read CPU as the steadier
// cost on a shared machine. A file whose process wrote no figures (killed, or run without the
// preload) falls back to the span between the runner's receipt of its first and last results.
export default function fileDurations(readCosts) {
  return async function* durations(source) {
    const files = new Map();
    for await (const event of source) {
      // Only results: the runner announces (enqueues) every file up front.
      if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
      const file = event.data.file;
      if (!file) continue;
      const now = performance.now();
      const entry = files.get(file) ?? { first: now, last: now, failed: 0 };
      entry.last = now;
      if (event.type === 'test:fail' && event.data.nesting === 0) entry.failed += 1;
      files.set(file, entry);
    }
    const costs = readCosts();
    const rows = [...new Set([...files.keys(), ...costs.keys()])]
      .map((file) => {
        const seen = files.get(file);
        const cost = costs.get(file);
        return {
          file: file.replace(`${process.cwd()}/`, ''),
          wallMs: cost?.wallMs ?? (seen ? seen.last - seen.first : 0),
          cpuMs: cost?.cpuMs,
          failed: seen?.failed ?? 0,
        };
      })
      .sort((a, b) => b.wallMs - a.wallMs);
    const sum = (key) => rows.reduce((total, row) => total + (row[key] ?? 0), 0) / 1000;
    let out = `\n# per-file wall and CPU time (s), slowest first; ${rows.length} files, ${sum('wallMs').toFixed(0)} s wall, ${sum('cpuMs').toFixed(0)} s CPU in all\n`;
    out += `#    wall      cpu  file\n`;
    for (const row of rows) {
      const cpu = row.cpuMs === undefined ? '      ?' : (row.cpuMs / 1000).toFixed(1).padStart(7);
      out += `# ${(row.wallMs / 1000).toFixed(1).padStart(7)}  ${cpu}  ${row.file}${row.failed > 0 ? `  (${row.failed} failed)` : ''}\n`;
    }
    yield out;
  };
}
