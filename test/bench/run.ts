// `npm run bench [-- name]`: runs the benchmarks and prints each figure beside its floor.
import './production-react.js';
import { runAgentsBench } from './agents.js';
import { runCaptureBench } from './capture.js';
import { runCliBench } from './cli.js';
import { runDedupBench } from './dedup.js';
import { runExtractionQualityBench } from './extraction-quality.js';
import { runExtractionBench } from './extraction-rules.js';
import { runExtractionThroughputBench } from './extraction-throughput.js';
import { runFoundationBench } from './foundation.js';
import { runHookHostileBench } from './hook-hostile.js';
import { runLedgerBench } from './ledger.js';
import { runLintQualityBench } from './lint-quality.js';
import { runMcpBench } from './mcp.js';
import { runPiCaptureBench } from './pi-capture.js';
import { runPromotionBench } from './promotion.js';
import { runRecallBench } from './recall.js';
import { runRunnersBench } from './runners.js';
import { runSecretLintBench } from './secret-lint.js';
import { runSessionSearchBench } from './session-search.js';
import { runSnapshotBench } from './snapshot.js';
import { runTuiBench } from './tui.js';
import { runTuiMemoryBench } from './tui-memory.js';

const benches: Record<string, () => Promise<unknown>> = {
  foundation: runFoundationBench,
  agents: runAgentsBench,
  capture: runCaptureBench,
  'hook-hostile': runHookHostileBench,
  tui: runTuiBench,
  'tui-memory': runTuiMemoryBench,
  promotion: runPromotionBench,
  dedup: runDedupBench,
  extraction: runExtractionBench,
  'extraction-quality': runExtractionQualityBench,
  'extraction-throughput': runExtractionThroughputBench,
  'secret-lint': runSecretLintBench,
  // Takes --split train|test|holdout and --misses after its name (other arguments that name no bench are ignored).
  'lint-quality': () => runLintQualityBench(),
  'session-search': runSessionSearchBench,
  recall: runRecallBench,
  runners: runRunnersBench,
  snapshot: runSnapshotBench,
  'pi-capture': runPiCaptureBench,
  ledger: runLedgerBench,
  mcp: runMcpBench,
  cli: runCliBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  process.stdout.write(`\n== ${name} ==\n`);
  await run();
}
