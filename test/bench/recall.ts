// Recall p95 (`recall-rrf@1`: two FTS5 BM25 queries of 3·k each over approved entries and
// candidates, fused by RRF) on a memory-state with N candidates and N approved entries, beside
// its floor measured in the same run: one plain FTS5 BM25 query of the same text (every term,
// OR-joined, k rows) over the candidates alone — and, for comparison, one query of the pruned
// expression recall runs. CM_BENCH_RECALL_N (default 100000) rows each; CM_BENCH_RECALL_QUERIES
// (default 300) queries, drafts drawn from the same distribution as the candidates.
//
// The corpus: words drawn Zipf-like (rank r with weight 1/r), the ~100 domain words of memory
// statements at the top ranks (so "use", "prefer", "never" are in most rows: the worst case for
// an OR query), then a long tail sized by Heaps' law for the corpus (about 40·√tokens distinct
// words: ~50k at 100k rows, as identifiers, paths and names make a real memory's vocabulary).
// A candidate is one statement of 8–20 words; an approved entry is a promoted candidate: a title
// of 4–8 words and a body of 8–20.
// `npm run bench -- recall`
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { storeFiles } from '../../source/home.js';
import { buildFtsQuery } from '../../source/memory/fts-query.js';
import { recall, RECALL_K } from '../../source/store/memory/recall.js';
import { approvedSearchableText, indexRecallRow, recallFtsQuery } from '../../source/store/memory/recall-terms.js';
import { memoryStateSchema } from '../../source/store/memory/state-schema.js';
import { openDatabase } from '../../source/store/database.js';
import { migrate } from '../../source/store/migrations.js';
import { tempHome } from '../support/cli.js';
import { percentile, timeMs } from './measure.js';

const WORDS = (
  'use prefer never always run test lint build deploy commit branch merge squash release staging production database migration schema index query ' +
  'cache queue worker thread hook drain journal timeline session turn prompt agent model runner chunk candidate review promote approve entry ' +
  'pnpm npm yarn node typescript javascript react vitest jest playwright docker kubernetes postgres sqlite redis kafka nginx github gitlab ' +
  'format prettier eslint biome import export default named module package dependency version lockfile changelog readme docs comment'
).split(' ');

/** A deterministic PRNG (mulberry32): the same corpus in every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The common words above plus a tail of rarer made-up ones, drawn Zipf-like (rank r with weight 1/r), as prose is. */
function zipf(tail: number): (random: () => number) => string {
  const vocabulary = [...WORDS, ...Array.from({ length: tail }, (_, i) => `w${i.toString(36)}x`)];
  // Cumulative weights, searched by bisection: drawing stays cheap with a 50k-word vocabulary.
  const cumulative: number[] = [];
  vocabulary.reduce((sum, _w, i) => (cumulative[i] = sum + 1 / (i + 1)), 0);
  const total = cumulative[cumulative.length - 1]!;
  return (random) => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo]!;
  };
}

