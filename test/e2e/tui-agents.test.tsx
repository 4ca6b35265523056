// The Agents screen over a real host: the real pi 0.73.1 against the fake OpenAI-compatible server
// on loopback (as in agents-live.test.ts), driven only by keys; frames asserted as plain text.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import type { Application } from '../../source/api/application.js';
import { tempHome, waitFor } from '../support/cli.js';
import {
  replyGate,
  scripted,
  startFakeOpenAiServer,
  textReply,
  type FakeReply,
  type FakeOpenAiServer,
} from '../support/fake-openai-server.js';
import { makePiAgentDir } from '../support/pi-agent-dir.js';
import {
  KEY,
  mount,
  press,
  type,
  unmount,
  waitForFrame,
  waitForText,
  withOverrides,
  type View,
} from '../support/tui-harness.js';

async function withHost(
  serve: boolean,
  replies: FakeReply[],
  run: (context: { host: Host; home: string; piConfig: string; server: FakeOpenAiServer }) => Promise<void>,
): Promise<void> {
  const server = await startFakeOpenAiServer({ responder: scripted(replies) });
  const config = makePiAgentDir({ baseUrl: server.baseUrl });
  const home = tempHome('tui-agents');
  const host = await Host.start({ home, serve });
  try {
    await run({ host, home, piConfig: config.dir, server });
  } finally {
    await host.stop();
    await server.close();
    config.cleanup();
    await rm(dirname(home), { recursive: true, force: true });
  }
}

async function openAgents(view: View): Promise<void> {
  await press(view, '3');
  await waitForText(view, /\[3 Agents\]/);
}

/** Fills the form field by field (Tab moves on) and submits it. */
async function createAgent(view: View, fields: [string, string?, string?]): Promise<void> {
  await press(view, 'c');
  await waitForText(view, 'New agent');
  await type(view, fields[0]);
  for (const value of fields.slice(1)) {
    await press(view, KEY.tab);
    await type(view, value ?? '');
  }
  await press(view, KEY.enter);
}

