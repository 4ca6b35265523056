// A serving host (the TUI's, `common-memory host`, the service) starts its agents thread when an
// agent is first started, stopped, prompted or aborted, not at every start: most hosts run no
// agent, and each worker thread is a Node start of its own (CPU and memory at every host start).
// Threads are counted from the outside: a worker's threadId is the process's count of workers made
// so far, so a probe made after a step says how many the step made.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { Application } from '../../source/api/application.js';
import { Host } from '../../source/host/host.js';
import { PI_COMMAND_ENV } from '../../source/hosts/pi/pi-command.js';
import { tempHome } from '../support/cli.js';
import { fakePiCommand } from '../support/fake-pi.js';

/** The threadId the next worker gets; making the probe is itself one worker. */
async function nextThreadId(): Promise<number> {
  const probe = new Worker('', { eval: true });
  const id = probe.threadId;
  await probe.terminate();
  return id + 1;
}

/** How many workers `step` made (beyond the probes), threads made by those threads included. */
async function threadsMadeBy(step: () => Promise<unknown>): Promise<number> {
  const first = await nextThreadId();
  await step();
  return (await nextThreadId()) - first - 1;
}

describe('a serving host and its agents thread', () => {
  let saved: string | undefined;
  before(() => {
    saved = process.env[PI_COMMAND_ENV];
    process.env[PI_COMMAND_ENV] = JSON.stringify(fakePiCommand({}));
  });
  after(() => {
    if (saved === undefined) delete process.env[PI_COMMAND_ENV];
    else process.env[PI_COMMAND_ENV] = saved;
  });

  /**
   * The workers a host made in its whole life, from its start to its end, with `steps` run on it:
   * counted over the whole life because a serving host starts some threads after it is ready
   * (its memory thread, for the sync at start), so only the totals of two lives compare.
   */
  async function lifetime(label: string, steps: (app: Application) => Promise<unknown>): Promise<number> {
    const home = tempHome(label);
    return threadsMadeBy(async () => {
      const host = await Host.start({ home, serve: true });
      try {
        await host.application.createAgent({ name: 'helper', operationId: 'op-create' });
        await steps(host.application);
      } finally {
        await host.stop();
      }
    });
  }

  it('is started by the first call that needs it, once, and not by the host start, reads or creation', async () => {
    const without = await lifetime('agents-none', async (app) => {
      await app.listAgents();
    });
    const once = await lifetime('agents-once', async (app) => {
      await app.startAgent({ agent: 'helper' });
      assert.equal((await app.listAgents())[0]?.generation?.state, 'running');
    });
    const twice = await lifetime('agents-twice', async (app) => {
      await app.startAgent({ agent: 'helper' });
      await app.stopAgent({ agent: 'helper' });
      await app.startAgent({ agent: 'helper' });
      assert.equal((await app.listAgents())[0]?.generation?.state, 'running');
    });
    // One thread more (two threadIds where a thread runs from source under tsx, whose loader has a
    // thread of its own): before, every serving host started it, and the two counts were equal.
    assert.ok(once > without, `the agents thread is the one more (${without} without an agent, ${once} with one)`);
    assert.equal(twice, once, 'later calls reuse the thread');
  });

  it('stops cleanly when no agent ever ran, and a host started after it runs agents as before', async () => {
    const home = tempHome('agents-on-demand-stop');
    const first = await Host.start({ home, serve: true });
    await first.stop();
    const second = await Host.start({ home, serve: true });
    try {
      await second.application.createAgent({ name: 'later', operationId: 'op-later' });
      await second.application.startAgent({ agent: 'later' });
      assert.equal((await second.application.listAgents())[0]?.generation?.state, 'running');
    } finally {
      await second.stop();
    }
    const local = await Host.start({ home, serve: false });
    try {
      assert.equal((await local.application.listAgents())[0]?.generation?.state, 'stopped', 'stopped with its host');
    } finally {
      await local.stop();
    }
  });
});