export async function runRecallBench(): Promise<void> {
  const n = Number(process.env['CM_BENCH_RECALL_N'] ?? 100_000);
  // Heaps' law: ~40·√tokens distinct words; a row has ~14 words on average (candidates and entries).
  const word = zipf(Math.round(40 * Math.sqrt(2 * n * 14)));
  const sentence = (random: () => number, words: number) => Array.from({ length: words }, () => word(random)).join(' ');
  const home = tempHome('bench-recall');
  mkdirSync(home, { recursive: true });
  const db = openDatabase(storeFiles(home).memoryState);
  try {
    migrate(db, memoryStateSchema);
    const owner = { repositoryKey: 'a'.repeat(64), worktreeKey: 'b'.repeat(64) };
    const random = rng(42);
    const build = timeMs(() =>
      db.transaction(() => {
        db.prepare(
          "INSERT INTO chunks (chunk_ref, repository_key, worktree_key, session_key, turn_range, chunk_digest, source_input_digest, created_at_ms) VALUES ('c', ?, ?, 's', '0-0', ?, ?, 0)",
        ).run(owner.repositoryKey, owner.worktreeKey, 'c'.repeat(64), 'd'.repeat(64));
        const candidate = db.prepare(
          "INSERT INTO candidates (candidate_id, repository_key, worktree_key, chunk_ref, task_id, content_digest, payload_json, status, adjudication, decision, created_at_ms, updated_at_ms) VALUES (?, ?, ?, 'c', 't', ?, ?, 'draft', 'done', 'store', 0, 0)",
        );
        const approved = db.prepare(
          "INSERT INTO approved_entries (entry_id, repository_key, worktree_key, revision, content_digest, frontmatter_json, body_text, status) VALUES (?, ?, ?, 1, ?, ?, ?, 'approved')",
        );
        for (let i = 0; i < n; i++) {
          const text = sentence(random, 8 + Math.floor(random() * 12));
          const rowid = candidate.run(
            `cand-${i}`,
            owner.repositoryKey,
            owner.worktreeKey,
            'e'.repeat(64),
            JSON.stringify({ content: text }),
          ).lastInsertRowid;
          indexRecallRow(db, 'candidate', rowid, text);
          const title = sentence(random, 4 + Math.floor(random() * 5));
          const body = sentence(random, 8 + Math.floor(random() * 13));
          const frontmatter = JSON.stringify({ title, appliesWhen: null });
          const entry = approved.run(
            `entry-${i}`,
            owner.repositoryKey,
            owner.worktreeKey,
            'f'.repeat(64),
            frontmatter,
            body,
          );
          indexRecallRow(
            db,
            'approved',
            entry.lastInsertRowid,
            approvedSearchableText({ title, appliesWhen: null, body }),
          );
        }
      })(),
    );
    const queries = Array.from({ length: Number(process.env['CM_BENCH_RECALL_QUERIES'] ?? 300) }, () =>
      sentence(random, 8 + Math.floor(random() * 13)),
    );
    const single = db.prepare(
      'SELECT rowid FROM candidate_fts WHERE candidate_fts MATCH ? ORDER BY bm25(candidate_fts) LIMIT ?',
    );
    // Warm the paths once. Recall and one query of its pruned expression are interleaved, each
    // first in turn, so that machine noise and cache state hit both alike; the plain query reads
    // whole doclists of common words (megabytes, evicting the page cache), so it runs in a pass of
    // its own, after.
    for (const q of queries.slice(0, 20)) {
      recall(db, owner, q);
      single.all(recallFtsQuery(db, q), RECALL_K);
    }
    const fused: number[] = [];
    const floor: number[] = [];
    const pruned: number[] = [];
    queries.forEach((q, i) => {
      const expression = recallFtsQuery(db, q);
      const runRecall = () => fused.push(timeMs(() => recall(db, owner, q)));
      const runPruned = () => pruned.push(timeMs(() => single.all(expression, RECALL_K)));
      if (i % 2 === 0) {
        runRecall();
        runPruned();
      } else {
        runPruned();
        runRecall();
      }
    });
    for (const q of queries) {
      const match = buildFtsQuery(q);
      floor.push(timeMs(() => single.all(match, RECALL_K)));
    }
    const p = (values: number[], q: number) => percentile(values, q).toFixed(2);
    process.stdout.write(`corpus: ${n} candidates + ${n} approved entries (built in ${(build / 1000).toFixed(1)} s)\n`);
    process.stdout.write(
      `recall (2 × BM25 3·k + RRF, k=${RECALL_K}): p50 ${p(fused, 50)} ms, p95 ${p(fused, 95)} ms\n`,
    );
    process.stdout.write(`floor (1 × plain BM25 k, candidates):     p50 ${p(floor, 50)} ms, p95 ${p(floor, 95)} ms\n`);
    process.stdout.write(
      `1 × pruned BM25 k, candidates:            p50 ${p(pruned, 50)} ms, p95 ${p(pruned, 95)} ms\n`,
    );
    const ratio = percentile(fused, 95) / percentile(floor, 95);
    const met = percentile(fused, 95) <= 10 && ratio <= 2.5;
    process.stdout.write(
      `${met ? 'MET' : 'MISS'} recall p95 ${p(fused, 95)} ms, ${ratio.toFixed(2)}× the plain query (target ≤ 10 ms and ≤ 2.5×); ` +
        `${(percentile(fused, 95) / percentile(pruned, 95)).toFixed(2)}× one pruned query (INFO)\n`,
    );
  } finally {
    db.close();
    rmSync(dirname(home), { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runRecallBench();
