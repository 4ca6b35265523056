// Secret lint measured like a scanner: recall on synthetic tokens in each provider's documented
// format, false positives on high-entropy non-secrets (the corpus, then every text file git
// tracks in this repository: lockfile integrity strings, source, recorded host sessions), and
// the time of one 64 KiB line with and without the keyword prefilter.
// `node --import tsx test/bench/secret-lint.ts`
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lintPoisoning } from '../../source/memory/poison-lint.js';
import { lintText, type SecretFinding } from '../../source/memory/secret-lint.js';
import { readSecretCorpus } from '../support/secret-corpus.js';
import { median, percentile, timeMs } from './measure.js';

export interface LintQuality {
  secrets: number;
  /** Secrets found by the rule their format calls for. */
  foundByRule: number;
  /** Secrets with any finding at all. */
  foundAny: number;
  benign: number;
  benignWithFinding: { id: string; findings: SecretFinding[] }[];
  missed: string[];
}

export function lintQuality(): LintQuality {
  const corpus = readSecretCorpus();
  const secrets = corpus.filter((entry) => entry.kind === 'secret');
  const benign = corpus.filter((entry) => entry.kind === 'benign');
  const missed: string[] = [];
  let foundByRule = 0;
  let foundAny = 0;
  for (const entry of secrets) {
    const findings = lintText(entry.text);
    if (findings.length > 0) foundAny += 1;
    if (findings.some((finding) => finding.rule === entry.rule)) foundByRule += 1;
    else missed.push(entry.id);
  }
  const benignWithFinding = benign
    .map((entry) => ({ id: entry.id, findings: lintText(entry.text) }))
    .filter((result) => result.findings.length > 0);
  return { secrets: secrets.length, foundByRule, foundAny, benign: benign.length, benignWithFinding, missed };
}

/** Findings over the text files git tracks here, by rule. Host session ids in recorded fixtures are real session ids. */
function repositoryFindings(): {
  files: number;
  bytes: number;
  byRule: Record<string, number>;
  byFile: Record<string, string[]>;
} {
  const root = new URL('../../', import.meta.url);
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const byRule: Record<string, number> = {};
  const byFile: Record<string, string[]> = {};
  let bytes = 0;
  let read = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(new URL(file, root), 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\u0000')) continue;
    read += 1;
    bytes += text.length;
    for (const finding of lintText(text)) {
      byRule[finding.rule] = (byRule[finding.rule] ?? 0) + 1;
      // The labelled corpora are secret-shaped by design; listing a measured split's findings line by
      // line would show which of its rows the rules catch, which only the lint-quality bench may say.
      if (finding.rule !== 'provider-session-id' && !file.startsWith('test/corpus/'))
        (byFile[file] ??= []).push(`${finding.line}:${finding.rule}`);
    }
  }
  return { files: read, bytes, byRule, byFile };
}

const KIB64 = 64 * 1024;

/**
 * A 40 KiB chunk (a runner's unit of input) of many lines: this repository's README and memory
 * sources, cut at 40 KiB. Markdown, code and prose with line breaks, so the wrapped-token view and
 * the decoders have work to do.
 */
function benchChunk(): string {
  const root = new URL('../../', import.meta.url);
  const files = [
    'README.md',
    'source/memory/secret-lint.ts',
    'source/memory/promotion-plan.ts',
    'source/store/memory/proposal.ts',
  ];
  let text = '';
  for (const file of files) {
    try {
      text += readFileSync(new URL(file, root), 'utf8');
    } catch {
      // A file renamed later: the rest still makes a chunk.
    }
  }
  while (text.length < 40 * 1024) text += text || 'line\n';
  return text.slice(0, 40 * 1024);
}

/** One 64 KiB line of each kind a lint meets: prose without keywords, prose dense with keywords, one base64 blob, one long sentence of orders; and a 40 KiB chunk of many lines. */
export function benchLines(): Record<string, string> {
  const prose = 'the build step bundles each worker thread in place and the drain removes its stores again ';
  const keywords = 'token count is 42, password policy says twelve, api key rotation, session ends, sk- docs ';
  const fill = (unit: string) => unit.repeat(Math.ceil(KIB64 / unit.length)).slice(0, KIB64);
  return {
    'prose, no keyword': fill(prose),
    'prose, keywords throughout': fill(keywords),
    'one base64 run': randomBytes(KIB64).toString('base64').slice(0, KIB64),
    // One sentence of many "without asking" clauses: each match reads its sentence around it.
    'one sentence of "without asking" clauses': `${fill('deploy the branch to staging without asking, ').slice(0, KIB64 - 1)}.`,
    '40 KiB chunk of many lines': benchChunk(),
  };
}

export async function runSecretLintBench(): Promise<LintQuality> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const quality = lintQuality();
  out(
    `recall: ${quality.foundByRule}/${quality.secrets} secrets found by their format's rule (${(quality.foundByRule / quality.secrets).toFixed(3)}), ${quality.foundAny}/${quality.secrets} with any finding`,
  );
  if (quality.missed.length > 0) out(`  missed: ${quality.missed.join(', ')}`);
  out(`false positives: ${quality.benignWithFinding.length}/${quality.benign} high-entropy non-secrets with a finding`);
  for (const { id, findings } of quality.benignWithFinding)
    out(`  ${id}: ${findings.map((finding) => `${finding.rule} ${finding.excerpt}`).join('; ')}`);
  const repository = repositoryFindings();
  out(
    `this repository: ${repository.files} text files, ${(repository.bytes / 1024 / 1024).toFixed(1)} MiB; findings by rule: ${JSON.stringify(repository.byRule)}`,
  );
  out('  files with findings other than host session ids (secret-shaped test data is expected here):');
  for (const [file, findings] of Object.entries(repository.byFile)) out(`    ${file}: ${findings.join(', ')}`);
  const lines = Object.entries(benchLines());
  for (const [name, line] of lines) {
    for (const prefilter of [true, false]) {
      const times: number[] = [];
      for (let i = 0; i < 25; i += 1) times.push(timeMs(() => lintText(line, { prefilter })));
      out(
        `${name.startsWith('40 KiB') ? '' : '64 KiB line, '}${name}, prefilter ${prefilter ? 'on ' : 'off'}: median ${median(times).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
      );
    }
  }
  // The poisoning lint runs beside the secret lint on every memory text (memory-lint.ts): its cost on the same inputs.
  for (const [name, line] of lines) {
    const times: number[] = [];
    for (let i = 0; i < 25; i += 1) times.push(timeMs(() => lintPoisoning(line)));
    out(
      `poisoning lint, ${name.startsWith('40 KiB') ? '' : '64 KiB line, '}${name}: median ${median(times).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
    );
  }
  return quality;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSecretLintBench();
