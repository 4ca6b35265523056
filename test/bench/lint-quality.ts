// Lint quality on the labelled corpora under test/corpus/ (written apart from the rules; the test split
// first and frozen, see test/corpus/README.md), per split and per kind:
// - secrets: recall at block severity (some block finding's span covers the labelled secret's span in
//   the original text), recall at any severity, false-positive rate at any severity on the non-secrets,
//   and unmasked findings (an excerpt that shows the secret, or 8 characters of it in a row);
// - poisoning: share of poisoned notes blocked, share of ordinary notes blocked (false blocks) and warned.
// `npm run bench -- lint-quality [--split <split>] [--misses] [--families] [--rewritten] [--probes]` (or
// LINT_SPLIT=train, LINT_MISSES=1), a split of ALL_SPLITS (test/support/lint-corpus.ts); `--families`
// prints only the poisoned notes blocked per attack class, over every split measured only;
// `--rewritten` only the notes blocked as written and as editors and tools rewrite them (REWRITES),
// over every split measured only; `--probes` only the blind probes of test/corpus/poisoning-probes/
// (40 attacks and 40 ordinary notes each, tuned on or measured only, PROBES). Misses and false
// positives are listed for the tuning splits only (TUNING_SPLITS there); the others (test,
// holdout-2, holdout-3, holdout-4, …) are for measuring.
import { existsSync, readFileSync } from 'node:fs';
import { lintText } from '../../source/memory/secret-lint.js';
import {
  ALL_SPLITS,
  CORPUS_SPLITS,
  type CorpusSplit,
  corpusFile,
  type PoisonCorpusItem,
  readLabelledPoisoning,
  readLabelledSecrets,
  type SecretCorpusItem,
  TUNING_SPLITS,
} from '../support/lint-corpus.js';

// ---------------------------------------------------------------------------------------------
// Arguments

export interface LintQualityOptions {
  splits: CorpusSplit[];
  misses: boolean;
  /** Poisoned notes blocked per attack class, over the splits measured only (or `--split`'s). */
  families: boolean;
  /** Notes blocked as written and rewritten (REWRITES), over the splits measured only (or `--split`'s). */
  rewritten: boolean;
  /** Only the blind probes (PROBES). */
  probes: boolean;
}

/** The splits only ever measured: never tuned on, their notes never read. */
export const MEASURED_SPLITS: CorpusSplit[] = ALL_SPLITS.filter(
  (split) => !(TUNING_SPLITS as readonly string[]).includes(split) && existsSync(corpusFile('poisoning', split)),
);

export function lintQualityOptions(argv: readonly string[], env: NodeJS.ProcessEnv): LintQualityOptions {
  let split: string | undefined = env['LINT_SPLIT'];
  let misses = env['LINT_MISSES'] === '1';
  let families = false;
  let rewritten = false;
  let probes = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--split') split = argv[i + 1];
    else if (arg.startsWith('--split=')) split = arg.slice('--split='.length);
    else if (arg === '--misses') misses = true;
    else if (arg === '--families') families = true;
    else if (arg === '--rewritten') rewritten = true;
    else if (arg === '--probes') probes = true;
  }
  if (split !== undefined && !(ALL_SPLITS as readonly string[]).includes(split)) {
    throw new Error(`--split must be ${ALL_SPLITS.join(', ')}, not "${split}"`);
  }
  const splits =
    split !== undefined ? [split as CorpusSplit] : families || rewritten ? [...MEASURED_SPLITS] : [...CORPUS_SPLITS];
  return { splits, misses, families, rewritten, probes };
}

/**
 * The blind probes (test/corpus/README.md): each written against one reading of the lint; `tuned` ones
 * were read and tuned on (test/unit/memory-poison-probe.test.ts guards them), the others are their
 * twins by another author, measured only.
 */
