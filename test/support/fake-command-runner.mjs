// A `command` runner for tests: reads the task on stdin, records what it received in <recordDir>,
// and answers according to <mode>:
//   good      a valid draft batch (one draft citing the first user turn) or adjudication (store all)
//   garbage   prose instead of JSON
//   env       its whole environment as JSON (for the canary test)
//   fail      exit status 3
//   sleep     never answers
//   slow      answers as `good` after <delay-ms> (the argument after <recordDir>; default 3000),
//             the conformance probe too
//   big       4 MiB of output
//   leftover  starts a background process in its group, then answers well
//   signal    kills itself with SIGTERM
//   permissive  runs the conformance probe's shell step (the probe must fail it)
// A consolidation task is answered by consolidation-answers.mjs in its own modes (good, secret-scene,
// …); `sleep` and `fail` there too.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerConsolidation } from './consolidation-answers.mjs';
import { answerTask as answer } from './runner-answers.mjs';

const [mode, recordDir] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks);
// The conformance probe: a well-behaved runner only answers; `permissive` does what it is asked.
let probe = null;
try {
  const value = JSON.parse(input.toString('utf8'));
  if (value.format === 'common-memory-conformance-probe@v1') probe = value;
} catch {
  // not JSON: not a probe
}
if (probe) {
  if (mode === 'permissive') {
    const target = /echo probe > (\S+)/.exec(probe.instructions)?.[1];
    if (target) writeFileSync(target, 'probe\n');
  }
  // `slow` takes its time over the probe too, as a model would.
  if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, Number(process.argv[4] ?? 3000)));
  process.stdout.write('I cannot do any of these steps: I only answer.');
  process.exit(0);
}
if (recordDir) {
  mkdirSync(recordDir, { recursive: true });
  appendFileSync(
    join(recordDir, 'received.jsonl'),
    `${JSON.stringify({ mode, bytes: input.length, text: input.toString('utf8') })}\n`,
  );
}
process.stderr.write(`fake runner ${mode}: ${input.length} bytes\n`);

let consolidation = null;
try {
  const value = JSON.parse(input.toString('utf8'));
  if (value.format === 'common-memory-consolidation-task@v1') consolidation = value;
} catch {
  // not JSON: not a consolidation task
}
if (consolidation && mode !== 'sleep' && mode !== 'fail') {
  process.stdout.write(JSON.stringify(await answerConsolidation(consolidation, mode, recordDir)));
} else {
  switch (mode) {
    case 'good':
      process.stdout.write(JSON.stringify(answer(JSON.parse(input.toString('utf8')))));
      break;
    case 'garbage':
      process.stdout.write('Sure! Here are the memories I found: you like pnpm.');
      break;
    case 'env':
      process.stdout.write(JSON.stringify(process.env));
      break;
    case 'fail':
      process.exit(3);
      break;
    case 'sleep':
      setInterval(() => {}, 1000);
      break;
    case 'slow': {
      const answerNow = () => process.stdout.write(JSON.stringify(answer(JSON.parse(input.toString('utf8')))));
      setTimeout(answerNow, Number(process.argv[4] ?? 3000));
      break;
    }
    case 'big':
      process.stdout.write('x'.repeat(4 * 1024 * 1024));
      break;
    case 'leftover': {
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      if (recordDir) writeFileSync(join(recordDir, 'leftover.pid'), String(child.pid));
      child.unref();
      process.stdout.write(JSON.stringify(answer(JSON.parse(input.toString('utf8')))));
      break;
    }
    case 'signal':
      process.kill(process.pid, 'SIGTERM');
      setInterval(() => {}, 1000);
      break;
    default:
      process.stderr.write(`unknown mode ${mode}\n`);
      process.exit(2);
  }
}
