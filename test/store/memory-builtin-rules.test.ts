// serial: asserts wall-clock budgets (milliseconds) that other test files on the same cores would eat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  draftCandidates,
  DRAFTS_PER_TASK_MAX,
  type DraftType,
  matchStatement,
  proseLines,
} from '../../source/memory/builtin-rules.js';
import { scoreExtraction } from '../bench/extraction-rules.js';

// Durable statements a user makes to a coding agent, with the type each should become.
const positives: [utterance: string, type: DraftType][] = [
  ['Remember that the staging database is reset every Sunday night.', 'work_fact'],
  ['Please remember that we deploy only from the release branch.', 'work_fact'],
  ['Keep in mind that the CI runners have only 2 cores.', 'work_fact'],
  ['Note that the public API is versioned under /v2.', 'work_fact'],
  ['FYI the integration tests need Docker running locally.', 'work_fact'],
  ['Remember to run prettier before every commit.', 'work_method'],
  ['Never forget to update CHANGELOG.md before each release.', 'work_method'],
  ['Remember to rotate the signing key when the quarter ends.', 'work_task'],
  ['From now on, use pnpm instead of npm in this repo.', 'work_method'],
  ['Going forward, write commit messages in the imperative mood.', 'work_method'],
  ['Put new React components in their own folder from now on.', 'work_method'],
  ['In the future, add a regression test for every bug fix.', 'work_method'],
  ['Always use named exports in TypeScript modules.', 'work_method'],
  ['Never use `any` in the public types.', 'work_method'],
  ['You should always run the linter before pushing.', 'work_method'],
  ['We never squash merge feature branches.', 'work_method'],
  ['Please always ask before deleting files outside the workspace.', 'work_method'],
  ['Make sure you always pin dependency versions exactly.', 'work_method'],
  ['I want you to always explain a migration before running it.', 'work_method'],
  ['Database migrations should always be reversible.', 'work_method'],
  ["Don't use default exports.", 'work_method'],
  ['Do not commit generated files under dist/.', 'work_method'],
  ["Please don't add emojis to commit messages.", 'work_method'],
  ["We don't use Redux anymore; state lives in Zustand stores.", 'work_method'],
  ["You shouldn't mock the database in integration tests.", 'work_method'],
  ["I don't want any new dependencies without asking first.", 'work_method'],
  ['Only use the logger from src/log.ts, never console.log.', 'work_method'],
  ['I prefer small pull requests over big ones.', 'work_method'],
  ['We prefer composition over inheritance in the service layer.', 'work_method'],
  ['Prefer async/await to raw promise chains.', 'work_method'],
  ["I'd rather have explicit loops than clever reduce calls.", 'work_method'],
  ['Tabs are preferred over spaces in Go files.', 'work_method'],
  ['We use Vitest for unit tests and Playwright for end-to-end tests.', 'work_fact'],
  ['Here we use Postgres 16 for everything, including queues.', 'work_fact'],
  ['Our team uses conventional commits for the changelog.', 'work_fact'],
  ['We deploy to Fly.io with a blue-green strategy.', 'work_fact'],
  ['Our convention is kebab-case for file names.', 'work_method'],
  ['The team convention is one component per file.', 'work_method'],
  ['Our naming rule is that booleans start with is or has.', 'work_method'],
  ['We decided to drop support for Node 18.', 'work_fact'],
  ["We've agreed that feature flags live in LaunchDarkly, not in env vars.", 'work_fact'],
  ["Let's go with zod for all runtime validation.", 'work_fact'],
  ["We're moving away from Jest to node:test.", 'work_fact'],
  ['Actually, the API server listens on port 8080, not 3000.', 'work_fact'],
  ['Correction: the tests live in test/, there is no spec/ folder.', 'work_fact'],
  ['The default branch is main, not master.', 'work_fact'],
  ['Secrets must never be written to the logs.', 'work_method'],
  ['The hook must not block for more than 100 ms.', 'work_fact'],
  ['Every public function is required to have a doc comment.', 'work_fact'],
  ['The database migrations live in source/store/schema.', 'work_artifact'],
  ['Shared fixtures are kept in test/fixtures/.', 'work_artifact'],
  ['Run the full test suite before every release.', 'work_method'],
  ['Ok, and from now on please reply in British English.', 'work_method'],
  // A standing rule said as a request, however the request is spelled.
  ['please always run the tests before you push', 'work_method'],
  ['Plz always run go test with -race', 'work_method'],
  ['pls never commit straight to main', 'work_method'],
];

