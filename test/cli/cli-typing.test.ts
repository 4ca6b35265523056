// What a person types: text on a slow pipe, blank notes, ID prefixes and agent names, agent
// settings checked at creation, cursor files in a place that cannot hold them. Notes without a host and
// the slow pipe go through the bin; what is parsed, read, refused before anything is written, or
// asked of a running host calls the CLI in-process (support/cli-in-process.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ended, HELLO, piEnv, SIMPLE, childHost, stopHost } from '../support/agents-drill-kit.js';
import { stateText } from '../../source/cli/commands/lookup.js';
import { collect, runCli, startCli, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

describe('what a person types', { timeout: 120_000 }, () => {
  it('note - waits for a slow pipe to end; blank notes are refused', async () => {
    const home = tempHome('typing');
    const empty = collect(startCli(['note', '-', '--json', '--home', home])); // stdin ends at once, empty
    const slow = startCli(['note', '-', '--json', '--home', home]);
    setTimeout(() => slow.stdin!.write('first half, '), 300);
    setTimeout(() => slow.stdin!.end('second half'), 800);
    let stdout = '';
    let stderr = '';
    slow.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    slow.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => slow.on('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).replayed, false);
    assert.equal((await empty).code, 2, 'an empty stdin is no note');
    const log = JSON.parse((await runCliInProcess(['log', '--json', '--home', home])).stdout) as {
      rows: { payload: { text: string } }[];
    };
    assert.deepEqual(
      log.rows.map((row) => row.payload.text),
      ['first half, second half'],
    );
    for (const blank of [['   '], ['-']]) {
      const refused = await runCli(['note', ...blank, '--home', home], { input: ' \n\t\n' });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /whitespace alone is refused/);
    }
  });

  it('operation and message IDs by a unique prefix; agents by name or ID prefix; agent list prints IDs', async () => {
    const home = tempHome('prefix');
    const { child, api } = await childHost(home, piEnv({ onPrompt: { replay: SIMPLE } }));
    try {
      const agent = await api.createAgent({ name: 'helper', operationId: 'create-helper' });
      const list = await runCliInProcess(['agent', 'list', '--home', home]);
      assert.match(list.stdout, new RegExp(`helper  ${agent.agentId}`));
      assert.equal((await runCliInProcess(['agent', 'start', agent.agentId.slice(0, 6), '--home', home])).code, 0);
      const prompt = await runCliInProcess([
        'prompt',
        'helper',
        HELLO,
        '--operation-id',
        'prompt-one',
        '--json',
        '--home',
        home,
      ]);
      assert.equal(prompt.code, 0, prompt.stderr);
      const receipt = JSON.parse(prompt.stdout) as { messageId: string };
      await ended(api, 'prompt-one');
      const op = await runCliInProcess(['operation', 'prompt-o', '--json', '--home', home]);
      assert.equal(op.code, 0, op.stderr);
      assert.equal(JSON.parse(op.stdout).operationId, 'prompt-one');
      const message = await runCliInProcess([
        'message',
        receipt.messageId.slice(0, 8).toUpperCase(),
        '--json',
        '--home',
        home,
      ]);
      assert.equal(message.code, 0, message.stderr);
      assert.equal(JSON.parse(message.stdout).message.messageId, receipt.messageId);
      const short = await runCliInProcess(['operation', 'pro', '--home', home]);
      assert.equal(short.code, 6, 'under four characters is no prefix');
      const byName = JSON.parse(
        (await runCliInProcess(['timeline', '--agent', 'helper', '--json', '--home', home])).stdout,
      ) as {
        agentId: string;
        rows: unknown[];
      };
      assert.equal(byName.agentId, agent.agentId);
      assert.ok(byName.rows.length >= 2, 'the user row and the reply');
      const text = await runCliInProcess(['timeline', '--agent', 'helper', '--home', home]);
      assert.match(text.stdout, /user agent:\w+ +Say hello/, 'the user row as text');
      assert.doesNotMatch(text.stdout, /"content"/, 'no raw JSON');
      const shown = await runCliInProcess(['message', receipt.messageId, '--home', home]);
      assert.match(shown.stdout, /^ {4}Say hello$/m, 'message prints the text in full');
      const unknown = await runCliInProcess(['timeline', '--agent', 'nobody', '--home', home]);
      assert.equal(unknown.code, 6);
      assert.match(unknown.stderr, /No agent named "nobody"/);
      assert.equal((await runCliInProcess(['agent', 'stop', 'helper', '--home', home])).code, 0);
    } finally {
      await stopHost(child);
    }
  });

  it('message labels the terminal controls of a prompt (an escape, a bell, a lone CR) in text; --json keeps them', async () => {
    const home = tempHome('message-controls');
    const { child, api } = await childHost(home, piEnv({ onPrompt: { replay: SIMPLE } }));
    try {
      await api.createAgent({ name: 'helper' });
      await api.startAgent({ agent: 'helper' });
      const typed = 'red \u001b[31mRED\u001b[0m cr\rX bel\u0007';
      const receipt = await api.prompt({ agent: 'helper', text: typed, operationId: 'controls' });
      await ended(api, 'controls');
      const shown = await runCliInProcess(['message', receipt.messageId, '--home', home]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.doesNotMatch(shown.stdout, /[\u0007\u001b]|\r(?!\n)/, 'no control reaches the terminal');
      assert.match(shown.stdout, /red ⟨U\+001B⟩\[31mRED⟨U\+001B⟩\[0m cr⟨U\+000D⟩X bel⟨U\+0007⟩/);
      const json = await runCliInProcess(['message', receipt.messageId, '--json', '--home', home]);
      assert.equal(JSON.parse(json.stdout).message.payload.content[0].text, typed);
    } finally {
      await stopHost(child);
    }
  });

  it('an id or path thousands of characters long is echoed by its start and its length, never whole', async () => {
    const home = tempHome('long-ids');
    assert.equal((await runCliInProcess(['note', 'one', '--home', home])).code, 0);
    const long = 'a'.repeat(3000);
    for (const args of [
      ['session', long],
      ['abandon', long],
      ['memory', 'retry', long],
      ['memory', 'lint', join(dirname(home), long)],
    ]) {
      const refused = await runCliInProcess([...args, '--home', home]);
      assert.notEqual(refused.code, 0, args[0]);
      assert.match(refused.stderr, /… \(\d{4} characters\)/, `${args[0]} ${args[1]}`);
      assert.ok(refused.stderr.length < 600, `${args[0]}: ${refused.stderr.length} characters`);
    }
  });

  it('--limit out of its range is refused naming the flag as typed, by sessions, log and timeline alike', async () => {
    const home = tempHome('limit-range');
    assert.equal((await runCliInProcess(['note', 'one', '--home', home])).code, 0);
    for (const command of ['sessions', 'log', 'timeline'])
      for (const limit of ['0', '101', 'ten']) {
        const refused = await runCliInProcess([command, '--limit', limit, '--home', home]);
        assert.equal(refused.code, 2, `${command} --limit ${limit}: ${refused.stderr}`);
        assert.equal(
          refused.stderr,
          `common-memory: --limit must be a whole number from 1 to 100, not "${limit}".\n`,
          `${command} --limit ${limit}`,
        );
      }
  });

  it('--limit out of its range names the value given, whatever checks it (search, memory search and recall, review, extract)', async () => {
    const home = tempHome('limit-echo');
    assert.equal((await runCliInProcess(['note', 'one', '--home', home])).code, 0);
    const cases: Array<[string[], string]> = [
      [['search', 'x'], '1 to 100'],
      [['memory', 'search', 'x'], '1 to 100'],
      [['memory', 'recall', 'x'], '1 to 100'],
      [['memory', 'review'], '1 to 200'],
      [['memory', 'extract'], '1 to 8 (tasks per run)'],
    ];
    for (const [args, range] of cases)
      for (const limit of ['0', '999']) {
        const refused = await runCliInProcess([...args, '--limit', limit, '--home', home]);
        assert.equal(refused.code, 2, `${args.join(' ')} --limit ${limit}: ${refused.stderr}`);
        assert.equal(
          refused.stderr,
          `common-memory: --limit must be a whole number from ${range}, not "${limit}".\n`,
          `${args.join(' ')} --limit ${limit}`,
        );
      }
  });

  it('--limit with --follow is refused: one page and stop cannot be followed (it was ignored)', async () => {
    const home = tempHome('follow-limit');
    assert.equal((await runCliInProcess(['note', 'hello', '--home', home])).code, 0);
    for (const stream of ['log', 'timeline']) {
      const refused = await runCliInProcess([stream, '--follow', '--limit', '2', '--home', home]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /--limit prints one page and stops; --follow never stops/);
      assert.equal(refused.stdout, '');
    }
  });

  it('timeline on a store with no agent messages says so in text; --json, --after and cursor files stay quiet', async () => {
    const home = tempHome('empty-timeline');
    assert.equal((await runCliInProcess(['note', 'hello', '--home', home])).code, 0);
    const text = await runCliInProcess(['timeline', '--home', home]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^No timeline messages yet: .*agent/);
    const json = JSON.parse((await runCliInProcess(['timeline', '--json', '--home', home])).stdout) as {
      rows: unknown[];
    };
    assert.deepEqual(json.rows, []);
    assert.equal((await runCliInProcess(['timeline', '--after', '0', '--home', home])).stdout, '');
    const cursor = join(home, '..', 'timeline.cursor');
    assert.equal((await runCliInProcess(['timeline', '--cursor-file', cursor, '--home', home])).stdout, '');
    // The journal is never empty once a store exists (the host's start, the note): its rows, no notice.
    assert.doesNotMatch((await runCliInProcess(['log', '--home', home])).stdout, /No journal rows/);
  });

  it('an ambiguous prefix names its candidates', async () => {
    const home = tempHome('ambiguous');
    for (const id of ['same-1', 'same-2'])
      assert.equal((await runCli(['note', id, '--operation-id', id, '--home', home])).code, 0);
    const result = await runCliInProcess(['operation', 'same', '--home', home]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /"same" is the start of more than one operation ID \(same-1, same-2\); type more of it/,
    );
  });

  it('agent create checks --model and --pi-config before creating anything', async () => {
    const home = tempHome('create-check');
    const model = await runCliInProcess(['agent', 'create', 'a', '--model', 'claude-sonnet', '--home', home]);
    assert.equal(model.code, 2);
    assert.match(model.stderr, /--model is provider\/id/);
    const missing = await runCliInProcess([
      'agent',
      'create',
      'a',
      '--pi-config',
      join(dirname(home), 'nowhere'),
      '--home',
      home,
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /does not exist/);
    // A name that is not one is quoted back cut short with its length, never whole.
    const long = await runCliInProcess(['agent', 'create', 'x'.repeat(5000), '--home', home]);
    assert.equal(long.code, 2);
    assert.match(long.stderr, /Agent name "x+"… \(5000 characters\) is not valid/);
    assert.ok(long.stderr.length < 300, `${long.stderr.length} characters`);
    const empty = join(dirname(home), 'empty-pi');
    mkdirSync(empty);
    const none = await runCliInProcess(['agent', 'create', 'a', '--pi-config', empty, '--home', home]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /neither models\.json .* nor auth\.json/);
    writeFileSync(join(empty, 'models.json'), '{ not json');
    assert.match(
      (await runCliInProcess(['agent', 'create', 'a', '--pi-config', empty, '--home', home])).stderr,
      /not valid JSON/,
    );
    writeFileSync(join(empty, 'models.json'), '{"providers":{}}');
    const ok = await runCli([
      'agent',
      'create',
      'a',
      '--model',
      'ollama/llama3.1:8b',
      '--pi-config',
      empty,
      '--home',
      home,
    ]);
    assert.equal(ok.code, 0, ok.stderr);
  });

  it('cursor files: a missing directory is refused before anything is printed; messages name the real cause', async () => {
    const home = tempHome('cursor-dir');
    assert.equal((await runCli(['note', 'one', '--home', home])).code, 0);
    const result = await runCliInProcess([
      'log',
      '--cursor-file',
      join(dirname(home), 'no-such-dir', 'c.json'),
      '--home',
      home,
    ]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '', 'no row was printed that could not be saved');
    assert.match(result.stderr, /no-such-dir: it does not exist; create it first/);
    const beyond = await runCliInProcess(['log', '--after', '9', '--home', home]);
    assert.equal(beyond.code, 2);
    assert.doesNotMatch(beyond.stderr, /other stream|another store/);
    assert.match(beyond.stderr, /position 9 is beyond its head\. Start from a position from 0 to 1/);
  });

  it('a cursor file that is a FIFO or a directory is refused at once (exit 2), nothing printed', async () => {
    const home = tempHome('cursor-kind');
    assert.equal((await runCli(['note', 'one', '--home', home])).code, 0);
    const fifo = join(dirname(home), 'cursor.fifo');
    execFileSync('mkfifo', [fifo]);
    // Through the bin with a deadline: opened as a file, a FIFO with no writer blocks the process for good.
    const piped = await runCli(['log', '--cursor-file', fifo, '--home', home], { timeoutMs: 10_000 });
    assert.equal(piped.code, 2, piped.stderr);
    assert.equal(piped.stdout, '');
    assert.match(piped.stderr, /cursor\.fifo is not a regular file; give --cursor-file a file\. Nothing was read/);
    const directory = await runCliInProcess(['log', '--cursor-file', dirname(home), '--home', home, '--json']);
    assert.equal(directory.code, 2, directory.stderr);
    assert.match(JSON.parse(directory.stderr).error.message, /is not a regular file/);
    assert.doesNotMatch(directory.stderr, /EISDIR/);
  });

  it('a cursor file that is a link is read and saved through the link; a link to nowhere is refused', async () => {
    const home = tempHome('cursor-link');
    assert.equal((await runCli(['note', 'one', '--home', home])).code, 0);
    const real = join(dirname(home), 'real.cursor');
    const link = join(dirname(home), 'link.cursor');
    symlinkSync(real, link);
    const first = await runCliInProcess(['log', '--cursor-file', link, '--home', home, '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
    assert.equal(JSON.parse(readFileSync(real, 'utf8')).after, 1, 'the position went to the file the link names');
    assert.equal((await runCliInProcess(['note', 'two', '--home', home])).code, 0);
    const next = await runCliInProcess(['log', '--cursor-file', link, '--home', home, '--json']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout.trim().split('\n').length, 1, 'only what came after the saved position');
    assert.equal(JSON.parse(readFileSync(real, 'utf8')).after, 2);
    assert.ok(lstatSync(link).isSymbolicLink());
    const nowhere = join(dirname(home), 'nowhere.cursor');
    symlinkSync(join(dirname(home), 'no-such-dir', 'x'), nowhere);
    const refused = await runCliInProcess(['log', '--cursor-file', nowhere, '--home', home]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      /nowhere\.cursor is a link to .*no-such-dir\/x, which does not exist and cannot be made/,
    );
    assert.ok(lstatSync(nowhere).isSymbolicLink(), 'the link was left as it was');
  });

  it('an operation\'s state reads once: "rejected", never "rejected (rejected)"', () => {
    assert.equal(stateText('rejected', 'rejected'), 'rejected');
    assert.equal(stateText('settled', 'answered'), 'settled (answered)');
    assert.equal(stateText('recorded', null), 'recorded');
  });

  it('a flag that takes a value, given none, is refused: never the default directory instead', async () => {
    const home = tempHome('empty-flag');
    // Were the empty value taken as "no flag", install would plan for this dir (or the real ~/.claude).
    const claude = join(dirname(home), 'claude');
    for (const args of [
      ['install', 'claude', '--dry-run', '--claude-dir', '--home', home],
      ['install', 'claude', '--dry-run', '--claude-dir=', '--home', home],
      ['status', '--codex-home', '--home', home],
      ['log', '--limit', '--home', home],
    ]) {
      const result = await runCliInProcess(args, { env: { CLAUDE_CONFIG_DIR: claude } });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /--(claude-dir|codex-home|limit) needs a value/);
      assert.equal(result.stdout, '', 'nothing planned or printed');
    }
  });
});
