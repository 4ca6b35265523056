// A minimal stand-in for `pi --mode rpc` for benchmarks: answers each prompt at once with the
// record sequence pi 0.73.1 writes (response, agent_start, user echo, assistant, agent_end),
// stamping the response with the moment the prompt line arrived (epoch ms, sub-ms precision).
// With STUB_PI_STREAM_MS set it streams message_update records for that long before answering.
// With STUB_PI_HOLD_DIR set it streams five updates, writes `held.<pid>` there and holds the rest
// of the answer until `go.<pid>` exists: a test decides when the answer goes on.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const now = () => performance.timeOrigin + performance.now();
const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
const streamMs = Number(process.env.STUB_PI_STREAM_MS ?? 0);
const holdDir = process.env.STUB_PI_HOLD_DIR;
let buffer = '';
let busy = Promise.resolve();

async function answer(command, receivedAt) {
  write({ id: command.id, type: 'response', command: 'prompt', success: true, data: { receivedAt } });
  const user = { role: 'user', content: [{ type: 'text', text: command.message }], timestamp: Date.now() };
  write({ type: 'agent_start' });
  write({ type: 'turn_start' });
  write({ type: 'message_start', message: user });
  write({ type: 'message_end', message: user });
  const partial = {
    role: 'assistant',
    content: [{ type: 'text', text: '' }],
    api: 'openai-completions',
    provider: 'stub',
    model: 'stub',
    usage: {},
    stopReason: 'stop',
    timestamp: Date.now(),
  };
  write({ type: 'message_start', message: partial });
  let text = '';
  const update = () => {
    text += 'word ';
    write({
      type: 'message_update',
      assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'word ' },
      message: { ...partial, content: [{ type: 'text', text }] },
    });
  };
  if (holdDir !== undefined) {
    for (let i = 0; i < 5; i++) update();
    writeFileSync(join(holdDir, `held.${process.pid}`), '');
    while (!existsSync(join(holdDir, `go.${process.pid}`))) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 5; i++) update();
  }
  const until = Date.now() + streamMs;
  while (Date.now() < until) {
    update();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const final = { ...partial, content: [{ type: 'text', text: text || 'ok' }] };
  write({ type: 'message_end', message: final });
  write({ type: 'turn_end', message: final, toolResults: [] });
  write({ type: 'agent_end', messages: [user, final] });
}

process.stdin.on('data', (chunk) => {
  const receivedAt = now();
  buffer += chunk.toString('utf8');
  for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    const command = JSON.parse(line);
    if (command.type === 'prompt') busy = busy.then(() => answer(command, receivedAt));
    else
      busy = busy.then(() =>
        write({ id: command.id, type: 'response', command: command.type, success: true, data: {} }),
      );
  }
});
process.stdin.on('end', () => process.exit(0));