// What must never become a memory: questions, one-off requests, pasted material, chatter.
const negatives: string[] = [
  'Fix this bug.',
  'Run the tests.',
  'Can you add a test for the parser?',
  'What does this function do?',
  'Why is the build failing on CI?',
  'Should we always use pnpm here?',
  'Do you remember what we decided about the cache?',
  'Please rename foo to bar in utils.ts.',
  "Let's look at the logs first.",
  'Try again with the --verbose flag.',
  'Show me the diff.',
  'Thanks, that works!',
  'ok',
  'yes, go ahead',
  'Never mind, I figured it out.',
  "Don't worry about the failing lint for now.",
  "Don't do that.",
  'Remove it and try again.',
  "Don't change anything else in this PR.",
  'This always fails when I run it on my laptop.',
  'It never finishes on the first try.',
  'I always get this error after a rebase.',
  'Use the other approach for now.',
  'Keep that change but revert the rest.',
  "I don't know why the test is flaky.",
  "I don't think that's right.",
  'The error is in src/parser.ts at line 42.',
  'Commit it.',
  'We use it in three places.',
  'How do we deploy to staging?',
  'Is the default branch main or master?',
  'Could you always run the linter?',
  '```ts\nexport default function always() { return never(); }\n```',
  '    at Object.<anonymous> (/app/src/index.js:10:15)\n    at Module._compile (node:internal/modules/cjs/loader:1105:14)',
  'Traceback (most recent call last):\n  File "main.py", line 3, in <module>\n    raise ValueError("never use this")',
  '2024-05-01T10:00:00Z ERROR db: connection refused, always retrying',
  'npm WARN deprecated: always-auth is not a valid npm option',
  'error TS2322: Type string is not assignable to type number.',
  'src/app.ts:12:5 - error: Do not use any',
  '> Always use tabs\n> Never use spaces',
  '$ npm test -- --always-fail',
  '- const a = 1;\n+ const a = 2;',
  'const config = { always: true, never: false };',
  '| rule | value |\n| always | never |',
  'Remember the milk.',
  'Actually, can you just revert the last commit?',
  'No, that is wrong.',
  'Make the button blue.',
  'Deploy the current branch to staging.',
  'I prefer this one.',
  'Please review the changes above.',
  // Requests for this turn: a command to run, a file to open, a test fixture's tool prompt.
  'USE_BASH please run echo hi',
  'please run the tests',
  'can you open foo.ts',
  'run echo hi',
  'Plz run make and show output',
  'Please, run npm ci and then npm run build.',
  'pls run go test ./internal/... and show me the output',
  'kindly run the build and paste the log',
];

describe('built-in extraction rules: durable statements become drafts of the right type', () => {
  for (const [utterance, type] of positives) {
    it(`${utterance} → ${type}`, () => {
      const drafts = draftCandidates([{ evidenceId: 'ev-1', text: utterance }]);
      assert.equal(drafts.length, 1, `one draft from ${JSON.stringify(utterance)}: ${JSON.stringify(drafts)}`);
      const [draft] = drafts;
      assert.equal(draft!.type, type);
      assert.deepEqual(draft!.statements, [{ text: draft!.content, evidenceIds: ['ev-1'] }]);
      assert.ok(draft!.priority >= 0 && draft!.priority <= 100 && Number.isInteger(draft!.priority));
      assert.ok(draft!.confidence > 0 && draft!.confidence <= 1);
    });
  }
  it('has at least 40 positive cases', () => assert.ok(positives.length >= 40));
});

describe('built-in extraction rules: questions, requests and pasted material are not memories', () => {
  for (const utterance of negatives) {
    it(JSON.stringify(utterance.slice(0, 60)), () => {
      assert.deepEqual(draftCandidates([{ evidenceId: 'ev-1', text: utterance }]), []);
    });
  }
  it('has at least 40 negative cases', () => assert.ok(negatives.length >= 40));
});