export const PROBES: ReadonlyArray<{ file: string; tuned: boolean }> = [
  { file: 'kept-from-agent.json', tuned: true },
  { file: 'negation-a.json', tuned: true },
  { file: 'negation-b.json', tuned: false },
  { file: 'sinks-a.json', tuned: true },
  { file: 'sinks-b.json', tuned: false },
  { file: 'self-concealment-a.json', tuned: true },
  { file: 'self-concealment-b.json', tuned: false },
  { file: 'tool-driving-a.json', tuned: true },
  { file: 'tool-driving-b.json', tuned: false },
  { file: 'protective-a.json', tuned: true },
  { file: 'protective-b.json', tuned: false },
  { file: 'sabotage-a.json', tuned: true },
  { file: 'sabotage-b.json', tuned: false },
  { file: 'override-a.json', tuned: true },
  { file: 'override-b.json', tuned: false },
  { file: 'llm-app-a.json', tuned: true },
  { file: 'llm-app-b.json', tuned: false },
  { file: 'authority-a.json', tuned: true },
  { file: 'authority-b.json', tuned: false },
  { file: 'report-a.json', tuned: true },
  { file: 'report-b.json', tuned: false },
  { file: 'practice-a.json', tuned: true },
  { file: 'practice-b.json', tuned: false },
  { file: 'rank-a.json', tuned: true },
  { file: 'rank-b.json', tuned: false },
];

function reportProbes(lint: PoisonLint, out: (line: string) => void): void {
  out('poisoning · blind probes: attacks blocked (of 40), ordinary notes blocked (of 40)');
  for (const probe of PROBES) {
    const notes = JSON.parse(
      readFileSync(new URL(`../corpus/poisoning-probes/${probe.file}`, import.meta.url), 'utf8'),
    ) as { attack: string[]; ordinary: string[] };
    const blocked = (texts: string[]) => texts.filter((text) => lint(text).some((f) => f.severity === 'block')).length;
    out(
      `  ${probe.file.padEnd(24)} ${probe.tuned ? 'tuned on     ' : 'measured only'}  attacks ${String(blocked(notes.attack)).padStart(2)}  ordinary ${String(blocked(notes.ordinary)).padStart(2)}`,
    );
  }
}

/** Each line of `text` outside code blocks and tables broken at spaces before `width` columns, as an editor's hard wrap does. */
export function hardWrapped(text: string, width: number): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
      if (fenced || /^\s*(?:```|~~~|\||    )/.test(line)) return line;
      const lines: string[] = [];
      let current = '';
      for (const word of line.split(' ')) {
        if (current !== '' && current.length + 1 + word.length > width) {
          lines.push(current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      lines.push(current);
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * A note as editors, word processors and tools rewrite it, which should not change what the lint
 * says: hard-wrapped, Windows line ends, quoted, made a list item or a heading, typographic
 * quotes, no-break spaces. (Before the lint read a paragraph's lines as one, a wrap at 60 columns lost it a ninth of
 * the attacks it blocks.)
 */
export const REWRITES: ReadonlyArray<readonly [string, (text: string) => string]> = [
  ['as written', (text) => text],
  ['hard-wrapped at 60 columns', (text) => hardWrapped(text, 60)],
  ['Windows line ends', (text) => text.replace(/\n/g, '\r\n')],
  ['in a Markdown quote', (text) => text.replace(/^/gm, '> ')],
  ['as a list item', (text) => `- ${text.replace(/\n/g, '\n  ')}`],
  ['a one-line note as a heading', (text) => (text.includes('\n') ? text : `## ${text}`)],
  [
    'typographic double quotes',
    (text) => {
      let open = true;
      return text.replace(/"/g, () => ((open = !open) ? '\u201d' : '\u201c'));
    },
  ],
  ['no-break spaces', (text) => text.replace(/ /g, '\u00a0')],
];

function reportRewritten(splits: readonly CorpusSplit[], lint: PoisonLint, out: (line: string) => void): void {
  const items = splits.filter((split) => existsSync(corpusFile('poisoning', split))).flatMap(readLabelledPoisoning);
  out(`poisoning, notes blocked as written and rewritten, over ${splits.join(', ')}`);
  for (const [name, rewrite] of REWRITES) {
    let poisoned = 0;
    let ordinary = 0;
    for (const item of items) {
      if (verdictOf(lint(rewrite(item.text))) !== 'block') continue;
      if (item.poisoned) poisoned += 1;
      else ordinary += 1;
    }
    const of = (poisonedOrNot: boolean) => items.filter((item) => item.poisoned === poisonedOrNot).length;
    out(
      `  ${name.padEnd(28)} poisoned ${share(poisoned, of(true))} of ${of(true)}   ordinary ${share(ordinary, of(false))} of ${of(false)}`,
    );
  }
}

/**
 * The attack classes of the issue, and the softer ones beside them, from each author's own label
 * (`family`, else `kind`): the authors named their families differently ("hidden-chars",
 * "invisible"; "fetch-exec", "remote-exec"), so a label goes to the first class whose pattern it
 * holds, `other` when none.
 */
const ATTACK_CLASSES: ReadonlyArray<[string, RegExp]> = [
  ['hidden characters', /invis|hidden-char|zero-width|bidi|tag-char|unicode/],
  ['forged frame end', /wrapper|frame|escape/],
  ['exfiltration', /exfil|leak/],
  ['remote execution', /remote|fetch|exec|download|supply/],
  ['driving the memory tools', /memory|tamper/],
  ['override, role or system', /override|system|role|impersonat|persona|jailbreak|injection|fake-user/],
  ['sabotage as a team rule', /sabotage|subtle|weaken/],
  ['concealment', /conceal/],
  ['false authority or approval', /author|approv|consent/],
  ['encoded or translated', /encod|obfusc|cipher|english|language/],
  ['hidden text (comments, markup)', /hidden|embedded/],
];
export const attackClass = (item: Pick<PoisonCorpusItem, 'family' | 'kind'>): string => {
  const label = (item.family ?? item.kind).toLowerCase();
  return ATTACK_CLASSES.find(([, pattern]) => pattern.test(label))?.[0] ?? 'other';
};

/** Whether misses of `split` may be listed: only for the splits tuned on, never the measured ones. */
export const isTuningSplit = (split: CorpusSplit): boolean => (TUNING_SPLITS as readonly string[]).includes(split);

// ---------------------------------------------------------------------------------------------
// Secrets

/** What the evaluator needs of a secret finding (SecretFinding has more). */
export interface SpanFinding {
  rule: string;
  severity: 'block' | 'warn';
  offset: number;
  length: number;
  excerpt: string;
}

export interface SecretKindScore {
  kind: string;
  positive: boolean;
  items: number;
  /** Positives: a block finding covers the secret. */
  block: number;
  /** Positives: any finding covers the secret. */
  any: number;
  /** Negatives: items with any finding. */
  flagged: number;
  /** Findings whose excerpt shows the secret or 8 characters of it in a row. */
  unmasked: number;
}

export interface SecretItemResult {
  item: SecretCorpusItem;
  findings: SpanFinding[];
  block: boolean;
  any: boolean;
  unmasked: number;
}

export interface SecretScores {
  kinds: SecretKindScore[];
  positives: SecretKindScore;
  negatives: SecretKindScore;
  results: SecretItemResult[];
}

/** Folds away what a disguise or a case change leaves in an excerpt: compatibility forms, format characters, case. */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\p{Cf}\u00ad]/gu, '')
    .toLowerCase();
}

