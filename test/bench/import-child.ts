// The import bench's child (test/bench/import.ts): holds the store as `import` does without a host
// (a local host, its writer on a thread of its own) and imports the Codex rollouts under `root`,
// extraction off; prints the time from the call to its report, the report and the peak RSS.
// Run built by scripts/test-bundle.mjs, as the test files are: plain Node, the build's threads.
import { Host } from '../../source/host/host.js';

const [home, root] = process.argv.slice(2) as [string, string];
const host = await Host.start({ home, serve: false, writerThread: true });
const start = process.hrtime.bigint();
let run = await host.application.captureImportStart({ client: 'codex', root, extract: false });
while (run.state === 'running' || run.state === 'extracting') {
  await new Promise((done) => setTimeout(done, 20));
  run = await host.application.captureImportRun({ importId: run.importId });
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
await host.stop();
if (run.state !== 'done') throw new Error(JSON.stringify(run.error));
process.stdout.write(JSON.stringify({ ms, report: run.report, maxRssKb: process.resourceUsage().maxRSS }));
