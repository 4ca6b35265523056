// Listings mask what the secret lint finds: `sessions` (the first prompt) and `search` (snippets),
// in text and --json, never print a token the user typed; `session <key>` masks it by default, says
// so, and `--reveal` shows the text as typed. The first listing goes through the shipped bin, the
// others call the CLI in-process (support/cli-in-process.ts), without a host and against a host
// process. The snippet masking is also checked on its own: a snippet that starts inside a token or
// highlights a word of it shows no 8 characters of it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { maskedFirstLine, maskSnippet, SNIPPET_MARKS } from '../../source/memory/listing-mask.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import * as c from '../support/capture.js';
import { plantedToken, queueSession } from '../support/memory-corpus.js';

after(() => c.closeStores());

const awsKeyId = () =>
  `AKIA${[...randomBytes(16)].map((byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('')}`;

/** A piece of 8 characters of a secret, if `shown` holds one. */
function leaked(shown: string, secrets: readonly string[]): string | null {
  for (const secret of secrets)
    for (let i = 0; i + 8 <= secret.length; i++)
      if (shown.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return null;
}

describe('listings mask secrets (CLI)', () => {
  it('sessions and search never print the token; session <key> masks it unless --reveal', async () => {
    const home = tempHome('listing-mask');
    const repo = gitRepo(home, 'repo');
    const github = plantedToken();
    const aws = awsKeyId();
    const secrets = [github, aws];
    const session = queueSession(home, repo, [
      `Deploy with ${github} and the key id ${aws} 🙂 from the release box.`,
      'Then run the smoke tests on the release box.',
    ]);
    await c.flush(home);
    const cli = (args: string[]) => runCliInProcess([...args, '--home', home], { cwd: repo });

    const sessions = await runCli(['sessions', '--home', home], { cwd: repo });
    assert.equal(sessions.code, 0, sessions.stderr);
    assert.equal(leaked(sessions.stdout, secrets), null, sessions.stdout);
    assert.match(
      sessions.stdout,
      /"Deploy with ghp_…\[40 chars\] and the key id AKIA…\[20 chars\] 🙂 from the release box\."/,
    );
    const sessionsJson = await cli(['sessions', '--json']);
    assert.equal(leaked(sessionsJson.stdout, secrets), null);
    assert.match(JSON.parse(sessionsJson.stdout).sessions[0].firstPrompt, /^Deploy with ghp_…\[40 chars\]/);

    // A query on the words around the token, and one that highlights a word inside it.
    for (const query of ['deploy release', 'ghp', github.slice(4, 20)]) {
      const search = await cli(['search', query]);
      assert.equal(search.code, 0, search.stderr);
      assert.equal(leaked(search.stdout, secrets), null, `${query}: ${search.stdout}`);
      const json = await cli(['search', query, '--json']);
      assert.equal(leaked(json.stdout, secrets), null, `${query}: ${json.stdout}`);
    }
    const found = JSON.parse((await cli(['search', 'deploy', '--json'])).stdout).results;
    assert.equal(found.length, 1);
    assert.match(found[0].snippet, /\[Deploy\] with ghp_…\[40 chars\] and the key id AKIA…\[20 chars\]/);

    const read = await cli(['session', session.sessionKey]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(leaked(read.stdout, secrets), null, read.stdout);
    assert.match(read.stdout, /Deploy with ghp_…\[40 chars\]/);
    // Wrapped to 80 columns: read as one text.
    assert.match(
      read.stdout.replace(/\s+/g, ' '),
      new RegExp(
        `2 secret finding\\(s\\) masked; common-memory session ${session.sessionKey} --reveal shows the text as typed\\.`,
      ),
    );
    const readJson = JSON.parse((await cli(['session', session.sessionKey, '--json'])).stdout);
    assert.equal(leaked(JSON.stringify(readJson), secrets), null);
    assert.deepEqual([readJson.revealed, readJson.secretsMasked], [false, 2]);

    const revealed = await cli(['session', session.sessionKey, '--reveal']);
    assert.equal(revealed.code, 0, revealed.stderr);
    assert.ok(revealed.stdout.includes(github) && revealed.stdout.includes(aws), 'shown as typed');
    assert.match(revealed.stdout, /Shown as typed \(--reveal\): secrets are not masked\./);
    const revealedJson = JSON.parse((await cli(['session', session.sessionKey, '--reveal', '--json'])).stdout);
    assert.deepEqual([revealedJson.revealed, revealedJson.secretsMasked], [true, 0]);
    assert.ok(revealedJson.session.firstPrompt.includes(github));

    // The same through a running host's HTTP API (the flag crosses it; the masking is the API's).
    const host = await startHost(home);
    try {
      const viaHost = await cli(['sessions', '--json']);
      assert.equal(viaHost.code, 0, viaHost.stderr);
      assert.equal(leaked(viaHost.stdout, secrets), null);
      const searched = await cli(['search', 'deploy', '--json']);
      assert.equal(leaked(searched.stdout, secrets), null);
      assert.match(JSON.parse(searched.stdout).results[0].snippet, /ghp_…\[40 chars\]/);
      const masked = JSON.parse((await cli(['session', session.sessionKey, '--json'])).stdout);
      assert.deepEqual([masked.revealed, masked.secretsMasked], [false, 2]);
      const shown = JSON.parse((await cli(['session', session.sessionKey, '--reveal', '--json'])).stdout);
      assert.deepEqual([shown.revealed, shown.secretsMasked], [true, 0]);
      assert.ok(JSON.stringify(shown).includes(github));
    } finally {
      assert.equal(await stopHost(host.child), 0);
    }
  });
});

/** Every highlight opened is closed once, the masks' own brackets within them. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '[') depth += 1;
    else if (char === ']' && --depth < 0) return false;
  }
  return depth === 0;
}

describe('snippet and first-line masking', () => {
  const { open, close, ellipsis } = SNIPPET_MARKS;
  const github = plantedToken();
  const body = `日本語 ok: the build box takes ${github} as its credential 👩‍💻 and nothing else.`;
  const at = body.indexOf(github);

  it('a snippet cut anywhere around or inside the token, with a highlight anywhere, shows none of it', () => {
    for (let start = 0; start <= at + github.length; start += 3) {
      for (const end of [at + 10, at + github.length - 5, at + github.length + 8, body.length]) {
        if (end <= start) continue;
        const piece = body.slice(start, end);
        for (const mark of [0, 4, piece.length >> 1]) {
          const marked = `${start > 0 ? ellipsis : ''}${piece.slice(0, mark)}${open}${piece.slice(mark, mark + 3)}${close}${piece.slice(mark + 3)}${end < body.length ? ellipsis : ''}`;
          const shown = maskSnippet(body, marked);
          assert.equal(leaked(shown, [github]), null, `${start}-${end}/${mark}: ${shown}`);
          assert.doesNotMatch(shown, /[\u0001-\u0003]/);
          assert.ok(balanced(shown), `${start}-${end}/${mark}: a highlight left open or closed twice: ${shown}`);
        }
      }
    }
  });

  it('a highlight that ends inside a masked token closes after its mask', () => {
    // A password's first word matched: its highlight's end fell inside the masked span and was
    // dropped, leaving "[Tr0u…[16 chars] and …" open.
    const said = 'the staging box password is Tr0ub4dor-Kx9!pQ and the user is deploy';
    const secret = said.slice(said.indexOf('Tr0'), said.indexOf(' and'));
    const marked = said.replace(secret, `${open}Tr0ub4dor${close}-Kx9!pQ`);
    const shown = maskSnippet(said, marked);
    assert.equal(leaked(shown, [secret]), null, shown);
    assert.match(shown, /is \[Tr0u…\[16 chars\]\] and the user/);
    // One that opens inside the mask and ends after it opens where the mask ends.
    const later = said.replace(`${secret} and`, `Tr0ub4dor-${open}Kx9!pQ and${close}`);
    assert.match(maskSnippet(said, later), /is Tr0u…\[16 chars\]\[ and\] the user/);
  });

  it('text around a masked token keeps its words and highlights', () => {
    const marked = `${ellipsis}the ${open}build${close} box takes ${github} as its ${open}credential${close}${ellipsis}`;
    assert.equal(maskSnippet(body, marked), '…the [build] box takes ghp_…[40 chars] as its [credential]…');
    assert.equal(maskSnippet('no secret here', `no ${open}secret${close} here`), 'no [secret] here');
  });

  it('a first line cut short still masks a token that runs past the cut', () => {
    const long = `${'a '.repeat(90)}key ${github} tail`;
    const line = maskedFirstLine(long, 200);
    assert.equal(leaked(line, [github]), null, line);
    assert.ok(line.length <= 200);
  });
});
