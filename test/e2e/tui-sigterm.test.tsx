// SIGTERM to the TUI in a real terminal (a pty from `script`): the terminal is restored, the host
// stops in order (host.json removed) and the process exits 0 — not 143, which is what a signal-exit
// copy re-raising the signal (Ink, restore-cursor and execa each load one) would produce.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { tempHome, waitFor } from '../support/cli.js';
import { spawnInTerminal, terminalEnv } from '../support/terminal.js';

const DEV_TUI = fileURLToPath(new URL('../support/dev-tui.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Whether the TUI's host serves (host.json says "starting" from the moment it holds the lease). */
function hostReady(home: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(home, 'host.json'), 'utf8')) as { state?: string }).state === 'ready';
  } catch {
    return false;
  }
}

async function runAndTerminate(signals: number): Promise<{ code: number | null; output: string; home: string }> {
  const home = tempHome('tui-sigterm');
  const child = spawnInTerminal(['node', '--import', 'tsx', DEV_TUI, '--home', home], terminalEnv(), ROOT);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitFor(
      'the first frame',
      () => (output.includes('Dashboard') && hostReady(home) ? true : undefined),
      30_000,
    );
    const { pid } = JSON.parse(readFileSync(join(home, 'host.json'), 'utf8')) as { pid: number };
    for (let index = 0; index < signals; index++) process.kill(pid, 'SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit after SIGTERM; output:\n${output.slice(-2000)}`)), 30_000),
      ),
    ]);
    return { code, output, home };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('SIGTERM in a real terminal', { timeout: 120_000 }, () => {
  for (const signals of [1, 2]) {
    test(`${signals === 1 ? 'one SIGTERM' : 'two SIGTERMs back to back'}: exit 0, terminal restored, host stopped`, async () => {
      const { code, output, home } = await runAndTerminate(signals);
      try {
        assert.equal(code, 0, `exit status; output tail:\n${output.slice(-500)}`);
        assert.ok(output.includes('\u001B[?1049l'), 'the alternate screen was left');
        // Bracketed paste was asked for, and turned off again after the last time it was.
        assert.ok(output.includes('\u001B[?2004h'), 'bracketed paste was turned on');
        assert.ok(output.lastIndexOf('\u001B[?2004l') > output.lastIndexOf('\u001B[?2004h'), 'and off at the end');
        assert.ok(!existsSync(join(home, 'host.json')), 'the host removed host.json on its way out');
      } finally {
        await rm(dirname(home), { recursive: true, force: true });
      }
    });
  }
});