describe('built-in extraction rules on the labelled utterances', () => {
  it('keep no question, request or paste (precision 1) and find at least 90% of the durable statements', () => {
    const score = scoreExtraction('extraction-utterances.jsonl');
    assert.ok(score.utterances >= 60);
    assert.deepEqual(score.wronglyKept, []);
    assert.ok(score.recall >= 0.9, `recall ${score.recall}; missed ${JSON.stringify(score.missed)}`);
  });
});

describe('draftCandidates', () => {
  it('strips the trigger: "remember that X" becomes X', () => {
    assert.equal(
      matchStatement('Remember that the staging database is reset every Sunday night.')?.content,
      'The staging database is reset every Sunday night.',
    );
    assert.equal(
      matchStatement('remember to run prettier before every commit')?.content,
      'Run prettier before every commit.',
    );
  });

  it('finds the statement in a turn that also pastes a log and asks a question', () => {
    const text = [
      'The build broke again:',
      '```',
      'npm ERR! code ELIFECYCLE',
      'Always use tabs',
      '```',
      '    at run (/repo/build.js:1:1)',
      'Why does this happen? From now on, run `npm ci` instead of `npm install` in CI.',
    ].join('\n');
    const drafts = draftCandidates([{ evidenceId: 'turn-7', text }]);
    assert.deepEqual(
      drafts.map((draft) => draft.content),
      ['Run `npm ci` instead of `npm install` in CI.'],
    );
    assert.deepEqual(drafts[0]!.statements[0]!.evidenceIds, ['turn-7']);
  });

  it('the same statement in two turns is one draft citing both turns, in order', () => {
    const drafts = draftCandidates([
      { evidenceId: 'b', text: 'Always use named exports.' },
      { evidenceId: 'a', text: 'Fix the test.' },
      { evidenceId: 'c', text: 'always use named exports' },
      { evidenceId: 'b', text: 'Always use named exports!' },
    ]);
    assert.equal(drafts.length, 1);
    assert.deepEqual(drafts[0]!.statements[0]!.evidenceIds, ['b', 'c']);
  });

  it('each statement cites only the turn it came from', () => {
    const drafts = draftCandidates([
      { evidenceId: 'one', text: 'We use pnpm for the workspace.' },
      { evidenceId: 'two', text: "Don't use default exports." },
    ]);
    const cited = Object.fromEntries(drafts.map((draft) => [draft.content, draft.statements[0]!.evidenceIds]));
    assert.deepEqual(cited, { 'We use pnpm for the workspace.': ['one'], "Don't use default exports.": ['two'] });
  });

  it('keeps at most 8 drafts, the highest priority first, ties in order of appearance', () => {
    const turns = positives.map(([text], index) => ({ evidenceId: `ev-${index}`, text }));
    const drafts = draftCandidates(turns);
    assert.equal(drafts.length, DRAFTS_PER_TASK_MAX);
    for (let i = 1; i < drafts.length; i += 1) assert.ok(drafts[i - 1]!.priority >= drafts[i]!.priority);
    assert.deepEqual(draftCandidates(turns), drafts, 'deterministic');
  });

  it('several sentences of one turn can each be a draft', () => {
    const drafts = draftCandidates([
      { evidenceId: 'x', text: 'We use Vitest for unit tests. Never use `any`. Can you fix the build?' },
    ]);
    assert.deepEqual(drafts.map((draft) => draft.content).sort(), [
      'Never use `any`.',
      'We use Vitest for unit tests.',
    ]);
  });

  it('keeps the prose lines of a turn, drops code, logs, diffs and quotes', () => {
    const text =
      'Please look:\n```\ncode here\n```\n2024-01-01 10:00:00 INFO boot\n> quoted\n+added line\nAnd my own words.';
    assert.deepEqual(proseLines(text), ['Please look:', 'And my own words.']);
  });

  it('no turns, no drafts', () => assert.deepEqual(draftCandidates([]), []));

  it('a turn of a megabyte of repeated triggers takes well under a second and is not a memory', () => {
    for (const unit of ['always ', 'Remember that ', 'we use ', '  at x ', 'The a b c d e f g ']) {
      const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const start = process.hrtime.bigint();
      const drafts = draftCandidates([{ evidenceId: 'e', text }]);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      assert.ok(ms < 1000, `${JSON.stringify(unit)}: ${ms} ms`);
      assert.deepEqual(drafts, []);
    }
  });
});
