// `npm run bench [-- name]`: runs the benchmarks and prints each figure beside its floor.
// `npm run bench -- --check [name]` runs the cheap benches and fails (exit 1) when a figure's
// ratio is more than 25% worse than its last recorded one or misses its target; `--record` runs
// them and appends their ratios to test/bench/history.jsonl (guard.ts).
import './production-react.js';
import { runAgentsBench } from './agents.js';
import { runAnchorQualityBench } from './anchor-quality.js';
import { runAnchorVerifyBench } from './anchor-verify.js';
import { runCaptureBench } from './capture.js';
import { runCliBench } from './cli.js';
import { runConsolidationQualityBench } from './consolidation-quality.js';
import { runConsolidationThroughputBench } from './consolidation-throughput.js';
import { runDedupBench } from './dedup.js';
import { runExtractionQualityBench } from './extraction-quality.js';
import { runExtractionBench } from './extraction-rules.js';
import { runExtractionThroughputBench } from './extraction-throughput.js';
import { runFoundationBench } from './foundation.js';
import { runHookHostileBench } from './hook-hostile.js';
import { runImportBench } from './import.js';
import { runLedgerBench } from './ledger.js';
import { runLintQualityBench } from './lint-quality.js';
import { runMcpBench } from './mcp.js';
import { runPiCaptureBench } from './pi-capture.js';
import { runPromotionBench } from './promotion.js';
import { runRecallBench } from './recall.js';
import { runRunnersBench } from './runners.js';
import { runSecretLintBench } from './secret-lint.js';
import { runSessionSearchBench } from './session-search.js';
import { runSessionsBench } from './sessions.js';
import { runSnapshotBench } from './snapshot.js';
import { runSnapshotCoverageBench } from './snapshot-coverage.js';
import { runTuiBench } from './tui.js';
import { runTuiMemoryBench } from './tui-memory.js';
import { runTurnCandidateBench } from './turn-candidate.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { drainThroughput } from './capture.js';
import { hookPath, noteThroughApi } from './foundation.js';
import { lastRatios, readHistory, recordRun, verdicts } from './guard.js';
import { mcpStartFigures } from './mcp.js';
import { type Figure, report } from './measure.js';
import { getFigures } from './promotion.js';
import { firstFrameFigures } from './tui.js';

const benches: Record<string, () => Promise<unknown>> = {
  foundation: runFoundationBench,
  agents: runAgentsBench,
  capture: runCaptureBench,
  'hook-hostile': runHookHostileBench,
  import: runImportBench,
  tui: runTuiBench,
  'tui-memory': runTuiMemoryBench,
  promotion: runPromotionBench,
  dedup: runDedupBench,
  extraction: runExtractionBench,
  'extraction-quality': runExtractionQualityBench,
  'extraction-throughput': runExtractionThroughputBench,
  'secret-lint': runSecretLintBench,
  // Takes --split train|test|holdout|holdout-2|train-3 and --misses after its name (other arguments that name no bench are ignored).
  'lint-quality': () => runLintQualityBench(),
  // Takes --split train|test and --misses (train only) after its name.
  'anchor-quality': () => runAnchorQualityBench(),
  'anchor-verify': runAnchorVerifyBench,
  // Takes --split train|test and --misses (train only) after its name.
  'consolidation-quality': () => runConsolidationQualityBench(),
  'consolidation-throughput': runConsolidationThroughputBench,
  'session-search': runSessionSearchBench,
  sessions: runSessionsBench,
  recall: runRecallBench,
  runners: runRunnersBench,
  snapshot: runSnapshotBench,
  'snapshot-coverage': runSnapshotCoverageBench,
  'pi-capture': runPiCaptureBench,
  ledger: runLedgerBench,
  mcp: runMcpBench,
  cli: runCliBench,
  'turn-candidate': runTurnCandidateBench,
};

/** The guard's benches: cheap enough to run before resolving an issue that touches a benched path. */
const cheap: Record<string, () => Promise<Figure[]>> = {
  hook: async () => hookPath(),
  drain: async () => drainThroughput(),
  note: noteThroughApi,
  tui: firstFrameFigures,
  recall: runRecallBench,
  snapshot: runSnapshotBench,
  'mcp-start': mcpStartFigures,
  'cli-read': async () => {
    const base = mkdtempSync(join(tmpdir(), 'cm-bench-cli-read-'));
    try {
      return getFigures(base);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
};

const args = process.argv.slice(2);
const guard = args.includes('--check') ? 'check' : args.includes('--record') ? 'record' : null;
const wanted = args.filter((arg) => !arg.startsWith('--'));
if (guard === null) {
  for (const [name, run] of Object.entries(benches)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    process.stdout.write(`\n== ${name} ==\n`);
    await run();
  }
} else {
  const unknown = wanted.filter((name) => !(name in cheap));
  if (unknown.length > 0) {
    process.stderr.write(`--${guard} runs only ${Object.keys(cheap).join(', ')}; not ${unknown.join(', ')}\n`);
    process.exit(2);
  }
  const figures: Figure[] = [];
  for (const [name, run] of Object.entries(cheap)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    process.stdout.write(`\n== ${name} (load average ${loadavg()[0]!.toFixed(2)}) ==\n`);
    const some = await run();
    // Benches that print their own figures return them too; the rest are printed here.
    if (!['recall', 'snapshot'].includes(name)) report(some);
    figures.push(...some);
  }
  process.stdout.write(`\n== ${guard} (load average ${loadavg()[0]!.toFixed(2)}) ==\n`);
  if (guard === 'record') {
    const line = recordRun(figures);
    process.stdout.write(`recorded ${Object.keys(line.ratios).length} ratios for ${line.commit}\n`);
  } else {
    const results = verdicts(figures, lastRatios(readHistory()));
    for (const result of results) process.stdout.write(`${result.message}\n`);
    const failed = results.filter((result) => !result.ok);
    if (failed.length > 0) {
      process.stdout.write(`${failed.length} figure(s) failed the check: ${failed.map((f) => f.id).join(', ')}\n`);
      process.exitCode = 1;
    }
  }
}
