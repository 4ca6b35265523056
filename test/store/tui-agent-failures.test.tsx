// What the Agents screen says when a prompt does not get an answer, with the real pi 0.73.1: pi's
// refusal for want of an API key, the provider's error, an abort — each in one line, the whole
// text on a key; and the newest row opened in full. Driven by keys; frames asserted as plain text.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';
import {
  replyGate,
  scripted,
  startFakeOpenAiServer,
  textReply,
  type FakeReply,
} from '../support/fake-openai-server.js';
import { makePiAgentDir } from '../support/pi-agent-dir.js';
import { KEY, mount, press, type, unmount, waitForFrame, waitForText, type View } from '../support/tui-harness.js';

async function createAndStart(view: View, fields: string[], name: string): Promise<void> {
  await press(view, '3');
  await waitForText(view, /\[3 Agents\]/);
  await press(view, 'c');
  await waitForText(view, 'New agent');
  await type(view, fields[0]!);
  for (const value of fields.slice(1)) {
    await press(view, KEY.tab);
    await type(view, value);
  }
  await press(view, KEY.enter);
  await waitForText(view, `created agent ${name}`);
  await press(view, 's');
  await waitForText(view, new RegExp(`> ${name}\\s+\\S+\\s+gen 1 running\\s+idle`), 60_000);
}

async function prompt(view: View, text: string): Promise<void> {
  await press(view, 'p');
  await type(view, text);
  await press(view, KEY.enter);
  await waitForText(view, /prompt admitted: operation [0-9a-f]{8}/, 15_000);
}

describe('Agents screen: failures are said in words', { timeout: 240_000 }, () => {
  test('no API key: one line saying pi refused and why; o shows the whole text; Esc returns; q asks while the agent runs', async () => {
    const home = tempHome('tui-no-key');
    const piConfig = mkdtempSync(join(tmpdir(), 'pi-config-'));
    writeFileSync(join(piConfig, 'auth.json'), '{}');
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = '';
    const host = await Host.start({ home, serve: true });
    const quits: string[] = [];
    const view = await mount(host.application, home, { onQuit: (how) => quits.push(how) });
    try {
      await createAndStart(view, ['keyless', 'anthropic/claude-sonnet-4-5', piConfig], 'keyless');
      await prompt(view, 'hello');
      const frame = await waitForText(
        view,
        /last prompt [0-9a-f]{8}: rejected — pi refused the prompt: No API key/,
        60_000,
      );
      assert.match(frame, /o in full/, 'the cut line says where the rest is');
      assert.doesNotMatch(frame, /assistant/, 'no invented answer');
      await press(view, 'o');
      const full = await waitForText(view, /Use \/login to log into a provider/);
      assert.match(full, /No API key found for anthropic/);
      assert.match(full, /state rejected/);
      assert.match(full, /Esc back/);
      await press(view, 'v');
      await waitForText(view, /"operationId": "/);
      await press(view, KEY.escape);
      await waitForText(view, /Timeline of keyless/);

      // This TUI's host runs the agent: q asks first; n stays, y quits.
      await press(view, 'q');
      await waitForText(view, /Quit\? y quit · n\/Esc stay — stops this TUI's host and agent keyless/);
      await press(view, 'n');
      await waitForText(view, /↑↓ select · c new/);
      assert.deepEqual(quits, [], 'n did not quit');
      await press(view, 'q');
      await waitForText(view, /Quit\?/);
      await press(view, 'y');
      await waitForFrame(view, 'the quit', () => quits.length === 1);
      assert.deepEqual(quits, ['quit']);
    } finally {
      await unmount(view);
      await host.stop();
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      await rm(piConfig, { recursive: true, force: true });
      await rm(dirname(home), { recursive: true, force: true });
    }
  });

  test("the provider's error and an abort: the rows say so, the outcome line too; Enter opens the aborted row in full", async () => {
    const gate = replyGate();
    const server = await startFakeOpenAiServer({
      responder: scripted([
        // One pi attempt is three requests (the SDK retries a 5xx twice); pi's own retry is off.
        ...Array.from(
          { length: 3 },
          (): FakeReply => ({ kind: 'http-error', status: 500, message: 'upstream exploded' }),
        ),
        { ...(textReply('Partial words and then more', 6) as Extract<FakeReply, { kind: 'text' }>), hold: gate.hold },
      ]),
    });
    const config = makePiAgentDir({ baseUrl: server.baseUrl, retry: { enabled: false } });
    const home = tempHome('tui-provider-error');
    const host = await Host.start({ home, serve: true });
    const view = await mount(host.application, home);
    try {
      await createAndStart(view, ['faulty', 'fake/fake-model', config.dir], 'faulty');
      await prompt(view, 'first question');
      await waitForText(view, /last prompt [0-9a-f]{8}: settled \(error\) — the provider failed: /, 90_000);
      // The failed answer is a row that says so (the feed follows the timeline on its own read,
      // which may land a frame after the outcome line).
      await waitForText(view, /assistant\s+\[error: .*500/, 10_000);

      await waitForText(view, /gen 1 running\s+idle/, 15_000);
      await prompt(view, 'second question');
      await server.waitForRequests(4, 60_000);
      await press(view, 'a');
      await waitForText(view, /last prompt [0-9a-f]{8}: settled \(aborted\) — aborted while answering/, 30_000);
      // The aborted reply is marked aborted (the feed's read may land a frame after the outcome line).
      await waitForText(view, /assistant\s+.*\[aborted\]/, 10_000);

      await press(view, KEY.enter);
      const full = await waitForText(view, /Timeline row #\d+ of faulty in full/);
      assert.match(full, /#\d+ assistant/);
      assert.match(full, /\[aborted\]/);
      assert.doesNotMatch(full, /second question/, 'the newest row alone, not the whole feed');
      await press(view, KEY.escape);
      await waitForText(view, /Timeline of faulty · last/);
    } finally {
      gate.release();
      await unmount(view);
      await host.stop();
      await server.close();
      config.cleanup();
      await rm(dirname(home), { recursive: true, force: true });
    }
  });
});
