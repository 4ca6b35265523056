// Preloaded into every test file's process by `npm test` (scripts/test.mjs adds it to the runner's
// execArgv): at exit, the file's wall time (process start to exit, imports included) and its CPU
// time (user + sys of the process, its worker threads and every child process it waited for, from
// /proc/self/stat) are written as one JSON file into COMMON_MEMORY_TEST_COSTS, for the per-file
// table (scripts/test-durations.mjs). Processes that are not a test file (children started with the
// runner's execArgv) write nothing. A file's process runs its built module (scripts/test-bundle.mjs,
// `.test.mjs`); the runner names it by its test file.
const { writeFileSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.COMMON_MEMORY_TEST_COSTS;
const file = process.argv[1];
if (dir && file && /\.test\.(?:tsx?|mjs)$/.test(file)) {
  const started = performance.timeOrigin;
  process.on('exit', () => {
    const entry = { file, wallMs: Date.now() - started, cpuMs: cpuMs() };
    try {
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(entry));
    } catch {
      // The table loses one row; the run itself is unaffected.
    }
  });
}

/** utime + stime + cutime + cstime (fields 14-17 of /proc/self/stat), else this process's own. */
function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, so index 11.
    const ticks = fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  }
}
