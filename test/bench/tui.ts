// TUI figures (PRODUCT.md Targets): the shipped `common-memory` in a real terminal (a pty from
// `script`, 80×24, no CI markers), from the process start to the first frame (the Dashboard drawn)
// and to the first frame with the in-process host's data; then `q`. Beside it, the floor: bare
// `node` started the same way until its first byte.
import { mkdirSync } from 'node:fs';
import { BIN, tempHome } from '../support/cli.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';
import { type Figure, median, report } from './measure.js';

/** Milliseconds from spawn until each marker first appears in the terminal's output. */
function timeToMarkers(command: string[], env: NodeJS.ProcessEnv, markers: string[], quit: string | null): Promise<number[]> {
  const start = process.hrtime.bigint();
  const child = spawnInTerminal(command, env);
  const seen: number[] = [];
  let output = '';
  let quitting = false;
  child.stdin.on('error', () => undefined); // the TUI may be gone by the time a key arrives
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`markers not seen: ${markers.slice(seen.length).join(', ')}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      while (seen.length < markers.length && output.includes(markers[seen.length]!)) seen.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (seen.length === markers.length && quit !== null && !quitting) {
        quitting = true;
        child.stdin.write(quit);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (seen.length === markers.length) resolve(seen);
      else reject(new Error(`exited before ${markers.slice(seen.length).join(', ')}`));
    });
  });
}

export async function runTuiBench(): Promise<void> {
  const home = tempHome('bench-tui');
  mkdirSync(home, { recursive: true });
  const env = terminalEnv({ COMMON_MEMORY_HOME: home });
  await timeToMarkers([process.execPath, BIN], env, ['Dashboard', 'mode host'], 'q'); // creates the store once
  const frame: number[] = [];
  const data: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 7; i++) {
    const [first, withData] = await timeToMarkers([process.execPath, BIN], env, ['Dashboard', 'mode host'], 'q');
    frame.push(first!);
    data.push(withData!);
    floor.push((await timeToMarkers([process.execPath, '-e', 'process.stdout.write("ready")'], env, ['ready'], null))[0]!);
  }
  const figures: Figure[] = [
    { name: 'TUI first frame, in-process host starting (median of 7)', value: `${median(frame).toFixed(0)} ms`, floor: `${median(floor).toFixed(0)} ms bare node, first byte`, ratio: median(frame) / median(floor), target: '<= 500 ms', met: median(frame) <= 500 },
    { name: 'TUI first frame with the host\'s data (median of 7)', value: `${median(data).toFixed(0)} ms`, target: 'reported', met: true },
  ];
  report(figures);
}
