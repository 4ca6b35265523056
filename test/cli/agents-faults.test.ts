// Driven agents, seed 003 B3 drills that need a real `common-memory host` process: kill -9 of the
// host at the four commit boundaries of a prompt (drill 1), a storage failure during ingestion
// (drill 3), a second host while agents run (drill 7), and the CLI's errors for a missing pi and
// for prompts to stopped or unknown agents. The host's pi is the fake-pi double; faults are
// injected with COMMON_MEMORY_FAULTS at named writer commit boundaries. Doctor runs after each.
// The CLI's calls to a running host (or a read-only store) are made in-process
// (support/cli-in-process.ts); the second host is a real process. The bin's exit codes themselves
// are e2e/exit-codes.test.ts.
// Needs the build: npm run build
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JournalRow, OperationView } from '../../source/api/history.js';
import type { PromptReceipt } from '../../source/api/agents.js';
import {
  assertIntent,
  assertProvenance,
  childHost,
  doctorCli,
  ended,
  exited,
  generationState,
  HELLO,
  journal,
  piEnv,
  SIMPLE,
  SIMPLE_LINES,
  stopHost,
  timeline,
} from '../support/agents-drill-kit.js';
import { runCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import type { FakePiScript } from '../support/fake-pi.js';
import { codeOf } from '../support/results.js';

const TIMEOUT = { timeout: 90_000 };

/** Settlement after agent_end goes through the grace timer (the fake does not answer the barrier), i.e. through the settlePrompt command. */
const GRACE_SETTLED: FakePiScript = {
  onPrompt: { replay: SIMPLE, maxLines: SIMPLE_LINES.throughAgentEnd },
  answerCommands: false,
};

interface Boundary {
  name: string;
  fault: string;
  /** Whether the prompt call itself sees the host die (the kill lands before its reply). */
  killsDuringPrompt: boolean;
  expect: { state: string; outcome: string | null; roles: string[]; previousState?: string };
}

// The four boundaries of seed 003 B3.1, mapped onto writer commands:
//   ① after admission, before attempted: admitPrompt committed, the host dies before markAttempted.
//   ② after attempted, before accepted: markAttempted committed, not one byte reached pi.
//   ③ after a message_end commit, before settled: the answer's raw row and canonical row are in; the settle transaction is cut.
//   ④ after settled, before finish: the settle transaction committed; the host dies before anything else.
const BOUNDARIES: Boundary[] = [
  {
    name: '① after admit, before attempted',
    fault: 'admitPrompt.afterCommit=kill',
    killsDuringPrompt: true,
    expect: { state: 'interrupted', outcome: 'interrupted', roles: ['user'], previousState: 'prepared' },
  },
  {
    name: '② after attempted, before accepted',
    fault: 'markAttempted.afterCommit=kill',
    killsDuringPrompt: true,
    expect: { state: 'interrupted', outcome: 'interrupted', roles: ['user'], previousState: 'attempted' },
  },
  {
    name: '③ after a message_end commit, before settled',
    fault: 'settlePrompt.beforeCommit=kill',
    killsDuringPrompt: false,
    expect: { state: 'interrupted', outcome: 'interrupted', roles: ['user', 'assistant'], previousState: 'accepted' },
  },
  {
    name: '④ after settled, before finish',
    fault: 'settlePrompt.afterCommit=kill',
    killsDuringPrompt: false,
    expect: { state: 'settled', outcome: 'answered', roles: ['user', 'assistant'] },
  },
];

function noInventedAnswer(rows: { role: string; sourceJournalSequence: number }[], journalRows: JournalRow[]): void {
  // Every assistant row is a pi message_end the child really wrote (a raw row with a wire identity).
  for (const row of rows.filter((r) => r.role !== 'user')) {
    const source = journalRows.find((j) => j.sequence === row.sourceJournalSequence)!;
    assert.equal(source.kind, 'pi.message_end');
    assert.equal(source.wireStream, 'stdout');
    assert.ok(source.wireOrdinal! > 0);
  }
}

describe('B3.1 kill -9 of the host at the four commit boundaries of a prompt', TIMEOUT, () => {
  for (const boundary of BOUNDARIES) {
    it(boundary.name, async () => {
      const home = tempHome('b31');
      const first = await childHost(home, { ...piEnv(GRACE_SETTLED), COMMON_MEMORY_FAULTS: boundary.fault });
      await first.api.createAgent({ name: 'a' });
      await first.api.startAgent({ agent: 'a' });
      let original: PromptReceipt | undefined;
      if (boundary.killsDuringPrompt) {
        // The reply is lost with the host: the client cannot know whether anything was committed.
        assert.equal(
          await codeOf(first.api.prompt({ agent: 'a', text: HELLO, operationId: 'op-1' })),
          'host_unreachable',
        );
      } else {
        original = await first.api.prompt({ agent: 'a', text: HELLO, operationId: 'op-1' });
      }
      const death = await exited(first.child);
      assert.equal(death.signal, 'SIGKILL', 'the injected fault killed the whole host');
      // What the dead host left, read without any host (a read-only connection).
      const left = JSON.parse((await runCliInProcess(['log', '--json', '--home', home])).stdout).rows as JournalRow[];
      const leftTimeline = JSON.parse((await runCliInProcess(['timeline', '--json', '--home', home])).stdout)
        .rows as unknown[];

      const second = await childHost(home, piEnv(GRACE_SETTLED));
      try {
        const api = second.api;
        const op = await api.operation({ operationId: 'op-1' });
        assert.equal(op.state, boundary.expect.state);
        assert.equal(op.outcome, boundary.expect.outcome);
        const journalRows = await journal(api);
        const rows = await timeline(api);
        // Start-up replays nothing and rebuilds nothing: the old rows as they were, then only reconciliation and host.started.
        assert.deepEqual(journalRows.slice(0, left.length), left);
        assert.deepEqual(rows, leftTimeline);
        const added = journalRows.slice(left.length).map((row) => row.kind);
        assert.deepEqual(
          added.filter((kind) => !['prompt.interrupted', 'generation.interrupted'].includes(kind)),
          ['host.started'],
        );
        assert.deepEqual(
          rows.map((row) => row.role),
          boundary.expect.roles,
          'the user row is there; an answer only if pi really wrote one',
        );
        assert.equal(rows[0]!.messageId, op.userMessageId);
        noInventedAnswer(rows, journalRows);
        assertProvenance(journalRows, rows);
        assertIntent(journalRows, op);
        if (boundary.expect.previousState) {
          const interrupted = journalRows.filter(
            (row) => row.kind === 'prompt.interrupted' && row.operationId === 'op-1',
          );
          assert.equal(interrupted.length, 1);
          assert.deepEqual(
            (interrupted[0]!.payload as { previousState: string }).previousState,
            boundary.expect.previousState,
          );
          assert.match((interrupted[0]!.payload as { reason: string }).reason, /host restarted/);
        }
        if (boundary.expect.state === 'settled') {
          assert.ok(
            !journalRows.some((row) => row.kind === 'prompt.interrupted'),
            'a committed final transition is kept, not overwritten',
          );
        }
        if (boundary.name.startsWith('②')) {
          assert.ok(
            !journalRows.some((row) => row.wireStream !== null),
            'pi never got the prompt, so nothing came back',
          );
        }
        const generation = (await api.listAgents())[0]!.generation!;
        assert.equal(generation.state, 'interrupted', 'the orphaned generation was reconciled at start-up');
        assert.equal(generation.number, 1);

        // Replaying the operation ID returns the original admission receipt, creates nothing, resends nothing.
        const replay = await api.prompt({ agent: 'a', text: HELLO, operationId: 'op-1' });
        const expected = {
          storeId: (await api.status()).storeId,
          operationId: 'op-1',
          sequence: op.journalSequence,
          replayed: true,
          messageId: op.userMessageId!,
        };
        assert.deepEqual(replay, expected);
        if (original) assert.deepEqual(replay, { ...original, replayed: true });
        const viaCli = await runCliInProcess([
          'prompt',
          'a',
          HELLO,
          '--operation-id',
          'op-1',
          '--json',
          '--home',
          home,
        ]);
        assert.equal(viaCli.code, 0, viaCli.stderr);
        assert.deepEqual(JSON.parse(viaCli.stdout), expected);
        const conflict = await runCliInProcess([
          'prompt',
          'a',
          'something else',
          '--operation-id',
          'op-1',
          '--home',
          home,
        ]);
        assert.equal(conflict.code, 5, 'the same ID with other content is a conflict');
        assert.deepEqual(await timeline(api), rows, 'a replay adds no timeline row');
        const after = await journal(api);
        assert.equal(after.length, journalRows.length, 'a replay adds no journal row');
        assert.deepEqual((await api.operation({ operationId: 'op-1' })) satisfies OperationView, op);
        await doctorCli(home);
      } finally {
        await stopHost(second.child);
      }
      await doctorCli(home);
    });
  }
});

describe('B3.3 a storage failure while ingesting pi records', TIMEOUT, () => {
  it('a clear error, nothing half-committed, the generation stops, doctor passes', async () => {
    const home = tempHome('b33');
    const { child, api } = await childHost(home, {
      ...piEnv({ onPrompt: { replay: SIMPLE } }),
      COMMON_MEMORY_FAULTS: 'ingestPiRecord.beforeCommit=throw',
    });
    try {
      const agent = await api.createAgent({ name: 'a' });
      await api.startAgent({ agent: 'a' });
      const receipt = await api.prompt({ agent: 'a', text: HELLO, operationId: 'op-store' });
      const op = await ended(api, 'op-store');
      assert.equal(
        op.state,
        'interrupted',
        'the prompt whose evidence could not be stored is interrupted, never answered',
      );
      await generationState(api, 'a', ['interrupted']);
      const rows = await journal(api, agent.agentId);
      assert.ok(
        !rows.some((row) => row.wireOrdinal !== null),
        'no pi record is half-stored: every ingest rolled back whole',
      );
      const stopping = rows.find((row) => row.kind === 'generation.stopping');
      assert.match(
        (stopping!.payload as { reason: string }).reason,
        /storing a pi record failed: Injected storage fault at ingestPiRecord\.beforeCommit; nothing was committed/,
      );
      const retired = rows.find((row) => row.kind === 'generation.interrupted');
      assert.match((retired!.payload as { reason: string }).reason, /storing a pi record failed/);
      assert.deepEqual(
        (await timeline(api)).map((row) => row.messageId),
        [receipt.messageId],
        'only the admitted user row',
      );
      // The host itself keeps working: a note still commits.
      assert.equal((await api.appendNote({ text: 'still here', operationId: 'n-1' })).replayed, false);
      // The agent list says why the generation ended.
      const listed = await runCliInProcess(['agent', 'list', '--home', home]);
      assert.match(listed.stdout, /storing a pi record failed/);
      await doctorCli(home);
    } finally {
      await stopHost(child);
    }
    await doctorCli(home);
  });
});

describe('B3.3 a storage failure while committing the settlement', TIMEOUT, () => {
  it('the settlement is not claimed, the prompt ends interrupted, the host keeps serving and the agent starts again', async () => {
    const home = tempHome('b33s');
    const { child, api } = await childHost(home, {
      ...piEnv(GRACE_SETTLED),
      COMMON_MEMORY_FAULTS: 'settlePrompt.beforeCommit=throw',
    });
    try {
      const agent = await api.createAgent({ name: 'a' });
      await api.startAgent({ agent: 'a' });
      await api.prompt({ agent: 'a', text: HELLO, operationId: 'op-settle' });
      const op = await ended(api, 'op-settle');
      assert.equal(op.state, 'interrupted', 'a settlement that could not be stored is not claimed');
      assert.equal(op.outcome, 'interrupted');
      await generationState(api, 'a', ['interrupted']);
      const rows = await journal(api, agent.agentId);
      assert.ok(!rows.some((row) => row.kind === 'prompt.settled'));
      assert.match(
        JSON.stringify(rows.find((row) => row.kind === 'generation.stopping')?.payload),
        /settlement.*Injected storage fault at settlePrompt\.beforeCommit/,
      );
      // The evidence that was stored stays: the answer pi wrote is a canonical row.
      assert.deepEqual(
        (await timeline(api)).map((row) => row.role),
        ['user', 'assistant'],
      );
      // The agents runtime survived the failure: the agent starts again as generation 2.
      const again = await api.startAgent({ agent: 'a' });
      assert.equal(again.generation!.number, 2);
      assert.equal(again.generation!.state, 'running');
      await doctorCli(home);
    } finally {
      await stopHost(child);
    }
    await doctorCli(home);
  });
});

describe('B3.3 a storage failure while retiring a generation', TIMEOUT, () => {
  it('stop reports the failure; the agents runtime keeps serving other agents; a restart reconciles the generation', async () => {
    const home = tempHome('b33r');
    const env = piEnv({ onPrompt: { replay: SIMPLE } });
    const first = await childHost(home, { ...env, COMMON_MEMORY_FAULTS: 'retireGeneration.beforeCommit=throw' });
    try {
      await first.api.createAgent({ name: 'a' });
      await first.api.createAgent({ name: 'b' });
      await first.api.startAgent({ agent: 'a' });
      const stop = await runCliInProcess(['agent', 'stop', 'a', '--home', home]);
      assert.equal(stop.code, 7, stop.stderr);
      assert.match(stop.stderr, /Injected storage fault at retireGeneration\.beforeCommit/);
      assert.equal(
        (await first.api.listAgents()).find((a) => a.name === 'a')!.generation!.state,
        'stopping',
        'the final state was not stored, and is not pretended',
      );
      // The runtime is still there for other agents.
      const b = await first.api.startAgent({ agent: 'b' });
      assert.equal(b.generation!.state, 'running');
      await first.api.prompt({ agent: 'b', text: HELLO, operationId: 'op-b' });
      assert.equal((await ended(first.api, 'op-b')).outcome, 'answered');
      await doctorCli(home);
    } finally {
      // The host's own shutdown cannot retire b either; kill it, as a power cut would.
      first.child.kill('SIGKILL');
      await exited(first.child);
    }
    const second = await childHost(home, env);
    try {
      const agents = await second.api.listAgents();
      assert.deepEqual(
        agents.map((a) => [a.name, a.generation!.state]),
        [
          ['a', 'interrupted'],
          ['b', 'interrupted'],
        ],
      );
      assert.equal((await second.api.startAgent({ agent: 'a' })).generation!.number, 2);
    } finally {
      await stopHost(second.child);
    }
    await doctorCli(home);
  });
});

describe('B3.7 a second host while agents run', TIMEOUT, () => {
  it('exits with code 4 and a clear lease error, touches nothing, and the first host keeps driving its agent', async () => {
    const home = tempHome('b37');
    const { child, api } = await childHost(home, piEnv({ onPrompt: { replay: SIMPLE } }));
    try {
      await api.createAgent({ name: 'a' });
      const started = await api.startAgent({ agent: 'a' });
      const before = await api.status();
      const second = await runCli(['host', '--home', home]);
      assert.equal(second.code, 4);
      assert.match(second.stderr, /Store already open/);
      assert.deepEqual((await api.status()).heads, before.heads, 'the second host wrote nothing');
      const agents = await api.listAgents();
      assert.equal(agents[0]!.generation!.state, 'running');
      assert.equal(agents[0]!.generation!.generationId, started.generation!.generationId);
      await api.prompt({ agent: 'a', text: HELLO, operationId: 'op-after' });
      assert.equal((await ended(api, 'op-after')).outcome, 'answered');
      await doctorCli(home);
    } finally {
      await stopHost(child);
    }
    await doctorCli(home);
  });
});

describe('bad input through the CLI', TIMEOUT, () => {
  it('a missing pi binary: a clear error at agent start, the generation recorded interrupted', async () => {
    const home = tempHome('nopi');
    const { child } = await childHost(home, {
      COMMON_MEMORY_PI_COMMAND: JSON.stringify({ command: '/nonexistent/bin/pi', args: [] }),
    });
    try {
      assert.equal((await runCliInProcess(['agent', 'create', 'a', '--home', home])).code, 0);
      const start = await runCliInProcess(['agent', 'start', 'a', '--home', home]);
      assert.equal(start.code, 1);
      assert.match(start.stderr, /Could not start pi \(\/nonexistent\/bin\/pi\).*COMMON_MEMORY_PI_COMMAND/s);
      const list = JSON.parse((await runCliInProcess(['agent', 'list', '--json', '--home', home])).stdout) as {
        generation: { state: string; number: number };
      }[];
      assert.deepEqual(
        list.map((a) => [a.generation.number, a.generation.state]),
        [[1, 'interrupted']],
      );
      const log = JSON.parse((await runCliInProcess(['log', '--json', '--home', home])).stdout).rows as JournalRow[];
      const retired = log.find((row) => row.kind === 'generation.interrupted');
      assert.match((retired!.payload as { reason: string }).reason, /pi could not start/);
      const prompt = await runCliInProcess(['prompt', 'a', 'hello', '--home', home]);
      assert.equal(prompt.code, 13, 'not running');
      assert.match(prompt.stderr, /not running/);
      await doctorCli(home);
    } finally {
      await stopHost(child);
    }
  });

  it('a prompt to an unknown or a stopped agent, and stop/abort of one: clear errors with their exit codes, nothing written', async () => {
    const home = tempHome('stopped');
    const { child, api } = await childHost(home, piEnv({ onPrompt: { replay: SIMPLE } }));
    try {
      await api.createAgent({ name: 'idle' });
      await api.startAgent({ agent: 'idle' });
      await api.stopAgent({ agent: 'idle' });
      const heads = (await api.status()).heads;
      const unknown = await runCliInProcess(['prompt', 'ghost', 'hello', '--home', home]);
      assert.equal(unknown.code, 6, unknown.stderr);
      assert.match(unknown.stderr, /No agent named "ghost"/);
      const stopped = await runCliInProcess([
        'prompt',
        'idle',
        'hello',
        '--operation-id',
        'op-stopped',
        '--home',
        home,
      ]);
      assert.equal(stopped.code, 13, stopped.stderr);
      assert.match(stopped.stderr, /idle is not running.*agent start idle/s);
      assert.equal((await runCliInProcess(['agent', 'stop', 'ghost', '--home', home])).code, 6);
      assert.equal((await runCliInProcess(['abort', 'ghost', '--home', home])).code, 6);
      const stopAgain = await runCliInProcess(['agent', 'stop', 'idle', '--home', home]);
      assert.equal(stopAgain.code, 13);
      assert.match(stopAgain.stderr, /not running/);
      assert.equal((await runCliInProcess(['abort', 'idle', '--home', home])).code, 13);
      assert.deepEqual((await api.status()).heads, heads, 'refused requests write nothing');
      assert.equal(
        (await runCliInProcess(['operation', 'op-stopped', '--home', home])).code,
        6,
        'no operation was created',
      );
      await doctorCli(home);
    } finally {
      await stopHost(child);
    }
  });
});
