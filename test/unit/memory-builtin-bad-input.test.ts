// serial: asserts wall-clock budgets (milliseconds) that other test files on the same cores would eat.
// The built-in extraction rules on bad input: a turn of 200 sentences, a pasted 64 KiB log, a line
// of 4,000 characters, mixed languages, emoji and code in a sentence. Bounded time, no draft from
// pasted material, no crash, the same drafts every time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DRAFTS_PER_TASK_MAX, draftCandidates } from '../../source/memory/builtin-rules.js';

/** Drafts of one turn and the milliseconds they took (the second of two runs, so the regex compiler is not counted). */
function timed(text: string) {
  draftCandidates([{ evidenceId: 'e1', text }]);
  const started = process.hrtime.bigint();
  const drafts = draftCandidates([{ evidenceId: 'e1', text }]);
  return { drafts, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** Generous for two shared cores; a regular expression gone quadratic takes seconds here. */
const BOUND_MS = 250;

function pastedLog(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const second = String(i % 60).padStart(2, '0');
    const line = [
      `2026-03-02T10:41:${second}.${String(i % 1000).padStart(3, '0')}Z INFO  worker ${i % 7} always retrying job=${i} attempt=3`,
      `2026-03-02T10:41:${second}Z WARN  never got a reply from upstream, use the fallback pool instead (${i})`,
      `    at processJob (/srv/app/src/queue/worker.ts:${i % 400}:17)`,
      `Error: Always use a timeout when calling the billing API`,
      `  ${i % 90}:${i % 30}  warning  Prefer named exports over default exports   import/no-default-export`,
    ][i % 5]!;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

describe('built-in extraction rules on bad input', () => {
  it('a turn of 200 sentences: bounded time, at most the drafts a task may carry, deterministic', () => {
    const kinds = [
      'Keep the handlers thin in service number N.',
      'The cache for shard N lives in redis.',
      'Can you check shard N?',
      'We tried shard N yesterday and it failed.',
    ];
    // Ten sentences a line, as someone types a long message (one line of 200 would be a paste).
    const sentences = Array.from({ length: 200 }, (_, i) => kinds[i % kinds.length]!.replace('N', String(i)));
    const text = Array.from({ length: 20 }, (_, line) => sentences.slice(line * 10, line * 10 + 10).join(' ')).join(
      '\n',
    );
    const { drafts, ms } = timed(text);
    assert.ok(ms < BOUND_MS, `${ms} ms`);
    assert.equal(drafts.length, DRAFTS_PER_TASK_MAX, 'the rules among them are found, up to the cap');
    assert.deepEqual(draftCandidates([{ evidenceId: 'e1', text }]), drafts);
  });

  it('a pasted 64 KiB log full of rule words gives no draft, in bounded time; the rule typed after it does', () => {
    const log = pastedLog(64 * 1024);
    assert.ok(log.length >= 64 * 1024);
    const alone = timed(log);
    assert.ok(alone.ms < BOUND_MS, `${alone.ms} ms`);
    assert.deepEqual(alone.drafts, []);
    const { drafts } = timed(`The worker logs this:\n${log}\nFrom now on, run the queue tests before every deploy.`);
    assert.deepEqual(
      drafts.map((draft) => draft.content),
      ['Run the queue tests before every deploy.'],
    );
  });

  it('a pasted 64 KiB log inside a code fence gives no draft', () => {
    const { drafts, ms } = timed(`\`\`\`\n${pastedLog(64 * 1024)}\n\`\`\``);
    assert.ok(ms < BOUND_MS, `${ms} ms`);
    assert.deepEqual(drafts, []);
  });

  it('a line of 4,000 characters (minified code, a run of words, one endless sentence) gives no draft and no crash', () => {
    const minified = `var a=${'{"always":true,"never":[1,2,3]},'.repeat(200)}`.slice(0, 4000);
    const words = 'always use pnpm in this repo and '.repeat(130).slice(0, 4000);
    const sentence = `Always keep ${'the handlers and '.repeat(240)}thin.`.slice(0, 4000);
    for (const line of [minified, words, sentence]) {
      assert.equal(line.length, 4000);
      const { drafts, ms } = timed(line);
      assert.ok(ms < BOUND_MS, `${ms} ms`);
      assert.deepEqual(drafts, [], line.slice(0, 40));
    }
  });

  it('mixed languages: no crash, the English rule is drafted, the same every time', () => {
    const text =
      'Bitte keine Tabs verwenden. 必ずテストを書いてください。 Always run the linter before pushing. Спасибо!';
    const { drafts } = timed(text);
    assert.ok(
      drafts.some((draft) => draft.content === 'Always run the linter before pushing.'),
      JSON.stringify(drafts),
    );
    assert.deepEqual(draftCandidates([{ evidenceId: 'e1', text }]), drafts);
  });

  it('emoji and code in a sentence: the rule keeps them as typed', () => {
    const { drafts } = timed('Always compare with `===` in `src/**/*.ts`, never `==` 🙏');
    assert.deepEqual(
      drafts.map((draft) => draft.content),
      ['Always compare with `===` in `src/**/*.ts`, never `==` 🙏.'],
    );
  });

  it('lone surrogates, control characters and only punctuation do not crash', () => {
    for (const text of [
      '\ud800 always \udfff use pnpm',
      '\u0000\u0007\u001b[31mnever\u001b[0m',
      '!!!???...',
      '\u200b'.repeat(5000),
    ])
      assert.doesNotThrow(() => draftCandidates([{ evidenceId: 'e1', text }]));
  });
});