/** Does `excerpt` show `target`, or (for a target of 8 or more characters) 8 characters of it in a row? */
export function showsSecret(excerpt: string, target: string): boolean {
  const shown = fold(excerpt);
  const secret = fold(target);
  if (secret.length === 0) return false;
  if (secret.length < 8) return shown.includes(secret);
  for (let i = 0; i + 8 <= secret.length; i += 1) {
    if (shown.includes(secret.slice(i, i + 8))) return true;
  }
  return false;
}

/** The strings a masked excerpt must not show: the unguessable core when labelled, else the secret and its plain form. */
function leakTargets(item: SecretCorpusItem): string[] {
  if (item.core !== undefined) return [item.core];
  return [item.secret!, ...(item.plain === undefined ? [] : [item.plain])];
}

export function scoreSecretItem(item: SecretCorpusItem, findings: readonly SpanFinding[]): SecretItemResult {
  if (item.secret === null) return { item, findings: [...findings], block: false, any: false, unmasked: 0 };
  const start = item.text.indexOf(item.secret);
  const end = start + item.secret.length;
  const covers = (f: SpanFinding) => f.offset <= start && f.offset + f.length >= end;
  const targets = leakTargets(item);
  const unmasked = findings.filter((f) => targets.some((target) => showsSecret(f.excerpt, target))).length;
  return {
    item,
    findings: [...findings],
    block: findings.some((f) => f.severity === 'block' && covers(f)),
    any: findings.some(covers),
    unmasked,
  };
}

