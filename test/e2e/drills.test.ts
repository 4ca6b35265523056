// Fault drills (seed 003 B3 for the foundation): kill -9 during a stream of notes, failures at each
// commit boundary, a lost reply followed by a retry. Each checks that nothing acknowledged is lost,
// nothing is duplicated, nothing unasked-for appears, and doctor passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiClient } from '../../source/client/api-client.js';
import type { JournalRow } from '../../source/api/history.js';
import { runCli, startHost, stopHost, tempHome, waitFor } from '../support/cli.js';

async function readAll(home: string): Promise<JournalRow[]> {
  const result = await runCli(['log', '--json', '--home', home]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout).rows as JournalRow[];
}

async function doctorPasses(home: string): Promise<void> {
  const doctor = await runCli(['doctor', '--json', '--home', home]);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  assert.equal(JSON.parse(doctor.stdout).consistent, true);
}

describe('drills', () => {
  it('kill -9 of the host during a stream of notes: every acknowledged note exactly once, nothing else', async () => {
    const home = tempHome('kill');
    const { child, info } = await startHost(home);
    const hostInfo = JSON.parse((await import('node:fs')).readFileSync(`${home}/host.json`, 'utf8'));
    const client = apiClient(info.port, hostInfo.token);
    const sent: string[] = [];
    const acknowledged = new Map<string, number>();
    let killed = false;
    // Four writers in parallel so the kill lands while requests are in flight.
    const writer = async (lane: number) => {
      for (let i = 0; !killed; i++) {
        const operationId = `lane${lane}-${i}`;
        sent.push(operationId);
        try {
          const receipt = await client.appendNote({ text: `note ${operationId}`, operationId });
          acknowledged.set(operationId, receipt.sequence);
        } catch {
          return;
        }
      }
    };
    const lanes = [0, 1, 2, 3].map(writer);
    let lanesEnded = false;
    void Promise.all(lanes).then(() => (lanesEnded = true));
    await waitFor(
      '200 acknowledged notes before the kill',
      () => {
        assert.ok(
          !lanesEnded || killed,
          `every writer stopped before the kill, after ${acknowledged.size} acknowledged notes`,
        );
        return acknowledged.size >= 200 ? true : undefined;
      },
      60_000,
    );
    child.kill('SIGKILL');
    killed = true;
    await Promise.all(lanes);
    await stopHost(child);

    const notes = (await readAll(home)).filter((row) => row.kind === 'client.note');
    const seen = new Map<string, number>();
    for (const row of notes) {
      assert.ok(!seen.has(row.operationId!), `duplicate note ${row.operationId}`);
      seen.set(row.operationId!, row.sequence);
      assert.ok(sent.includes(row.operationId!), `a note nobody sent: ${row.operationId}`);
    }
    for (const [operationId, sequence] of acknowledged)
      assert.equal(seen.get(operationId), sequence, `acknowledged ${operationId} at ${sequence}`);
    assert.ok(seen.size - acknowledged.size <= 4, 'at most the in-flight notes were committed unacknowledged');
    await doctorPasses(home);

    // A retry of every unacknowledged operation, with the same ID, either replays or writes it once.
    for (const operationId of sent.filter((id) => !acknowledged.has(id))) {
      const retry = JSON.parse(
        (await runCli(['note', `note ${operationId}`, '--operation-id', operationId, '--json', '--home', home])).stdout,
      );
      assert.equal(retry.replayed, seen.has(operationId));
    }
    await doctorPasses(home);
  });

  it('a storage failure just before commit: a clear error, nothing written, the store stays consistent', async () => {
    const home = tempHome('fault');
    const { child } = await startHost(home, { COMMON_MEMORY_FAULTS: 'appendNote.beforeCommit=throw' });
    const before = (await readAll(home)).length;
    const result = await runCli(['note', 'doomed', '--home', home]);
    assert.equal(result.code, 7);
    assert.match(result.stderr, /nothing was committed/);
    const after = await readAll(home);
    assert.equal(after.length, before);
    assert.ok(!after.some((row) => row.kind === 'client.note'));
    await stopHost(child);
    await doctorPasses(home);
  });

  it('the host dies right after the commit: the reply is lost, the retry with the same operation ID gets the original receipt', async () => {
    const home = tempHome('lost-reply');
    const { child } = await startHost(home, { COMMON_MEMORY_FAULTS: 'appendNote.afterCommit=kill' });
    const result = await runCli(['note', 'committed then lost', '--operation-id', 'op-lost', '--json', '--home', home]);
    await stopHost(child);
    assert.equal(result.code, 0, result.stderr);
    const receipt = JSON.parse(result.stdout);
    assert.equal(receipt.replayed, true, 'the CLI retried after the lost reply and got the committed receipt');
    const notes = (await readAll(home)).filter((row) => row.kind === 'client.note');
    assert.deepEqual(
      notes.map((row) => [row.operationId, row.sequence]),
      [['op-lost', receipt.sequence]],
    );
    await doctorPasses(home);
  });
});
