// The real pi with common-memory's extension installed by `common-memory install pi`, against a
// fake model server that answers the scripted replies, in a throwaway agent dir and data home.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './cli.js';
import {
  type FakeOpenAiServer,
  type FakeReply,
  type Responder,
  scripted,
  startFakeOpenAiServer,
} from './fake-openai-server.js';
import { makePiAgentDir, type PiAgentDirOptions, type PiAgentDir } from './pi-agent-dir.js';

export interface InstalledPi {
  dir: PiAgentDir;
  home: string;
  /** pi's environment with the data home set. */
  env: NodeJS.ProcessEnv;
  server: FakeOpenAiServer;
}

export async function withInstalledPi(
  replies: FakeReply[] | Responder,
  lifetimeMs: number,
  body: (pi: InstalledPi) => Promise<void>,
  /** The agent dir's own settings (pi's retry) that `install pi` must keep; the fake server's body bound. */
  options: Omit<PiAgentDirOptions, 'baseUrl'> & { maxBodyBytes?: number } = {},
): Promise<void> {
  const { maxBodyBytes, ...dirOptions } = options;
  const responder = typeof replies === 'function' ? replies : scripted(replies);
  const server = await startFakeOpenAiServer({
    responder,
    lifetimeMs,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });
  const dir = makePiAgentDir({ ...dirOptions, baseUrl: server.baseUrl });
  const home = join(dir.dir, '..', 'home');
  try {
    const installed = await runCli(['install', 'pi', '--pi-dir', dir.dir], {
      env: { COMMON_MEMORY_HOME: '', PI_CODING_AGENT_DIR: '' },
    });
    assert.equal(installed.code, 0, installed.stderr);
    await body({ dir, home, env: { ...dir.env, COMMON_MEMORY_HOME: home }, server });
  } finally {
    await server.close();
    dir.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
}
