// The time from a turn's end to its candidate with the service running (issue 31): `common-memory
// host` — what the service unit starts — serves a data home; a Codex session in a git repository
// says one durable rule a turn, through the real hook processes of the shipped bin and a rollout
// file that grows as Codex writes it. A turn ends when its Stop hook has answered; its candidate is
// there when `memory review` (asked of the host, as a person would) lists one candidate more.
// Reported: the median and the slowest over CM_BENCH_TURNS turns (default 20), beside the floor of
// the same run — the Stop hook's own time, the part a turn's end already costs.
// `npm run bench -- turn-candidate`
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_PROMPT } from '../support/memory-corpus.js';
import { hookBin, hookFiles, payloadFor, rolloutFixture } from '../support/capture.js';
import { gitRepo, runCli, startHost, stopHost, tempHome } from '../support/cli.js';
import { median, percentile, report } from './measure.js';

const TURNS = Number(process.env['CM_BENCH_TURNS'] ?? 20);
/** Automatic extraction looks every 2 s at turns sealed 2 s ago: a turn with no candidate by then drafted none. */
const WAIT_MS = 15_000;
const POLL_MS = 25;

/** Durable rules on twenty different subjects: each a candidate of its own, none a duplicate of another. */
const RULES = [
  'From now on, use pnpm instead of npm in this repo.',
  'Always run the type checker before you commit anything here.',
  'Never push directly to the main branch; open a pull request instead.',
  'We keep database migrations in db/migrations and never edit an applied one.',
  'Please write commit messages in the imperative mood from now on.',
  'Our API handlers must return problem+json bodies for every error.',
  'Use tabs, not spaces, for indentation in the Makefile.',
  'Do not add new runtime dependencies without asking me first.',
  'Every public function in this package needs a doc comment.',
  'Log lines must never contain user email addresses.',
  'Integration tests live under tests/integration and run with make itest.',
  'Prefer early returns over nested if blocks in this codebase.',
  'The staging deploy only happens from the release branch.',
  'Keep React components under two hundred lines; split bigger ones.',
  'Feature flags are read through the flags service, never from env directly.',
  'Always pin Docker base images to a digest in our Dockerfiles.',
  'Dates in the JSON API are ISO 8601 strings in UTC, always.',
  'Do not mock the clock in unit tests; inject a clock instead.',
  'Name branches after the ticket, like PROJ-123-short-title.',
  'Run the formatter on save; unformatted files fail the CI check.',
];

/** The recorded Codex rollout cut into its header and its one turn, to be repeated with other words. */
function rolloutParts(): { header: string; turn: string[]; turnId: string; sessionId: string } {
  const lines = readFileSync(rolloutFixture('a-simple-one-turn.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
  const first = lines.findIndex((line) => line.includes('"task_started"'));
  const turn = lines.slice(first, lines.findIndex((line) => line.includes('"task_complete"')) + 1);
  const turnId = (JSON.parse(turn[0]!) as { payload: { turn_id: string } }).payload.turn_id;
  const sessionId = (JSON.parse(lines[0]!) as { payload: { id: string } }).payload.id;
  return { header: lines[0]!, turn, turnId, sessionId };
}

/** The rollout's line numbering, which goes on across turns (the header is 0). */
let ordinal = 0;

/** One turn of the rollout with `prompt` as the user's words and `id` as its turn id. */
function turnLines(parts: ReturnType<typeof rolloutParts>, id: string, prompt: string, n: number): string {
  const escaped = JSON.stringify(prompt).slice(1, -1);
  return `${parts.turn
    .map((line) =>
      line
        .split(parts.turnId)
        .join(id)
        .split(`"text":"${FIXTURE_PROMPT}"`)
        .join(`"text":"${escaped}"`)
        .replace(/"ordinal":\d+/, () => `"ordinal":${++ordinal}`)
        .replace(/"id":"(msg|rs|fc)_[^"]*"/g, (_m, p: string) => `"id":"${p}_${n}"`),
    )
    .join('\n')}\n`;
}

/** How many candidates `memory review` lists (the extractor words a candidate its own way, so counted, not matched). */
async function reviewCount(home: string, repo: string): Promise<number> {
  const review = await runCli(['memory', 'review', '--json', '--home', home], { cwd: repo });
  if (review.code !== 0) throw new Error(`memory review failed: ${review.stderr}`);
  return (JSON.parse(review.stdout) as { candidates: unknown[] }).candidates.length;
}

export async function runTurnCandidateBench(): Promise<void> {
  const home = tempHome('cm-bench-turn-candidate');
  const repo = gitRepo(home, 'repo');
  const parts = rolloutParts();
  const rollout = join(home, '..', `rollout-2026-12-01T10-00-00-${parts.sessionId}.jsonl`);
  writeFileSync(rollout, `${parts.header}\n`);
  const [start, prompt, stop] = ['SessionStart', 'UserPromptSubmit', 'Stop'].map(
    (event) => hookFiles('codex', 'a').find((file) => file.includes(event))!,
  );
  const instance = 'bench-turn-candidate';
  const host = await startHost(home);
  const latencies: number[] = [];
  const hookTimes: number[] = [];
  let listed = 0;
  let undrafted = 0;
  try {
    await hookBin(home, 'codex', payloadFor(start!, rollout, { cwd: repo, session_id: parts.sessionId }), instance);
    for (let n = 0; n < TURNS; n++) {
      const rule = RULES[n % RULES.length]!;
      const turnId = `bench-turn-${n}`;
      await hookBin(
        home,
        'codex',
        payloadFor(prompt!, rollout, { cwd: repo, session_id: parts.sessionId, turn_id: turnId, prompt: rule }),
        instance,
      );
      appendFileSync(rollout, turnLines(parts, turnId, rule, n));
      const hookStart = performance.now();
      const stopped = await hookBin(
        home,
        'codex',
        payloadFor(stop!, rollout, { cwd: repo, session_id: parts.sessionId, turn_id: turnId }),
        instance,
      );
      const ended = performance.now();
      if (stopped.code !== 0) throw new Error(`the Stop hook failed: ${stopped.stderr}`);
      hookTimes.push(ended - hookStart);
      for (;;) {
        const now = await reviewCount(home, repo);
        if (now > listed) {
          listed = now;
          latencies.push(performance.now() - ended);
          break;
        }
        // The built-in extractor drafts most rules, not all (its recall is measured elsewhere).
        if (performance.now() - ended > WAIT_MS) {
          undrafted += 1;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  } finally {
    await stopHost(host.child);
  }
  report([
    {
      name: `turn end (Stop hook answered) to its candidate in memory review, service running (median of the ${latencies.length} of ${TURNS} turns drafted; ${undrafted} drafted nothing in ${WAIT_MS / 1000} s)`,
      value: `${median(latencies).toFixed(0)} ms (slowest ${Math.max(...latencies).toFixed(0)} ms, p90 ${percentile(latencies, 90).toFixed(0)} ms)`,
      floor: `${median(hookTimes).toFixed(0)} ms (the Stop hook itself)`,
      target: 'reported',
      met: null,
    },
  ]);
}
