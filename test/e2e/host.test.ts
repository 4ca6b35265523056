import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import type { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import { acquireLease } from '../../source/host/lease.js';
import { HOST_LEASE_LOCAL_WAIT_MS } from '../../source/limits.js';
import { startCli, startHost, stopHost, tempHome, runCli, waitFor } from '../support/cli.js';
import { codeOf } from '../support/results.js';

const statSyncOrNull = (path: string) => statSync(path, { throwIfNoEntry: false }) ?? null;

describe('host', () => {
  it('starts with a store ID, announces itself in the journal, and keeps the store ID across restarts with a new host ID', async () => {
    const home = tempHome('host');
    const first = await Host.start({ home, serve: true });
    const status1 = await first.application.status();
    const journal1 = await first.application.journal({ after: 0, limit: 10 });
    assert.equal(journal1.rows[0]?.kind, 'host.started');
    assert.equal((journal1.rows[0]!.payload as { hostId: string }).hostId, status1.hostId);
    await first.stop();

    const second = await Host.start({ home, serve: true });
    const status2 = await second.application.status();
    assert.equal(status2.storeId, status1.storeId);
    assert.notEqual(status2.hostId, status1.hostId);
    const kinds = (await second.application.journal({ after: 0, limit: 10 })).rows.map((row) => row.kind);
    assert.deepEqual(kinds, ['host.started', 'host.stopped', 'host.started']);
    await second.stop();
  });

  it('a command holding the lease for its own duration appends no host.started/host.stopped', async () => {
    const home = tempHome('local');
    const local = await Host.start({ home, serve: false });
    await local.application.appendNote({ text: 'alone', operationId: 'op-local' });
    await local.stop();
    const again = await Host.start({ home, serve: false });
    const kinds = (await again.application.journal({ after: 0, limit: 10 })).rows.map((row) => row.kind);
    assert.deepEqual(kinds, ['client.note']);
    await again.stop();
  });

  it('a command about to drain starts its drain thread with the store, uses it, and stops it with the store', async () => {
    const home = tempHome('drain-start');
    // Each connection to core.sqlite is a descriptor of this process: the drain thread opens its own reader.
    const core = storeFiles(home).core;
    const connections = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === core;
        } catch {
          return false;
        }
      }).length;
    const plain = await Host.start({ home, serve: false });
    const withoutDrain = connections();
    await plain.stop();
    const host = await Host.start({ home, serve: false, drain: true });
    try {
      await waitFor('the drain thread to open its reader', () =>
        connections() === withoutDrain + 1 ? true : undefined,
      );
      const report = await host.application.sessionDrain({});
      assert.deepEqual(report.isolated, []);
      assert.equal(connections(), withoutDrain + 1, 'the drain call used that thread: no second one');
    } finally {
      await host.stop();
    }
    assert.equal(connections(), 0, 'every connection closed with the store');
    // A command that opened the store to drain and never drained leaves no thread behind: its process ends.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { Host } = await import(${JSON.stringify(new URL('../../source/host/host.ts', import.meta.url).href)}); await (await Host.start({ home: ${JSON.stringify(home)}, serve: false, drain: true })).stop();`,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    assert.equal(child.status, 0, child.stderr);
  });

  it('makes the data home 0700 and its files 0600', async () => {
    const home = tempHome('perm');
    const host = await Host.start({ home, serve: true });
    assert.equal(statSync(home).mode & 0o777, 0o700);
    assert.equal(statSync(storeFiles(home).core).mode & 0o777, 0o600);
    assert.equal(statSync(storeFiles(home).hostInfo).mode & 0o777, 0o600);
    assert.equal(statSync(storeFiles(home).lease).mode & 0o777, 0o600, 'host.lease');
    await host.stop();
  });

  it('refuses a second host on the same data home, in process, without writing', async () => {
    const home = tempHome('lease');
    const host = await Host.start({ home, serve: false });
    const head = (await host.application.status()).heads.journal;
    assert.equal(await codeOf(Host.start({ home, serve: false })), 'store_already_open');
    assert.equal((await host.application.status()).heads.journal, head);
    await host.stop();
  });

  it('refuses a second host process with exit code 4 and a clear message; the first keeps serving', async () => {
    const home = tempHome('lease2');
    const { child, info } = await startHost(home);
    const second = await runCli(['host', '--home', home]);
    assert.equal(second.code, 4);
    assert.match(second.stderr, /Store already open/);
    assert.match(second.stderr, new RegExp(`pid ${info.pid}`));
    const note = await runCli(['note', 'still here', '--json', '--home', home]);
    assert.equal(note.code, 0, note.stderr);
    assert.equal(await stopHost(child), 0);
  });

  it('a host started while a one-shot command holds the lease waits for it, then serves', async () => {
    const home = tempHome('lease-local');
    const local = await Host.start({ home, serve: false });
    const host = startCli(['host', '--json', '--home', home]);
    const exited = new Promise<number | null>((resolve) => host.once('exit', (code) => resolve(code)));
    let stdout = '';
    host.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    // The command's usual lifetime (tens of ms), stretched past the host's start-up so the host surely meets it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await local.stop();
    await waitFor(
      'the host to serve after the command released the lease',
      () => stdout.includes('\n') || undefined,
      15_000,
    );
    assert.equal(JSON.parse(stdout.split('\n')[0]!).pid, host.pid);
    host.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  it('a command started while another one-shot command holds the lease for seconds waits for it, then runs', async () => {
    const home = tempHome('lease-command');
    // An extraction or an import holds the lease for its whole run: seconds on a loaded machine.
    const local = await Host.start({ home, serve: false });
    const second = runCli(['note', 'written after the first command', '--home', home]);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await local.stop();
    const result = await second;
    assert.equal(result.code, 0, result.stderr);
  });

  it('a command that waited out a one-shot holder says to wait for that command, not to use it as a host', async () => {
    const home = tempHome('lease-command-held');
    const local = await Host.start({ home, serve: false });
    try {
      const holder = { hostId: 'h-2', pid: process.pid, processStartedAt: null, role: 'local', startedAt: '' } as const;
      assert.throws(
        () => acquireLease(home, holder, 200),
        (error: CmError) =>
          error.code === 'store_already_open' &&
          /a one-shot common-memory command .* still holds .* after 200 ms\. Nothing was written\. Wait for that command to finish \(or stop it\), then try again\.$/.test(
            error.message,
          ),
      );
    } finally {
      await local.stop();
    }
  });

  it('listens for SIGTERM before it says it is ready: a signal sent on the ready line stops it in order', async () => {
    const home = tempHome('host-ready-signal');
    const preload = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'ready-signal-preload.cjs');
    const host = startCli(['host', '--json', '--home', home], { env: { NODE_OPTIONS: `--require ${preload}` } });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      host.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let stdout = '';
    let stderr = '';
    host.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    host.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await waitFor('the ready line', () => stdout.includes('\n') || undefined, 15_000);
    host.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.match(stderr, /sigterm-listeners-at-first-output=[1-9]/, stderr);
  });

  it("SIGTERM stops a host in order (exit 0) even with execa's signal-exit handler loaded", async () => {
    const home = tempHome('host-sigterm');
    const preload = join(dirname(fileURLToPath(import.meta.url)), '..', 'support', 'signal-exit-preload.cjs');
    const host = startCli(['host', '--json', '--home', home], { env: { NODE_OPTIONS: `--require ${preload}` } });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      host.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let stdout = '';
    host.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    await waitFor('the host to serve', () => stdout.includes('\n') || undefined, 15_000);
    // The preload registers within 20 ms of the host's own listener.
    await new Promise((resolve) => setTimeout(resolve, 200));
    host.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null });
    assert.ok(!statSyncOrNull(storeFiles(home).hostInfo), 'the host removed its info file on the way out');
  });

  it('a host refuses at once a serving host, and names the kind of holder', async () => {
    const home = tempHome('lease-kind');
    const { child } = await startHost(home);
    // A process's own start-up, measured now, is the floor: on a loaded machine it alone can take
    // seconds, so "at once" means well inside the wait a one-shot command's holder would get.
    const floorStarted = Date.now();
    await runCli(['--version']);
    const floorMs = Date.now() - floorStarted;
    const started = Date.now();
    const second = await runCli(['host', '--home', home]);
    assert.equal(second.code, 4);
    const tookMs = Date.now() - started;
    assert.ok(
      // 1.5 s: as tight as when a one-shot holder got 3 s (HOST_LEASE_LOCAL_WAIT_MS is 10 s now).
      tookMs < floorMs + Math.min(1_500, HOST_LEASE_LOCAL_WAIT_MS / 2),
      `waited ${tookMs} ms (floor ${floorMs} ms) for a serving host`,
    );
    assert.match(second.stderr, /a common-memory host \(pid/);
    assert.equal(await stopHost(child), 0);
  });

  it('takes over a lease left by a host killed with SIGKILL', async () => {
    const home = tempHome('stale');
    const { child, info } = await startHost(home);
    await stopHost(child, 'SIGKILL');
    // host.json still names the dead host; the lease itself was released by the kernel.
    assert.equal(JSON.parse(readFileSync(storeFiles(home).hostInfo, 'utf8')).hostId, info.hostId);
    const host = await Host.start({ home, serve: false });
    assert.equal((await host.application.status()).storeId, info.storeId);
    await host.stop();
  });

  it('the API refuses requests without the bearer token and maps errors to HTTP statuses', async () => {
    const home = tempHome('api');
    const host = await Host.start({ home, serve: true });
    const base = `http://127.0.0.1:${host.info.port}`;
    const auth = { authorization: `Bearer ${host.info.token}` };
    assert.equal((await fetch(`${base}/v1/status`)).status, 401);
    assert.equal((await fetch(`${base}/v1/status`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(`${base}/v1/status`, { headers: auth })).status, 200);
    assert.equal((await fetch(`${base}/v1/journal?after=x`, { headers: auth })).status, 400);
    assert.equal((await fetch(`${base}/v1/journal?after=999`, { headers: auth })).status, 400);
    assert.equal(
      (await fetch(`${base}/v1/journal?store=00000000-0000-4000-8000-000000000000`, { headers: auth })).status,
      409,
    );
    const post = (body: unknown) =>
      fetch(`${base}/v1/notes`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    assert.equal((await post({ text: 'hi', operationId: 'op-1' })).status, 201);
    assert.equal((await post({ text: 'hi', operationId: 'op-1' })).status, 200);
    assert.equal((await post({ text: 'changed', operationId: 'op-1' })).status, 409);
    assert.equal((await post({ nope: 1 })).status, 400);
    assert.equal(
      (await fetch(`${base}/v1/rpc`, { method: 'POST', headers: auth })).status,
      404,
      'no route forwards arbitrary JSON',
    );
    await host.stop();
  });
});