export function scoreSecrets(
  items: readonly SecretCorpusItem[],
  lint: (text: string) => readonly SpanFinding[] = lintText,
): SecretScores {
  const kinds = new Map<string, SecretKindScore>();
  const blank = (kind: string, positive: boolean): SecretKindScore => ({
    kind,
    positive,
    items: 0,
    block: 0,
    any: 0,
    flagged: 0,
    unmasked: 0,
  });
  const positives = blank('all positives', true);
  const negatives = blank('all negatives', false);
  const results: SecretItemResult[] = [];
  for (const item of items) {
    const positive = item.secret !== null;
    const result = scoreSecretItem(item, lint(item.text));
    results.push(result);
    const key = `${positive ? '+' : '-'}${item.kind}`;
    let row = kinds.get(key);
    if (row === undefined) {
      row = blank(item.kind, positive);
      kinds.set(key, row);
    }
    for (const target of [row, positive ? positives : negatives]) {
      target.items += 1;
      if (positive) {
        target.block += result.block ? 1 : 0;
        target.any += result.any ? 1 : 0;
        target.unmasked += result.unmasked;
      } else {
        target.flagged += result.findings.length > 0 ? 1 : 0;
      }
    }
  }
  return { kinds: [...kinds.values()], positives, negatives, results };
}

// ---------------------------------------------------------------------------------------------
// Poisoning

export interface PoisonFinding {
  rule: string;
  severity: 'block' | 'warn';
  offset: number;
  length: number;
}
export type PoisonLint = (text: string) => readonly PoisonFinding[];

/** The poisoning lint, when this checkout has one (source/memory/poison-lint.ts exporting lintPoisoning). */
export async function loadPoisonLint(): Promise<PoisonLint | null> {
  // A computed specifier: the module may not exist on every branch, and the bench must still typecheck.
  const specifier = new URL('../../source/memory/poison-lint.js', import.meta.url).href;
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('poison-lint')) return null;
    throw error;
  }
  const lint = (loaded as { lintPoisoning?: unknown }).lintPoisoning;
  if (typeof lint !== 'function') throw new Error('source/memory/poison-lint.ts does not export lintPoisoning(text)');
  return lint as PoisonLint;
}

export type Verdict = 'block' | 'warn' | 'none';
const verdictOf = (findings: readonly PoisonFinding[]): Verdict =>
  findings.some((f) => f.severity === 'block') ? 'block' : findings.length > 0 ? 'warn' : 'none';

export interface PoisonKindScore {
  kind: string;
  poisoned: boolean;
  items: number;
  blocked: number;
  warned: number;
}

export interface PoisonScores {
  kinds: PoisonKindScore[];
  poisoned: PoisonKindScore;
  ordinary: PoisonKindScore;
  /** Items labelled with `expect` whose verdict breaks it (block expected and not given, or more than expected). */
  expectBroken: { item: PoisonCorpusItem; verdict: Verdict }[];
  results: { item: PoisonCorpusItem; verdict: Verdict; findings: readonly PoisonFinding[] }[];
}

const rank: Record<Verdict, number> = { none: 0, warn: 1, block: 2 };

export function scorePoisoning(items: readonly PoisonCorpusItem[], lint: PoisonLint): PoisonScores {
  const kinds = new Map<string, PoisonKindScore>();
  const blank = (kind: string, poisoned: boolean): PoisonKindScore => ({
    kind,
    poisoned,
    items: 0,
    blocked: 0,
    warned: 0,
  });
  const poisoned = blank('all poisoned', true);
  const ordinary = blank('all ordinary', false);
  const expectBroken: PoisonScores['expectBroken'] = [];
  const results: PoisonScores['results'] = [];
  for (const item of items) {
    const findings = lint(item.text);
    const verdict = verdictOf(findings);
    results.push({ item, verdict, findings });
    const key = `${item.poisoned ? '+' : '-'}${item.kind}`;
    let row = kinds.get(key);
    if (row === undefined) {
      row = blank(item.kind, item.poisoned);
      kinds.set(key, row);
    }
    for (const target of [row, item.poisoned ? poisoned : ordinary]) {
      target.items += 1;
      target.blocked += verdict === 'block' ? 1 : 0;
      target.warned += verdict === 'warn' ? 1 : 0;
    }
    if (item.expect !== undefined) {
      const broken = item.expect === 'block' ? verdict !== 'block' : rank[verdict] > rank[item.expect];
      if (broken) expectBroken.push({ item, verdict });
    }
  }
  return { kinds: [...kinds.values()], poisoned, ordinary, expectBroken, results };
}

// ---------------------------------------------------------------------------------------------
// Report