describe('Agents screen with the real pi', { timeout: 240_000 }, () => {
  test('create → start → prompt → the answer in the timeline; a second prompt is busy, its retry keeps the operation ID; journal; abort; stop', async () => {
    // The first answer holds after its first words until the second prompt was refused on screen.
    const first = replyGate();
    const replies = [
      { ...textReply('Hello from the fake model', 6), hold: first.hold },
      textReply('Second answer here', 2),
      { kind: 'hang' } as const,
    ];
    await withHost(true, replies, async ({ host, home, piConfig, server }) => {
      const prompts: { text: string; operationId: string | undefined }[] = [];
      const app = withOverrides(host.application, {
        prompt: (input) => {
          prompts.push({ text: input.text, operationId: input.operationId });
          return host.application.prompt(input);
        },
      });
      const view = await mount(app, home);
      try {
        await openAgents(view);
        await waitForText(view, '(no agents yet: c creates one)');
        await createAgent(view, ['alpha', 'fake/fake-model', piConfig]);
        let frame = await waitForText(view, /created agent alpha \([0-9a-f]{8}\); s starts it/);
        assert.match(frame, /> alpha\s+fake\/fake-model\s+never started\s+idle/);

        await press(view, 's');
        await waitForText(view, /alpha started: generation 1 (running|starting)/, 30_000);
        await waitForText(view, /> alpha\s+fake\/fake-model\s+gen 1 running\s+idle/);

        await press(view, 'p');
        await waitForText(view, 'Enter send · Esc cancel · Ctrl+C quit');
        await type(view, 'Say hello q s x');
        await press(view, KEY.enter);
        await waitForText(view, /prompt admitted: operation [0-9a-f]{8} · journal #\d+/, 15_000);
        await waitForText(view, /busy [0-9a-f]{8}/);
        frame = await waitForText(view, /user\s+Say hello q s x/);

        // While the answer streams (held by the fake model), a second prompt is refused; the text stays for a retry.
        // pi may still be loading its modules when the generation is running: on a loaded 2-core machine
        // its first model request has taken more than 30 s.
        await server.waitForRequests(1, 90_000);
        await press(view, 'p');
        await type(view, 'And again');
        await press(view, KEY.enter);
        frame = await waitForText(view, /prompt: error agent_busy: /, 15_000);
        assert.match(frame, /prompt alpha> And again/);
        assert.equal(
          server.requests[0]?.completed,
          false,
          'the refusal came while the first answer was still streaming',
        );
        first.release();

        frame = await waitForText(view, /assistant\s+Hello from the fake model/, 30_000);
        assert.match(frame, /Timeline of alpha · last #\d+ · following/);
        await waitForText(view, /gen 1 running\s+idle/, 15_000);
        await press(view, KEY.enter);
        await waitForText(view, /assistant\s+Second answer here/, 30_000);
        assert.equal(prompts.length, 3);
        assert.equal(prompts[2]!.text, 'And again');
        assert.equal(
          prompts[2]!.operationId,
          prompts[1]!.operationId,
          'the retry of the same text keeps its operation ID',
        );
        assert.notEqual(prompts[1]!.operationId, prompts[0]!.operationId);

        await press(view, 't');
        frame = await waitForText(view, /Journal of alpha · last #\d+/);
        assert.match(frame, /pi\.(agent_end|message_end|turn_end|response)|prompt\.settled/);
        await press(view, 't');
        await waitForText(view, /Timeline of alpha/);

        // A prompt whose answer never ends, aborted with "a".
        await waitForText(view, /gen 1 running\s+idle/, 15_000);
        await press(view, 'p');
        await type(view, 'Hang on');
        await press(view, KEY.enter);
        await waitForText(view, /busy [0-9a-f]{8}/, 15_000);
        await press(view, 'a');
        await waitForText(view, /abort requested for operation [0-9a-f]{8} · journal #\d+/, 15_000);
        await waitForText(view, /gen 1 running\s+idle/, 30_000);

        await press(view, 'x');
        await waitForText(view, /alpha stopped: generation 1 stopped/, 30_000);
        await waitForText(view, /gen 1 stopped\s+idle/);
        const agents = await host.application.listAgents();
        assert.equal(agents[0]?.generation?.state, 'stopped');
      } finally {
        await unmount(view);
      }
    });
  });
});

describe('Agents screen errors', { timeout: 60_000 }, () => {
  test('every refusal is one line on screen; a retried create keeps its operation ID; q typed in the form is text', async () => {
    await withHost(false, [], async ({ host, home }) => {
      const creates: (string | undefined)[] = [];
      const app: Application = withOverrides(host.application, {
        createAgent: async (input) => {
          creates.push(input.operationId);
          if (creates.length === 1) throw new CmError('storage_failed', 'The disk is full. Free some space and retry.');
          return host.application.createAgent(input);
        },
      });
      let quits = 0;
      const view = await mount(app, home, { onQuit: () => (quits += 1) });
      try {
        await openAgents(view);
        await press(view, 'p');
        await waitForText(view, 'prompt: error invalid_input: Create an agent first (c).');
        await press(view, 'c');
        await press(view, KEY.enter);
        await waitForText(view, 'create: error invalid_input: An agent needs a name.');
        await type(view, 'q-beta');
        await press(view, KEY.enter);
        await waitForText(view, 'create: error storage_failed: The disk is full. Free some space and retry.');
        assert.equal(quits, 0, 'q typed into the form does not quit');
        await press(view, KEY.enter);
        await waitForText(view, /created agent q-beta/);
        assert.equal(creates.length, 2);
        assert.equal(creates[1], creates[0], 'the retry of the same form keeps its operation ID');

        // This host runs no agents (a lease-only host): start is refused with agent_state.
        await press(view, 's');
        await waitForText(view, /start: error agent_state: Agents run inside a host/);
        await press(view, 'A');
        await waitForText(view, 'abandon: error invalid_input: No prompt of this agent is on screen to abandon.');
        await press(view, 'p');
        await type(view, 'hello');
        await press(view, KEY.escape);
        const closed = await waitForFrame(view, 'the prompt closed', (frame) => !frame.includes('prompt q-beta>'));
        assert.match(closed, /c new · s start/);
      } finally {
        await unmount(view);
      }
    });
  });
});

describe('Agents screen, two agents at once', { timeout: 120_000 }, () => {
  test('two agents prompted one after the other without waiting: each timeline shows only its own exchange; the journal interleaves them', async () => {
    // A stand-in pi that streams part of its answer and holds the rest until the test lets it go,
    // so the two answers overlap because the test makes them, not because a stream lasts long enough.
    const stub = new URL('../bench/stub-pi.mjs', import.meta.url).pathname;
    const holdDir = await mkdtemp(join(tmpdir(), 'cm-stub-hold-'));
    const saved = { command: process.env['COMMON_MEMORY_PI_COMMAND'], hold: process.env['STUB_PI_HOLD_DIR'] };
    process.env['COMMON_MEMORY_PI_COMMAND'] = JSON.stringify({ command: process.execPath, args: [stub] });
    process.env['STUB_PI_HOLD_DIR'] = holdDir;
    const home = tempHome('tui-two');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await openAgents(view);
      for (const name of ['red', 'blue']) {
        await createAgent(view, [name]);
        await waitForText(view, new RegExp(`created agent ${name}`));
      }
      // The list is sorted by name: blue first, then red.
      await waitForText(view, /> blue/);
      await press(view, 's');
      await waitForText(view, /blue\s+default model\s+gen 1 running/, 30_000);
      await press(view, 'p');
      await type(view, 'question for blue');
      await press(view, KEY.enter);
      await waitForText(view, /prompt admitted/);
      await press(view, 'j');
      await waitForText(view, /> red/);
      await press(view, 's');
      await waitForText(view, /red\s+default model\s+gen 1 running/, 30_000);
      await press(view, 'p');
      await type(view, 'question for red');
      await press(view, KEY.enter);
      await waitForText(view, /blue\s+default model\s+gen 1 running\s+busy/);
      await waitForText(view, /red\s+default model\s+gen 1 running\s+busy/);
      // Both are held mid-answer, their first updates in the journal. Let one finish, then the other:
      // the journal then holds both first parts, one whole second part, then the other's.
      const held = await waitFor('both stand-ins to hold mid-answer', async () => {
        const names = (await readdir(holdDir)).filter((name) => name.startsWith('held.'));
        return names.length === 2 ? names.map((name) => name.slice('held.'.length)) : undefined;
      });
      const journaled = async (kind: string) =>
        (await host.application.journal({ after: 0, limit: 100 })).rows.filter((row) => row.kind === kind);
      const agentEnds = async () => (await journaled('pi.agent_end')).length;
      // A held file says the stand-in wrote its first part, not that the host has journaled it: under
      // load the host may read one pipe late, after the other answer's end. Release only once both
      // first parts are in the journal, so the order below is the test's, not the scheduler's.
      await waitFor('both first parts to be journaled', async () => {
        const updates = await journaled('pi.message_update');
        const perAgent = new Map<string | null, number>();
        for (const row of updates) perAgent.set(row.agentId, (perAgent.get(row.agentId) ?? 0) + 1);
        return perAgent.size === 2 && [...perAgent.values()].every((count) => count >= 1) ? true : undefined;
      });
      await writeFile(join(holdDir, `go.${held[0]}`), '');
      await waitFor('the first released answer to end', async () => ((await agentEnds()) === 1 ? true : undefined));
      await writeFile(join(holdDir, `go.${held[1]}`), '');
      // Each agent's timeline: its own user row and its own answer, nothing of the other.
      let frame = await waitForFrame(
        view,
        'red exchange',
        (f) => /user\s+question for red/.test(f) && /assistant\s+(word )+/.test(f),
        30_000,
      );
      assert.doesNotMatch(frame, /question for blue/);
      await press(view, 'k');
      frame = await waitForFrame(
        view,
        'blue exchange',
        (f) => /> blue/.test(f) && /user\s+question for blue/.test(f) && /assistant\s+(word )+/.test(f),
        30_000,
      );
      assert.doesNotMatch(frame, /question for red/);
      // The journal holds both exchanges in one order, interleaved while both streamed. A timeline
      // shows the first part of an answer already: wait for the second answer's end to be journaled.
      await waitFor('the second released answer to end', async () => ((await agentEnds()) === 2 ? true : undefined));
      const rows = (await host.application.journal({ after: 0, limit: 100 })).rows;
      const agents = await host.application.listAgents();
      const owner = (agentId: string | null) => agents.find((a) => a.agentId === agentId)?.name;
      const updates = rows.filter((row) => row.kind === 'pi.message_update').map((row) => owner(row.agentId));
      const switches = updates.filter((name, i) => i > 0 && name !== updates[i - 1]).length;
      assert.ok(switches >= 2, `the two streams interleave in the journal (${switches} switches)`);
    } finally {
      await unmount(view);
      await host.stop();
      process.env['COMMON_MEMORY_PI_COMMAND'] = saved.command;
      process.env['STUB_PI_HOLD_DIR'] = saved.hold;
      if (saved.command === undefined) delete process.env['COMMON_MEMORY_PI_COMMAND'];
      if (saved.hold === undefined) delete process.env['STUB_PI_HOLD_DIR'];
      await rm(holdDir, { recursive: true, force: true });
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
