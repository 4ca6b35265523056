// Masking that cannot leak: one pure `maskText` used by every path. Two secrets of different
// lengths in one field, overlapping findings (a token and a finding inside it), and a property test
// with 1–5 real-looking tokens at random positions among multi-byte text (emoji, CJK, combining
// marks): no stored or printed text, and no finding's excerpt, holds 8 characters of any secret.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { storeFiles } from '../../source/home.js';
import {
  MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES,
  MCP_PROPOSAL_MAX_BYTES,
  MCP_PROPOSAL_TITLE_MAX_BYTES,
} from '../../source/limits.js';
import { maskFindings } from '../../source/store/memory/extraction-submit.js';
import { readMemoryReview } from '../../source/store/memory/memory-reads.js';
import { lintText, maskSecret, type SecretFinding } from '../../source/memory/secret-lint.js';
import { maskText, mergeSpans } from '../../source/memory/secret-mask.js';
import { maskedText } from '../../source/screens/memory/review-state.js';
import { openDatabase } from '../../source/store/database.js';
import type { WriterClient } from '../../source/workers/writer-client.js';
import { startInlineWriter } from '../../source/workers/writer-inline.js';
import * as c from '../support/capture.js';
import { gitRepo, runCli, tempHome } from '../support/cli.js';
import { queueSession } from '../support/memory-corpus.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DIGITS = '0123456789';

/** A small deterministic generator (mulberry32), so a failure names a seed that replays it. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = (alphabet: string, n: number) =>
    Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
  return { int, pick };
}
type Random = ReturnType<typeof random>;

/** Tokens in their providers' documented shapes, of different lengths. */
const TOKENS: Array<(r: Random) => string> = [
  (r) => `ghp_${r.pick(BASE62, 36)}`, // GitHub classic personal access token: ghp_ + 36 base62
  (r) => `AKIA${r.pick(BASE32, 16)}`, // AWS access key id: AKIA + 16 of A–Z2–7
  (r) => `xoxb-${r.pick(DIGITS, 12)}-${r.pick(DIGITS, 13)}-${r.pick(BASE62, 24)}`, // Slack bot token
  (r) => `glpat-${r.pick(BASE62, 20)}`, // GitLab personal access token
  (r) => `github_pat_${r.pick(BASE62, 22)}_${r.pick(BASE62, 59)}`, // GitHub fine-grained token
];

/** Multi-byte text around the tokens: emoji (a ZWJ sequence too), CJK, combining marks, newlines. */
const FILLERS = [
  '🙂',
  '👩‍💻',
  '日本語の説明',
  '中文',
  'e\u0301te\u0301',
  'Ç̌',
  '—',
  ' ',
  '\n',
  'note: ',
  '「',
  '」',
  'über',
];

function field(r: Random): { text: string; secrets: string[] } {
  const secrets: string[] = [];
  const parts: string[] = [];
  const filler = () => Array.from({ length: 1 + r.int(3) }, () => FILLERS[r.int(FILLERS.length)]!).join('');
  const count = 1 + r.int(5);
  for (let i = 0; i < count; i++) {
    const token = TOKENS[r.int(TOKENS.length)]!(r);
    secrets.push(token);
    // A separator the token rules accept as a boundary: a space, a newline or a multi-byte character.
    parts.push(filler(), [' ', '\n', '：', '🔑'][r.int(4)]!, token, [' ', '\n', '。', '🙂'][r.int(4)]!);
  }
  parts.push(filler());
  return { text: parts.join(''), secrets };
}

/** A field that fits a proposal's byte bound (drawn again until it does: a cut token is not a token). */
function fieldWithin(r: Random, maxBytes: number): ReturnType<typeof field> {
  for (;;) {
    const drawn = field(r);
    if (Buffer.byteLength(drawn.text, 'utf8') <= maxBytes) return drawn;
  }
}