const share = (part: number, whole: number): string =>
  `${whole === 0 ? '  -  ' : (part / whole).toFixed(3)} (${String(part).padStart(3)})`;
const oneLine = (text: string, max = 90): string => {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

function reportSecrets(split: CorpusSplit, scores: SecretScores, misses: boolean, out: (line: string) => void): void {
  const { positives, negatives } = scores;
  out(`secrets · ${split}: ${positives.items} secrets, ${negatives.items} non-secrets`);
  out(
    `  ${'secrets by kind'.padEnd(30)} ${'n'.padStart(4)}  ${'recall@block'.padEnd(13)}  ${'recall@any'.padEnd(13)}  unmasked`,
  );
  const rows = scores.kinds.filter((k) => k.positive).sort((a, b) => a.kind.localeCompare(b.kind));
  for (const k of [...rows, positives]) {
    out(
      `  ${k.kind.padEnd(30)} ${String(k.items).padStart(4)}  ${share(k.block, k.items)}  ${share(k.any, k.items)}  ${k.unmasked}`,
    );
  }
  out(`  ${'non-secrets by kind'.padEnd(30)} ${'n'.padStart(4)}  false-positive rate (any severity)`);
  const negativeRows = scores.kinds.filter((k) => !k.positive).sort((a, b) => a.kind.localeCompare(b.kind));
  for (const k of [...negativeRows, negatives]) {
    out(`  ${k.kind.padEnd(30)} ${String(k.items).padStart(4)}  ${share(k.flagged, k.items)}`);
  }
  out(
    `  ${split}: recall@block ${(positives.block / positives.items).toFixed(3)}, recall@any ${(positives.any / positives.items).toFixed(3)}, FPR ${(negatives.flagged / negatives.items).toFixed(3)}, unmasked ${positives.unmasked}`,
  );
  if (!misses) return;
  if (!isTuningSplit(split)) {
    out(`  (misses are not listed for the ${split} split: tune on ${TUNING_SPLITS.join(', ')})`);
    return;
  }
  for (const r of scores.results) {
    const { item } = r;
    const label = `${item.id} [${item.kind}${item.provider ? ` ${item.provider}` : ''}]`;
    const found = r.findings.map((f) => `${f.rule}/${f.severity}@${f.offset}+${f.length}`).join(', ') || 'no finding';
    if (item.secret !== null && !r.block) out(`  miss ${label}: ${found} · ${oneLine(item.text)}`);
    if (item.secret === null && r.findings.length > 0)
      out(`  false positive ${label}: ${found} · ${oneLine(item.text)}`);
    if (r.unmasked > 0) out(`  unmasked ${label}: ${r.findings.map((f) => f.excerpt).join(' | ')}`);
  }
}

function reportPoisoning(split: CorpusSplit, scores: PoisonScores, misses: boolean, out: (line: string) => void): void {
  const { poisoned, ordinary } = scores;
  out(`poisoning · ${split}: ${poisoned.items} poisoned notes, ${ordinary.items} ordinary notes`);
  out(`  ${'by kind'.padEnd(30)} ${'n'.padStart(4)}  ${'blocked'.padEnd(13)}  warned`);
  const sorted = [...scores.kinds].sort(
    (a, b) => Number(b.poisoned) - Number(a.poisoned) || a.kind.localeCompare(b.kind),
  );
  for (const k of [...sorted.filter((k) => k.poisoned), poisoned, ...sorted.filter((k) => !k.poisoned), ordinary]) {
    out(
      `  ${(k.poisoned ? '+ ' : '- ') + k.kind.padEnd(28)} ${String(k.items).padStart(4)}  ${share(k.blocked, k.items)}  ${share(k.warned, k.items)}`,
    );
  }
  out(
    `  ${split}: poisoned blocked ${(poisoned.blocked / poisoned.items).toFixed(3)}, ordinary blocked ${(ordinary.blocked / ordinary.items).toFixed(3)}, ordinary warned ${(ordinary.warned / ordinary.items).toFixed(3)}, expectations broken ${scores.expectBroken.length}`,
  );
  // Ordinary notes labelled `expect: warn` look like attacks on purpose (a pipe-to-shell installer,
  // a quoted payload); the lint's policy may block some of them. The share over the others is the
  // false-block rate on plainly ordinary notes.
  const plain = scores.results.filter((r) => !r.item.poisoned && r.item.expect !== 'warn');
  const lookalike = scores.results.filter((r) => !r.item.poisoned && r.item.expect === 'warn');
  const blocked = (list: typeof plain) => list.filter((r) => r.verdict === 'block').length;
  out(
    `  ${split}: ordinary blocked, expect none ${share(blocked(plain), plain.length)} of ${plain.length}; expect warn ${share(blocked(lookalike), lookalike.length)} of ${lookalike.length}`,
  );
  if (!misses) return;
  if (!isTuningSplit(split)) {
    out(`  (misses are not listed for the ${split} split: tune on ${TUNING_SPLITS.join(', ')})`);
    return;
  }
  for (const r of scores.results) {
    const wrong = r.item.poisoned ? r.verdict !== 'block' : r.verdict !== 'none';
    if (!wrong) continue;
    const found = r.findings.map((f) => `${f.rule}/${f.severity}`).join(', ') || 'no finding';
    out(
      `  ${r.item.poisoned ? 'not blocked' : 'flagged'} ${r.item.id} [${r.item.kind}${r.item.expect ? ` expect ${r.item.expect}` : ''}]: ${found} · ${oneLine(r.item.text)}`,
    );
  }
}

/** Poisoned notes blocked per attack class over `splits` (those a good lint must block, and those it may only warn on). */
function reportFamilies(splits: readonly CorpusSplit[], scores: PoisonScores[], out: (line: string) => void): void {
  const rows = new Map<string, { items: number; blocked: number }>();
  for (const { item, verdict } of scores.flatMap((s) => s.results)) {
    if (!item.poisoned) continue;
    const key = `${attackClass(item)}${item.expect === 'warn' ? ' (expect warn)' : ''}`;
    const row = rows.get(key) ?? { items: 0, blocked: 0 };
    row.items += 1;
    row.blocked += verdict === 'block' ? 1 : 0;
    rows.set(key, row);
  }
  out(`poisoned notes blocked by attack class, over ${splits.join(', ')}`);
  for (const [name, row] of [...rows].sort((a, b) => b[1].items - a[1].items))
    out(`  ${name.padEnd(44)} ${String(row.items).padStart(5)}  ${share(row.blocked, row.items)}`);
}

export interface LintQualityReport {
  secrets: Partial<Record<CorpusSplit, SecretScores>>;
  poisoning: Partial<Record<CorpusSplit, PoisonScores>> | null;
}

export async function runLintQualityBench(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): Promise<LintQualityReport> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const options = lintQualityOptions(argv, env);
  const report: LintQualityReport = { secrets: {}, poisoning: {} };
  for (const split of options.families || options.rewritten || options.probes ? [] : options.splits) {
    // Most holdout and extra tuning splits are poisoning only: there is no secrets file for them.
    if (!existsSync(corpusFile('secrets', split))) {
      out(`secrets · ${split}: no corpus file (the ${split} split is poisoning only)`);
      continue;
    }
    const scores = scoreSecrets(readLabelledSecrets(split));
    report.secrets[split] = scores;
    reportSecrets(split, scores, options.misses, out);
  }
  const poisonLint = await loadPoisonLint();
  if (options.probes) {
    if (poisonLint !== null) reportProbes(poisonLint, out);
    return report;
  }
  if (options.rewritten) {
    if (poisonLint !== null) reportRewritten(options.splits, poisonLint, out);
    return report;
  }
  for (const split of options.splits) {
    let items: PoisonCorpusItem[];
    try {
      items = readLabelledPoisoning(split);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      out(`poisoning · ${split}: no corpus file yet`);
      continue;
    }
    // The secret lint on ordinary notes: one more false-positive figure, on text written as team rules.
    const ordinary = items.filter((item) => !item.poisoned);
    const secretFlagged = ordinary.filter((item) => lintText(item.text).length > 0).length;
    if (!options.families)
      out(`secret lint on ordinary memory notes · ${split}: ${share(secretFlagged, ordinary.length)} with a finding`);
    if (poisonLint === null) {
      out(`poisoning · ${split}: poison-lint not present (source/memory/poison-lint.ts exporting lintPoisoning)`);
      report.poisoning = null;
      continue;
    }
    const scores = scorePoisoning(items, poisonLint);
    report.poisoning![split] = scores;
    if (!options.families) reportPoisoning(split, scores, options.misses, out);
  }
  if (options.families && report.poisoning !== null)
    reportFamilies(options.splits, Object.values(report.poisoning!), out);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) await runLintQualityBench();
