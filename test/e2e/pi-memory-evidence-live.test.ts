// Live: sessions of the real pi with common-memory's extension become candidates whose statements
// cite the user turn they came from, never pi's answer; extracting again creates nothing; a secret
// the user pasted is quarantined and no memory command prints it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textReply } from '../support/fake-openai-server.js';
import { withInstalledPi } from '../support/installed-pi.js';
import { plantedToken } from '../support/memory-corpus.js';
import { DURABLE, extractAndCheck } from '../support/memory-evidence.js';
import { runPrint } from '../support/pi-scenario.js';

const TIMEOUT_MS = 120_000;
const ANSWER = 'Noted, I will keep that in mind.';

test('live pi: two sessions become candidates citing the user turns; the pasted secret is quarantined', {
  timeout: TIMEOUT_MS,
}, async () => {
  const token = plantedToken();
  const replies = [textReply(ANSWER, 2), textReply(ANSWER, 2)];
  await withInstalledPi(replies, TIMEOUT_MS, async ({ dir, home, env }) => {
    for (const prompt of [DURABLE, `Remember that the CI token is ${token} for uploads.`]) {
      const run = await runPrint(['--no-session', '--no-tools'], [prompt], { env, cwd: dir.cwd });
      assert.equal(run.code, 0, run.stderr);
    }
    await extractAndCheck(home, dir.cwd, 'pi', token, ANSWER);
  });
});