/** A piece of 8 characters of a secret, if `shown` holds one. */
function leaked(shown: string, secrets: readonly string[]): string | null {
  for (const secret of secrets)
    for (let i = 0; i + 8 <= secret.length; i++)
      if (shown.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return null;
}

const finding = (text: string, offset: number, length: number, rule = 'github-token'): SecretFinding => ({
  rule,
  severity: 'block',
  line: 1,
  column: offset + 1,
  offset,
  length,
  excerpt: maskSecret(text.slice(offset, offset + length)),
});

describe('maskText', () => {
  const r = random(7);
  const long = `ghp_${r.pick(BASE62, 36)}`;
  const short = `AKIA${r.pick(BASE32, 16)}`;

  it('masks two secrets of different lengths in one field, in either order', () => {
    for (const text of [`use ${short} then ${long} ok`, `use ${long} then ${short} ok`]) {
      const found = lintText(text);
      assert.equal(found.length, 2, JSON.stringify(found));
      for (const masked of [maskText(text, found), maskFindings(text, found), maskedText(text)]) {
        assert.equal(leaked(masked, [long, short]), null, masked);
        assert.match(masked, /^use .*then .* ok$/);
      }
    }
  });

  it('a finding inside another (a token with a one-character finding in it) leaves no part of the token', () => {
    // A lint that sees through disguises reports the token over its original span and may also
    // report a character inside it (a zero-width space, say): the spans overlap.
    const text = `key ${long.slice(0, 20)}\u200b${long.slice(20)} end`;
    const outer = finding(text, 4, long.length + 1);
    const inner = finding(text, 24, 1, 'invisible-character');
    for (const found of [
      [outer, inner],
      [inner, outer],
    ]) {
      const masked = maskFindings(text, found);
      assert.equal(leaked(masked, [long, long.slice(20)]), null, masked);
      assert.equal(masked, `key ${maskSecret(text.slice(4, 4 + long.length + 1))} end`);
    }
  });

  it('merges overlapping and touching spans, clips to the text, never splits a surrogate pair', () => {
    const text = 'ab🙂cdefgh';
    const spans = mergeSpans(text, [
      { offset: 3, length: 2 },
      { offset: 5, length: 2 },
      { offset: 9, length: 40 },
      { offset: -3, length: 1 },
    ]);
    assert.deepEqual(
      spans.map(({ start, end }) => [start, end]),
      [
        [2, 7],
        [9, 10],
      ],
    );
    assert.equal(
      maskText(text, [{ offset: 3, length: 1 }], () => '#'),
      'ab#cdefgh',
    );
    assert.equal(maskText('plain', []), 'plain');
  });

  it('property: 1–5 tokens at random places among multi-byte text never survive masking or an excerpt', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const { text, secrets } = field(random(seed));
      const found = lintText(text);
      const shown = [
        maskText(text, found),
        maskFindings(text, found),
        maskedText(text),
        ...found.map((f) => f.excerpt),
      ];
      for (const piece of shown) assert.equal(leaked(piece, secrets), null, `seed ${seed}: ${JSON.stringify(piece)}`);
      // The text around the tokens is kept as it was.
      assert.ok(maskText(text, found).startsWith(text.slice(0, found[0]?.offset ?? text.length)), `seed ${seed}`);
    }
  });
});

