// Records the pi session fixtures (fixtures/pi/sessions/): the real pi 0.73.1, without
// common-memory's extension, against the fake model server, writing its own session files. Each
// header's cwd (the scratch dir of the run) becomes /home/user/project; nothing else is changed.
// Run: node --import tsx test/support/record-pi-sessions.ts
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FakeReply,
  SDK_REQUESTS_PER_ATTEMPT,
  scripted,
  startFakeOpenAiServer,
  textReply,
} from './fake-openai-server.js';
import { makePiAgentDir, PI_BIN, type PiAgentDirOptions } from './pi-agent-dir.js';

const OUT = fileURLToPath(new URL('../../fixtures/pi/sessions/', import.meta.url));
const BASE = ['--offline', '--provider', 'fake', '--model', 'fake-model', '--no-skills', '--no-prompt-templates'];
const QUIET = ['--no-themes', '--no-context-files', '--no-extensions'];
const fail = (n: number): FakeReply[] =>
  Array.from({ length: n * SDK_REQUESTS_PER_ATTEMPT }, () => ({
    kind: 'http-error',
    status: 500,
    message: 'upstream exploded',
  }));

async function record(
  name: string,
  replies: FakeReply[],
  options: Omit<PiAgentDirOptions, 'baseUrl'>,
  drive: (dir: ReturnType<typeof makePiAgentDir>) => Promise<void>,
): Promise<void> {
  const server = await startFakeOpenAiServer({ responder: scripted(replies), lifetimeMs: 60_000 });
  const dir = makePiAgentDir({ ...options, baseUrl: server.baseUrl });
  try {
    await drive(dir);
    const sessions = join(dir.dir, 'sessions');
    const [folder] = readdirSync(sessions);
    const [file] = readdirSync(join(sessions, folder!));
    const lines = readFileSync(join(sessions, folder!, file!), 'utf8').split('\n');
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), cwd: '/home/user/project' });
    writeFileSync(join(OUT, `${name}.jsonl`), lines.join('\n'));
  } finally {
    await server.close();
    dir.cleanup();
  }
}

function print(dir: ReturnType<typeof makePiAgentDir>, tools: string[], prompts: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI_BIN, [...BASE, ...tools, ...QUIET, '-p', ...prompts], {
      cwd: dir.cwd,
      env: dir.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', (code) => (code === null ? reject(new Error('pi was killed')) : resolve()));
  });
}

/** RPC mode: the first prompt, then a follow-up queued while pi answers it; closes stdin once idle. */
function followUp(dir: ReturnType<typeof makePiAgentDir>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI_BIN, ['--mode', 'rpc', ...BASE, '--no-tools', ...QUIET], {
      cwd: dir.cwd,
      env: dir.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let buffered = '';
    let ends = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let at = buffered.indexOf('\n');
      while (at !== -1) {
        const event = JSON.parse(buffered.slice(0, at)) as { type: string; message?: { role: string } };
        buffered = buffered.slice(at + 1);
        at = buffered.indexOf('\n');
        if (event.type === 'message_update' && ends === 0) {
          ends = 1;
          child.stdin!.write(
            `${JSON.stringify({ type: 'prompt', message: 'and keep commits small', streamingBehavior: 'followUp' })}\n`,
          );
        }
        if (event.type === 'agent_end') child.stdin!.end();
      }
    });
    child.once('exit', (code) => (code === null ? reject(new Error('pi was killed')) : resolve()));
    child.stdin!.write(`${JSON.stringify({ type: 'prompt', message: 'Please always write tests first.' })}\n`);
  });
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const slow = (text: string): FakeReply => ({ kind: 'text', chunks: text.split(' ').map((w) => `${w} `), delayMs: 150 });
await record('a-two-prompts', [textReply('Noted: pnpm it is.', 3), textReply('Four.', 2)], {}, (dir) =>
  print(dir, ['--no-tools'], ['Always use pnpm in this repository, never npm.', 'what is two plus two?']),
);
await record(
  'b-tool-call-bash',
  [
    { kind: 'tool-call', callId: 'call_1', name: 'bash', arguments: JSON.stringify({ command: 'echo hi' }) },
    textReply('It printed hi.', 2),
  ],
  { bashTool: true },
  (dir) => print(dir, ['--tools', 'bash'], ['run echo hi']),
);
await record(
  'c-retry-then-answer',
  [...fail(1), textReply('Answered after a retry.', 2)],
  {
    retry: { enabled: true, maxRetries: 2, baseDelayMs: 20 },
  },
  (dir) => print(dir, ['--no-tools'], ['We deploy on Fridays only after review.']),
);
await record('d-provider-error', fail(1), { retry: { enabled: false } }, (dir) =>
  print(dir, ['--no-tools'], ['this one fails']),
);
await record(
  'e-follow-up-while-busy',
  [slow('I will write the tests first.'), textReply('Small commits, yes.', 2)],
  {},
  followUp,
);
