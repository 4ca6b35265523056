// Reading back what was captured: `sessions` lists them with the first thing the user said, and
// `session <key>` prints each turn with the user's words in full; context only when asked for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as c from '../support/capture.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { runCli, tempHome } from '../support/cli.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';
import { wrapText } from '../../source/text-wrap.js';
import { textColumns } from '../../source/text-columns.js';
import type { SessionList, SessionView } from '../../source/api/capture.js';

async function capturedHome(): Promise<string> {
  const home = tempHome('sessions');
  const t = c.copyTranscript(c.claudeTranscriptFixture('01-plain'), c.transcriptDir(home));
  c.replay(home, 'claude', c.hookFiles('claude', '01-plain'), t, 'proc-sessions');
  assert.equal((await c.flush(home)).complete, true);
  return home;
}

describe('reading captured sessions', { timeout: 60_000 }, () => {
  it('sessions lists client, state, directory, turns and the first prompt; session prints the turns', async () => {
    const home = await capturedHome();
    const list = await runCli(['sessions', '--json', '--home', home]);
    assert.equal(list.code, 0, list.stderr);
    const { sessions, total } = JSON.parse(list.stdout) as SessionList;
    assert.equal(total, 1);
    const [session] = sessions;
    assert.equal(session!.client, 'claude');
    assert.equal(session!.state, 'complete');
    assert.ok(session!.firstPrompt && session!.firstPrompt.length > 0, 'the first prompt line');
    const text = await runCliInProcess(['sessions', '--home', home]);
    assert.match(text.stdout, new RegExp(`${session!.sessionKey}  claude  complete  1 turn`));
    assert.ok(text.stdout.includes(`"${session!.firstPrompt}"`));

    const read = await runCliInProcess(['session', session!.sessionKey.slice(0, 6), '--json', '--home', home]);
    assert.equal(read.code, 0, read.stderr);
    const view = JSON.parse(read.stdout) as SessionView;
    assert.equal(view.turns.length, 1);
    const [turn] = view.turns;
    assert.deepEqual(
      turn!.messages.map((m) => m.classification),
      ['evidence'],
      'only what the user said, without --context',
    );
    assert.ok(
      Object.values(turn!.folded).reduce((a, b) => a + b, 0) > 0,
      'the assistant and tool messages are folded into counts',
    );
    // When it was typed: the client record's own time (the fixture's user line), not when the drain sealed it.
    assert.equal(turn!.typedAt, '2026-11-30T20:57:55.991Z');
    assert.notEqual(turn!.recordedAt, turn!.typedAt);
    const printed = await runCliInProcess(['session', session!.sessionKey, '--home', home]);
    assert.match(printed.stdout, /Turn 1 · settled · 2026-11-30 20:57:55 UTC/);
    assert.ok(printed.stdout.includes(turn!.messages[0]!.text!.split('\n')[0]!), 'the user words in full');
    assert.match(printed.stdout, /folded \(--context shows them\)/);
    const withContext = JSON.parse(
      (await runCliInProcess(['session', session!.sessionKey, '--context', '--json', '--home', home])).stdout,
    ) as SessionView;
    assert.ok(
      withContext.turns[0]!.messages.some((m) => m.classification === 'context' && m.kind === 'answer' && m.text),
    );
    assert.deepEqual(withContext.turns[0]!.folded, {});
  });

  it('sessions and session show a terminal escape typed in a prompt as ⟨U+001B⟩; --json keeps it', async () => {
    const home = tempHome('sessions-escape');
    const prompt = 'Colour the log: \u001b[31mERROR\u001b[0m stays red\rhidden';
    const { sessionKey } = queueSession(home, null, [prompt]);
    await c.flush(home);
    const listed = await runCliInProcess(['sessions', '--home', home]);
    const read = await runCliInProcess(['session', sessionKey, '--home', home]);
    for (const text of [listed.stdout, read.stdout]) {
      assert.doesNotMatch(text, /[\u001b\r]/, text);
      assert.match(text, /⟨U\+001B⟩\[31mERROR⟨U\+001B⟩\[0m stays red⟨U\+000D⟩hidden/);
    }
    const json = JSON.parse(
      (await runCliInProcess(['session', sessionKey, '--json', '--home', home])).stdout,
    ) as SessionView;
    assert.equal(json.turns[0]!.messages[0]!.text, prompt, 'the bytes as typed');
  });

  it('status never prints bodies; an unknown session is not found; an empty home says so', async () => {
    const home = await capturedHome();
    const view = JSON.parse(
      (
        await runCliInProcess([
          'session',
          (JSON.parse((await runCliInProcess(['sessions', '--json', '--home', home])).stdout) as SessionList)
            .sessions[0]!.sessionKey,
          '--json',
          '--home',
          home,
        ])
      ).stdout,
    ) as SessionView;
    const status = await runCliInProcess(['status', '--home', home]);
    assert.ok(!status.stdout.includes(view.turns[0]!.messages[0]!.text!), 'status shows no body');
    const missing = await runCliInProcess(['session', 'ffffffffffff', '--home', home]);
    assert.equal(missing.code, 6);
    assert.match(missing.stderr, /No captured session ffffffffffff/);
    const bad = await runCliInProcess(['sessions', '--client', 'vim', '--home', home]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--client is codex, claude or pi, not "vim"/);
    // pi sessions are captured too (its extension): --help offers pi, and the filter takes it.
    const pi = await runCliInProcess(['sessions', '--client', 'pi', '--json', '--home', home]);
    assert.equal(pi.code, 0, pi.stderr);
    assert.deepEqual((JSON.parse(pi.stdout) as SessionList).sessions, [], 'the claude session is not a pi one');
    // In words: none of that client's, not "none yet" with the advice of an empty store.
    const piText = await runCliInProcess(['sessions', '--client', 'pi', '--home', home]);
    assert.equal(piText.code, 0, piText.stderr);
    assert.doesNotMatch(piText.stdout, /No captured sessions yet|Install the hooks/);
    assert.match(piText.stdout, /No pi session was captured; common-memory sessions lists every client's/);
    const claude = await runCliInProcess(['sessions', '--client', 'claude', '--json', '--home', home]);
    assert.equal((JSON.parse(claude.stdout) as SessionList).sessions.length, 1);
  });

  it('the "Older ones" command keeps --client and --limit', async () => {
    const home = tempHome('sessions-pages');
    for (const prompt of ['first of three', 'second of three', 'third of three']) queueSession(home, null, [prompt]);
    await c.flush(home);
    const first = await runCliInProcess(['sessions', '--client', 'codex', '--limit', '2', '--home', home]);
    assert.equal(first.code, 0, first.stderr);
    // At 80 columns the command stands whole on the line under its label.
    const hint = /Older ones:\n {2}common-memory (sessions .*)$/m.exec(first.stdout);
    assert.ok(hint, first.stdout);
    // What it prints is what a person types next: the same filter and page size, then the cursor.
    assert.match(hint[1]!, /^sessions --client codex --limit 2 --after \S+$/);
    const next = await runCliInProcess([...hint[1]!.split(' '), '--home', home]);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stdout, /"first of three"/);
    assert.doesNotMatch(next.stdout, /Older ones/);
  });

  it('past the last page it says there are no older ones, not that nothing was captured', async () => {
    const home = tempHome('sessions-past');
    for (const prompt of ['first of three', 'second of three', 'third of three']) queueSession(home, null, [prompt]);
    await c.flush(home);
    const last = (
      JSON.parse((await runCliInProcess(['sessions', '--json', '--home', home])).stdout) as SessionList
    ).sessions.at(-1)!.sessionKey;
    const past = await runCliInProcess(['sessions', '--after', last, '--home', home]);
    assert.equal(past.code, 0, past.stderr);
    // Three sessions are there: the empty page is the end of the list, not an empty store.
    assert.doesNotMatch(past.stdout, /No captured sessions yet|Install the hooks/);
    assert.match(past.stdout, /No sessions older than .* of 3/);
    const unknown = await runCliInProcess(['sessions', '--after', 'nope', '--home', home]);
    assert.equal(unknown.code, 2);
    // The cursor of `sessions` is the key it printed, not status's nextSessionKey.
    assert.match(
      unknown.stderr,
      /"nope" is not a session key of this store; give a key common-memory sessions printed/,
    );
  });

  it('with nothing captured (no store, or an empty one), sessions names every client captured, pi too, and importing', async () => {
    const empty = tempHome('sessions-first-day');
    const none = await runCliInProcess(['sessions', '--home', empty]);
    assert.equal(none.code, 6);
    const home = tempHome('sessions-empty');
    assert.equal((await runCli(['note', 'a first note', '--home', home])).code, 0);
    const listed = await runCliInProcess(['sessions', '--home', home]);
    assert.equal(listed.code, 0, listed.stderr);
    // As the TUI's empty Sessions screen says: pi is captured too, and a first day often starts
    // with months of conversations already on disk.
    for (const text of [none.stderr, listed.stdout]) {
      assert.match(text, /common-memory install claude\|codex\|pi/, text);
      assert.match(text, /common-memory import claude\|codex\|pi/, text);
    }
  });

  it('at 80 columns but the words typed: the listing, its notes, its commands whole on their lines', async () => {
    const home = tempHome('sessions-eighty');
    queueSession(home, '/tmp/a-repository-with-a-rather-long-name-for-checking-eighty', ['first', 'second']);
    queueSession(home, null, [`The deploy token is ${plantedToken()}`]);
    await c.flush(home);
    queueSession(home, null, ['a turn that waits, no host running']);
    const wide = (text: string) =>
      text.split('\n').filter((line) => textColumns(line) > 80 && !/^ *(common-memory|\S+$)/.test(line.trim()));
    const listed = await runCliInProcess(['sessions', '--client', 'codex', '--limit', '2', '--home', home]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(wide(listed.stdout), [], listed.stdout);
    assert.match(listed.stdout, /^ {2}common-memory sessions --client codex --limit 2 --after \S+$/m);
    assert.match(listed.stdout.replace(/\s+/g, ' '), /Process them now: common-memory flush — or keep/);
    const key = (JSON.parse((await runCliInProcess(['sessions', '--json', '--home', home])).stdout) as SessionList)
      .sessions[1]!.sessionKey;
    const read = await runCliInProcess(['session', key, '--home', home]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /secret finding\(s\) masked/);
    assert.deepEqual(wide(read.stdout), [], read.stdout);
    const empty = tempHome('sessions-eighty-empty');
    assert.equal((await runCli(['note', 'a first note', '--home', empty])).code, 0);
    const none = await runCliInProcess(['sessions', '--home', empty]);
    assert.deepEqual(wide(none.stdout), [], none.stdout);
  });

  it('wraps at word boundaries in columns; a long command stays whole', () => {
    const command = 'npx common-memory install claude --claude-dir /very/long/path/to/a/config/directory';
    const lines = wrapText(`Run this: ${command} and then restart`, 40, '  ', [command]);
    assert.ok(
      lines.some((line) => line.trim() === command),
      lines.join('\n'),
    );
    assert.ok(wrapText(`Run this: ${command}`, 40).length > 2, 'without keep, it would be broken at its spaces');
    for (const line of lines) if (!line.includes(command)) assert.ok(textColumns(line) <= 40, line);
    assert.deepEqual(wrapText('记忆记忆 记忆记忆 记忆记忆', 12), ['记忆记忆', '记忆记忆', '记忆记忆']);
  });
});