describe('masking on the real paths (writer commands, the review read)', () => {
  const home = tempHome('secret-mask');
  let writer: WriterClient | undefined;
  after(async () => writer?.close());

  it('a proposal stores and shows no part of any of 1–5 tokens per field', async () => {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writer = await startInlineWriter(storeFiles(home).core);
    await writer.call('memoryOpen', {});
    const repositoryKey = 'a'.repeat(64);
    const worktreeKey = 'b'.repeat(64);
    const all: string[] = [];
    for (let seed = 1000; seed < 1030; seed++) {
      const r = random(seed);
      const title = fieldWithin(r, MCP_PROPOSAL_TITLE_MAX_BYTES);
      const content = fieldWithin(r, MCP_PROPOSAL_MAX_BYTES);
      const appliesWhen = fieldWithin(r, MCP_PROPOSAL_APPLIES_WHEN_MAX_BYTES);
      all.push(...title.secrets, ...content.secrets, ...appliesWhen.secrets);
      const outcome: { status: string } = await writer.call('memoryProposeCandidate', {
        repositoryKey,
        worktreeKey,
        title: title.text,
        content: content.text,
        type: 'work_method',
        appliesWhen: appliesWhen.text,
        origin: { client: 'test', clientVersion: null, conversation: null },
      });
      assert.equal(outcome.status, 'quarantined', `seed ${seed}`);
    }
    const db = openDatabase(storeFiles(home).memoryState, { readonly: true });
    try {
      const rows = db.prepare('SELECT payload_json, findings_json FROM candidates').all() as Array<{
        payload_json: string;
        findings_json: string;
      }>;
      assert.equal(rows.length, 30);
      for (const row of rows) {
        const payload = JSON.parse(row.payload_json) as { masked: unknown };
        assert.equal(leaked(JSON.stringify(payload.masked), all), null, JSON.stringify(payload.masked));
        assert.equal(leaked(row.findings_json, all), null, row.findings_json);
      }
      const review = readMemoryReview(db, { owner: null, after: null, limit: 100 });
      assert.equal(review.candidates.length, 30);
      assert.equal(leaked(JSON.stringify(review.candidates), all), null);
    } finally {
      db.close();
    }
  });
});

describe('masking through the shipped bin (extraction with the builtin runner → review)', () => {
  after(() => c.closeStores());

  it('a turn with two tokens of different lengths in one sentence: the quarantined candidate shows neither', async () => {
    const home = tempHome('secret-mask-cli');
    const repo = gitRepo(home, 'repo');
    const r = random(99);
    const secrets = [`AKIA${r.pick(BASE32, 16)}`, `ghp_${r.pick(BASE62, 36)}`];
    queueSession(home, repo, [`From now on, always deploy with ${secrets[0]} and ${secrets[1]} 🙂 in this repo.`]);
    await c.flush(home);
    const extracted = await runCli(['memory', 'extract', '--home', home, '--since', '2026-01-01', '--json'], {
      cwd: repo,
    });
    assert.equal(extracted.code, 0, extracted.stderr);
    assert.equal(JSON.parse(extracted.stdout).candidates.quarantined, 1);
    for (const args of [['--json'], []]) {
      const review = await runCli(['memory', 'review', '--home', home, ...args], { cwd: repo });
      assert.equal(review.code, 0, review.stderr);
      assert.equal(leaked(review.stdout, secrets), null, review.stdout);
      assert.match(review.stdout, /deploy with AKIA…\[20 chars\] and ghp_…\[40 chars\] 🙂 in this repo/);
    }
  });

  it('a token wrapped over two lines: the draft made of the first line holds its part, quarantined and masked', async () => {
    const home = tempHome('secret-mask-wrapped');
    const repo = gitRepo(home, 'repo');
    const token = `ghp_${random(7).pick(BASE62, 36)}`;
    // The builtin runner drafts line by line: its draft holds only the first 20 characters.
    queueSession(home, repo, [`Always deploy with the token ${token.slice(0, 20)}\n${token.slice(20)} in CI.`]);
    await c.flush(home);
    const extracted = await runCli(['memory', 'extract', '--home', home, '--since', '2026-01-01', '--json'], {
      cwd: repo,
    });
    assert.equal(extracted.code, 0, extracted.stderr);
    const review = await runCli(['memory', 'review', '--home', home, '--json'], { cwd: repo });
    const [candidate] = JSON.parse(review.stdout).candidates;
    assert.equal(candidate.status, 'quarantined', review.stdout);
    assert.equal(leaked(review.stdout, [token.slice(0, 20), token.slice(20)]), null, review.stdout);
    assert.match(candidate.content, /^Always deploy with the token ghp_…\[20 chars\]/);
    assert.deepEqual(
      candidate.findings.map((f: { rule: string; excerpt: string }) => `${f.rule} ${f.excerpt}`),
      ['github-token ghp_…[20 chars]', 'github-token ghp_…[20 chars]'],
    );
    const prepare = await runCli(['memory', 'prepare', candidate.candidateId, '--home', home], { cwd: repo });
    assert.equal(prepare.code, 11, prepare.stderr);
  });
});
