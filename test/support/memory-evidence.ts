// The check of the live evidence tests: after a client's two sessions (a durable statement, and a
// secret pasted in a sentence to remember), the memory commands as a user runs them — flush (drain
// and extraction), review, the cited turns read back — and extracting again.
import assert from 'node:assert/strict';
import { runCli } from './cli.js';

export const DURABLE = 'Always use named exports in TypeScript modules.';

interface Reviewed {
  candidateId: string;
  status: 'draft' | 'quarantined';
  content: string;
  statements: Array<{ text: string; evidence: Array<{ client: string; sessionKey: string; turnKey: string }> }>;
  findings: Array<{ rule: string; severity: string; excerpt: string }>;
}

/** After the client's two sessions: drain, extract, review, read the cited turns, extract again. */
export async function extractAndCheck(
  home: string,
  cwd: string,
  client: string,
  token: string,
  answer: string,
): Promise<void> {
  // What the memory commands printed; `session` is the capture reader, which shows the user's turn as typed.
  const printed: string[] = [];
  const cli = async (...args: string[]) => {
    const result = await runCli([...args, '--home', home, '--json'], { cwd });
    if (args[0] !== 'session') printed.push(result.stdout, result.stderr);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  // flush processes everything settled all the way to candidates, as a host would by itself.
  const flushed = await cli('flush');
  assert.equal(flushed.extraction.state, 'done', JSON.stringify(flushed));
  assert.equal(flushed.extraction.candidates.created, 2, JSON.stringify(flushed));
  assert.equal(flushed.extraction.candidates.quarantined, 1);
  const first = await cli('memory', 'extract');
  assert.equal(first.candidates.created, 0, 'memory extract after flush finds nothing new');

  const review = await cli('memory', 'review', '--scope', 'user');
  const candidates = review.candidates as Reviewed[];
  assert.deepEqual(candidates.map((c) => c.status).sort(), ['draft', 'quarantined']);
  for (const candidate of candidates) {
    assert.ok(!candidate.content.includes(answer), "the assistant's answer is never a memory");
    for (const statement of candidate.statements) {
      assert.ok(statement.evidence.length > 0, `${candidate.candidateId} cites a turn`);
      for (const ref of statement.evidence) {
        assert.equal(ref.client, client);
        const session = await cli('session', ref.sessionKey);
        const turn = (session.turns as Array<{ turnKey: string; messages: Array<Record<string, unknown>> }>).find(
          (t) => t.turnKey === ref.turnKey,
        );
        assert.ok(turn, `the cited turn ${ref.turnKey} is in the captured session`);
        const said = turn.messages.filter((m) => m.classification === 'evidence').map((m) => String(m.text));
        assert.ok(said.length > 0 && turn.messages.some((m) => m.classification === 'evidence' && m.role === 'user'));
        // The statement is the user's own sentence of that turn (masked where a secret was).
        const words = statement.text
          .replace(/…\[\d+ chars\]/, '')
          .split(/\W+/)
          .filter((w) => w.length > 3);
        assert.ok(
          words.every((word) => said.some((text) => text.includes(word))),
          `"${statement.text}" comes from what the user said in ${ref.turnKey}: ${JSON.stringify(said)}`,
        );
      }
    }
  }
  const draft = candidates.find((c) => c.status === 'draft')!;
  assert.equal(draft.content, DURABLE);
  const quarantined = candidates.find((c) => c.status === 'quarantined')!;
  assert.ok(quarantined.findings.some((f) => f.rule === 'github-token' && f.severity === 'block'));

  // The same window again (the default after a run would be empty): everything in it is planned already.
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const again = await cli('memory', 'extract', '--since', since);
  assert.deepEqual([again.tasks.created, again.candidates.created], [0, 0], 'extracting again creates nothing');
  const lint = await runCli(['memory', 'review', '--home', home], { cwd });
  printed.push(lint.stdout, lint.stderr);
  assert.ok(
    printed.every((text) => !text.includes(token)),
    'no memory command printed the secret',
  );
}
