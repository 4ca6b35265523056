// The agent commands as a first-day user meets them from the shipped bin, without a host or a
// provider: each refusal names its exit code and says what to do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, startCli, tempHome } from '../support/cli.js';

describe('agent commands without a host', { timeout: 60_000 }, () => {
  it('agent stop with no host running is "host unreachable" (8), as agent start is, not a conflict', async () => {
    const home = tempHome('agent-stop');
    const created = await runCli(['agent', 'create', 'a', '--home', home]);
    assert.equal(created.code, 0, created.stderr);
    const start = await runCli(['agent', 'start', 'a', '--home', home]);
    const stop = await runCli(['agent', 'stop', 'a', '--home', home]);
    assert.equal(start.code, 8, start.stderr);
    assert.equal(stop.code, 8, stop.stderr);
    assert.match(stop.stderr, /No common-memory host is running.*common-memory host/s);
  });

  it('a prompt with no text (blank, or an empty stdin for -) says what is missing, as note does', async () => {
    const home = tempHome('prompt-blank');
    for (const words of [
      ['a', '   '],
      ['a', '-'],
    ]) {
      const refused = await runCli(['prompt', ...words, '--home', home], { input: ' \n' });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /A prompt needs some text \(whitespace alone is refused\)\. usage: common-memory prompt/,
      );
    }
    const noAgent = await runCli(['prompt', '--home', home]);
    assert.equal(noAgent.code, 2);
    assert.match(noAgent.stderr, /^common-memory: usage: common-memory prompt <agent> <text>/);
  });
});

describe('a reader that closes the pipe early', { timeout: 60_000 }, () => {
  it('log | head: the closed pipe ends the command quietly (exit 0), with no EPIPE stack trace', async () => {
    const home = tempHome('epipe');
    assert.equal((await runCli(['note', 'hello', '--home', home])).code, 0);
    for (const args of [['log'], ['log', '--follow'], ['timeline', '--json']]) {
      const child = startCli([...args, '--home', home]);
      child.stdout!.destroy(); // as head does once it has its lines
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(stderr, '', args.join(' '));
      assert.equal(code, 0, args.join(' '));
    }
  });
});
