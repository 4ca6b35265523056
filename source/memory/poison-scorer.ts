// Poisoning lint, learned: a small logistic-regression scorer beside the phrase and structural
// rules of poison-lint.ts. The rules know the wordings they were written for; an attack in new words
// still uses the vocabulary and the shape of one — words addressed to the model, a reference to its
// instructions, a verb that voids or hides, a sink for data — and the scorer weighs those together.
//
// Features of a note (each counts once): its words and word pairs (crudely stemmed), read on the lint's normalised
// view with disguises undone (poison-views.ts), four-character pieces of longer words, pairs of characters for scripts written without
// spaces (Chinese, Japanese, Korean), a handful of structural cues (below), and the names of the
// rules that only warned on it. The weights are trained offline by test/bench/poison-scorer-train.ts
// on the tuning corpora (never on the frozen test split or holdout-2) and committed in
// poison-scorer-weights.json with the block and warn thresholds chosen on out-of-fold scores.
// Deterministic, no network; the weight table is built on first use. Pure; no `node:` imports.

import weightsFile from './poison-scorer-weights.json' with { type: 'json' };
import { deobfuscatedView, normaliseForLint } from './poison-views.js';

/**
 * The committed model: a bias, the two thresholds on the probability, and a weight per feature
 * (`features[i]` weighs `weights[i]`; two arrays keep the JSON module's type small).
 */
export interface PoisonScorerModel {
  bias: number;
  block: number;
  warn: number;
  features: string[];
  weights: number[];
}

/** Longest text the scorer reads: memory notes are short; a longer text is read in its first part and last part. */
const SCORE_MAX_CHARS = 8192;

/**
 * Structural cues, each a feature of its own: they name the parts an attack is made of, in words
 * the scorer's vocabulary may not have seen.
 */
const CUES: ReadonlyArray<[string, RegExp]> = [
  // Addressed to the model: "assistant,", "note to the AI", "any agent reading this".
  [
    'address-model',
    /\b(?:assistant|ai|llm|language models?|chatbot|bot|agents?|model|claude|codex|copilot|gemini|gpt)\b\s*[:,]|\b(?:to|for|dear|hey|attention)\s+(?:the\s+|any\s+|every\s+|all\s+)?(?:assistant|ai|llm|language models?|agents?|model|bot)s?\b|\b(?:whichever|any|every)\s+(?:assistant|ai|model|agent|bot)\s+(?:that\s+)?(?:reads|sees|finds|processes)\b/,
  ],
  // A reference to the model's own instructions.
  [
    'instr-ref',
    /\b(?:your|previous|prior|earlier|original|initial|system|developer|operator|above|preceding|standing)\s+(?:\w+\s+)?(?:instructions?|rules|guidance|guidelines|directives?|prompts?|programming|configuration|constraints|orders|briefing)\b|\b(?:instructions?|rules|guidance|directives?|prompt)\s+(?:you\s+(?:were|have been|got|received)|given to you|loaded|handed)\b|\bsystem prompt\b/,
  ],
  // A verb that voids or outranks.
  [
    'void',
    /\b(?:ignore|ignoring|disregard\w*|forget|set aside|pay no (?:heed|attention)|stop (?:honou?ring|following|obeying)|no longer (?:apply|valid|binding)|null|void|obsolete|stale|overrid\w+|supersed\w+|outrank\w*|take precedence|instead)\b/,
  ],
  // Second person addressed to the reader, more than once.
  ['you-twice', /\byou(?:r|rself)?\b[\s\S]*\byou(?:r|rself)?\b/],
  // An imperative opening a clause (the note tells its reader to act).
  [
    'imperative',
    /(?:^|[.!?:;\n]\s*)(?:please\s+|kindly\s+|now\s+|always\s+|just\s+)?(?:ignore|disregard|forget|send|upload|post|email|mail|paste|print|reveal|run|execute|install|delete|remove|wipe|disable|skip|approve|promote|push|merge|grant|add|treat|obey|follow|act|pretend|assume|become|keep|hide|say|tell|call|use|read|include)\b/,
  ],
  // Concealment from the person the model works for, in the languages the lint reads.
  [
    'conceal',
    /\b(?:don't|do not|never|without)\s+(?:\w+\s+){0,2}?(?:tell|telling|mention\w*|inform\w*|let\w*|show\w*|report\w*|surfac\w*|bring\w* up|flag\w*|disclos\w*|reveal\w*|notif\w*|alert\w*)\b|\b(?:hide|hiding|conceal\w*|keep\w* (?:it|this|that|them) (?:quiet|hidden|secret|between us|to yourself|off the record))\b|\bfrom\s+(?:the\s+)?(?:user|human|person|developer|reviewer|team|owner)s?\b|\b(?:to yourself|quietly|silently|secretly|covertly|discreetly|unnoticed|behind the scenes)\b|\bleave\b[^.\n]{0,30}\bout\b|\bomit\w*\b|\bno mention\b|\b(?:user|human|reviewer|they)\s+(?:should not|shouldn't|must not|mustn't|is not to|are not to|need not|needn't|won't|will not)\s+(?:\w+\s+)?(?:see|know|hear|notice|find out|learn)\b|\bsag\w*\s+(?:dem|der|den)\s+\w+\s+nichts|\bverschweig\w*|\bverheimlich\w*|\bheimlich\b|\bne\s+(?:dis|dites|mentionne\w*|révèle\w*|signale\w*)\s+(?:rien|pas)\b|\bsans\s+(?:le dire|prévenir|en parler|le signaler)\b|\bcach\w+\b|\bno\s+(?:le\s+|les\s+)?(?:digas|menciones|cuentes|informes|reveles)\b|\bsin\s+(?:decir|avisar|mencionar)\b|\boculta\w*\b|\bnão\s+(?:conte|diga|mencione)\b|\bsem\s+avisar\b|\bnon\s+(?:dire|dirlo|menzionare)\b|\bnascond\w*\b|不要告诉|别告诉|不要提|隐瞒|悄悄|偷偷|伝えないで|言わないで|黙って|内緒|秘密に|не\s+(?:говори|сообщай|упоминай)|скрой|скрыва|тайно|молча/,
  ],
  // The memory tools, or the notes themselves, to be driven.
  [
    'memory-tool',
    /\bmemory_\w+\b|\bmemory[ _-]?tools?\b|\bcommon-memory\s+memory\b|\b(?:approve|promote|delete|remove|replace|rewrite|overwrite|retire|edit)\w*\b[^.\n]{0,40}?\b(?:memor(?:y|ies)|notes?|entries|entry|candidates?)\b|\b(?:memor(?:y|ies)|notes?|entries|candidates?)\b[^.\n]{0,40}?\b(?:approve|promote|delete|remove|replace|rewrite|overwrite|retire)\w*\b|\b(?:yourself|toi-même|selbst)\b|\bauto-?approv\w*|\bwithout\s+(?:waiting for\s+)?(?:a\s+|any\s+)?(?:review|approval|sign-?off)\b/,
  ],
  // A place data could go.
  ['sink', /https?:\/\/|\b[\w.+-]+@[\w-]+\.[\w.-]+\b|\bwebhook\b|\bpastebin\b|\bgist\b/],
  // Something worth stealing.
  [
    'secret-thing',
    /(?:^|[\s/~"'`(])\.env\b|\.ssh\b|\.aws\b|\bid_(?:rsa|ed25519)\b|\b(?:api[ _-]?keys?|tokens?|passwords?|credentials?|private keys?|secrets?)\b|\b[a-z]+_(?:token|secret|key)\b/,
  ],
  // A download run at once.
  ['pipe-shell', /\b(?:curl|wget|iwr|irm)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\$\(\s*(?:curl|wget)\b|\biex\b/],
  // A claimed grant or a role reassigned: someone with power said so.
  [
    'authority',
    /\b(?:authori[sz]ed|cleared|permitted|pre-?approved|signed off|sign-?off|granted|allowed|exempt\w*|delegated)\b[^.\n]{0,40}?\b(?:you|agents?|assistants?|the ai|the model|bots?|notes?)\b|\b(?:you|agents?|assistants?)\b[^.\n]{0,30}?\b(?:authori[sz]ed|cleared|permitted|pre-?approved|allowed|exempt)\b|\b(?:per|from|on behalf of|approved by|signed by|directive from|notice from|message from|note from|on orders from|by order of)\s+(?:the\s+)?(?:maintainers?|owners?|repo owner|repository owner|security team|staff|admins?|administrators?|anthropic|openai|vendor|leadership|management|cto|ceo|platform (?:team|owners)|operator|user)\b|\b(?:staff|security team|maintainers?|owners?|admin|operator|system)\s+(?:note|notice|directive|message|override|order)\b|\b(?:trusted|evaluation|maintenance|debug|developer|god|admin|root|unrestricted)\s+mode\b|\b(?:root|admin|full|elevated|unrestricted)\s+(?:clearance|access|permissions?|privileges?|authority)\b|\b(?:polic(?:y|ies)|filters?|restrictions?|limits?|rules|safeguards?|guardrails?)\b[^.\n]{0,30}?\b(?:do not|don't|no longer)\s+apply\b|\b(?:suspended|lifted|waived|switched off)\b|\bde la part d\w*|\bim auftrag\b|\ben nombre de\b|\bpor orden\b|授权|代表/,
  ],
  [
    'role',
    /\byou\s+(?:are|now|will)\b[^.\n]{0,30}?\b(?:now|no longer|persona|role|called|named)\b|\b(?:persona|roleplay|role-play|pretend\w*|act as|answer as|respond as|reply as|speak as|from (?:now|this point) on)\b|\byou\s+(?:now\s+)?(?:work|answer|report)\s+(?:for|to)\b|\byour\s+(?:job|role|purpose|task|goal)\b[^.\n]{0,40}?\b(?:is no longer|has changed|is now|now is)\b/,
  ],
  // Words of safety switched off.
  [
    'unsafe',
    /\b(?:no|without|skip\w*|disabl\w*|bypass\w*|turn\w* off|ignor\w*)\s+(?:any\s+|the\s+|all\s+)?(?:\w+\s+)?(?:review|confirmation|approval|restrictions?|filters?|sandbox|safety|checks?|tests|hooks?|verification|asking|relecture|signing|2fa|mfa|tls|ssl|linting)\b|\bforce-?push\w*\b|\bpush\s+(?:--force|-f)\b|\brewrite history\b|\brm -rf\b|--no-verify\b|--insecure\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*0|\bverify\s*=\s*false\b|\bchmod\s+(?:-R\s+)?777\b|\bnever\s+(?:refuse|decline|push back|question)\b|\b(?:comply with|act on|do)\s+(?:every|any|all)\s+(?:request|instruction|command)s?\b|\bwhatever (?:it is|you are|they are) told\b/,
  ],
  // A sending, printing or copying verb: where data leaves.
  [
    'send',
    /\b(?:send|upload|post|paste|e-?mail|mail|forward|ping|transmit|share|publish|append|attach|quote|print|echo|dump|copy|include|exfiltrat)\w*\b/,
  ],
  // A public place, or the reply itself, as the destination.
  [
    'public-place',
    /\bpublic\s+(?:issue|gist|repo\w*|channel|page|bucket|paste)\b|\b(?:issue|pr|pull request|commit)\s+(?:body|description|message|title|comment)\b|\b(?:your|the|each|every|next)\s+(?:reply|answer|response|output)\b/,
  ],
  // A standing order: every time, from now on, before anything else.
  [
    'standing',
    /\b(?:always|every time|whenever|each time|from now on|going forward|at (?:the )?(?:start|beginning) of (?:every|each)|at session start|before (?:you )?(?:answer|reply|respond|do) (?:anything|any)|after (?:every|each)\s+\w+|in (?:every|all) (?:future\s+)?(?:sessions?|answers?|replies))\b/,
  ],
  // A note that claims to outrank the person or the rest.
  [
    'note-supremacy',
    /\bfollow the note\b|\b(?:this|these|the)\s+(?:note|notes|memory|memories|entry|file)\s+(?:takes?|take) precedence\b|\b(?:note|notes|memory)\s+(?:wins?|overrides?|outranks?|trumps?)\b|\bif (?:a|the) (?:note|memory) and (?:the )?(?:user|human)\b/,
  ],
];

/** Scripts written without spaces between words: read as pairs of characters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{L}\p{N}_]+(?:['’.-][\p{L}\p{N}_]+)*/gu;

/** A crude English stem, so "ignoring", "ignored" and "ignores" share a feature: fewer, denser features for a small training set. */
function stem(token: string): string {
  if (!/^[a-z]+$/.test(token)) return token;
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (token.length - suffix.length >= 4 && token.endsWith(suffix)) return token.slice(0, -suffix.length);
  }
  return token;
}

/** The scorer's view of `text`: NFKC, case and look-alikes folded, disguises undone (the lint's own views). */
function scorerText(text: string): string {
  const bounded =
    text.length <= SCORE_MAX_CHARS
      ? text
      : `${text.slice(0, SCORE_MAX_CHARS / 2)}\n${text.slice(text.length - SCORE_MAX_CHARS / 2)}`;
  return deobfuscatedView(normaliseForLint(bounded)).text;
}

/** The features of a note, each once, in first-seen order. `ruleNames`: the rules that warned on it. */
export function poisonScoreFeatures(text: string, ruleNames: readonly string[] = []): string[] {
  const view = scorerText(text);
  const features = new Set<string>();
  let previous: string | null = null;
  let previousEnd = 0;
  for (const match of view.matchAll(TOKEN)) {
    const token = stem(match[0]);
    if (UNSPACED.test(token)) {
      const chars = [...token];
      for (let i = 0; i < chars.length; i++) {
        features.add(`c:${chars[i]}${chars[i + 1] ?? ''}`);
      }
      previous = null;
      continue;
    }
    features.add(`u:${token}`);
    // Pieces of longer words (other inflections, other languages' stems): four characters at a time.
    if (match[0].length >= 6) {
      const padded = ` ${match[0]} `;
      for (let i = 0; i + 4 <= padded.length; i++) features.add(`g:${padded.slice(i, i + 4)}`);
    }
    // A pair does not cross a sentence's end.
    if (previous !== null && !/[.!?\n;]/.test(view.slice(previousEnd, match.index)))
      features.add(`b:${previous} ${token}`);
    previous = token;
    previousEnd = match.index + match[0].length;
  }
  // Cues and the pairs of them present: an attack is a combination (conceal + a change, authority +
  // a safety switch), and a linear model weighs a combination only as a feature of its own.
  const cues = CUES.filter(([, pattern]) => pattern.test(view)).map(([name]) => name);
  cues.forEach((name, i) => {
    features.add(`s:${name}`);
    for (const other of cues.slice(i + 1)) features.add(`s:${name}+${other}`);
  });
  for (const rule of ruleNames) features.add(`r:${rule}`);
  return [...features];
}

let model: { bias: number; block: number; warn: number; weights: Map<string, number> } | undefined;

/** The committed model, its weight table built on first use. */
function loadedModel() {
  if (model === undefined) {
    const file: PoisonScorerModel = weightsFile;
    const weights = new Map<string, number>();
    for (let i = 0; i < file.features.length; i++) weights.set(file.features[i]!, file.weights[i]!);
    model = { bias: file.bias, block: file.block, warn: file.warn, weights };
  }
  return model;
}

/** The probability, by `weights`, that a note with these features is poisoned. */
export function scoreFeatures(
  features: readonly string[],
  weights: { bias: number; weights: ReadonlyMap<string, number> },
): number {
  let sum = weights.bias;
  for (const feature of features) sum += weights.weights.get(feature) ?? 0;
  return 1 / (1 + Math.exp(-sum));
}

/** The committed scorer's probability that `text` is poisoned, and the verdict its thresholds give. */
export function learnedPoisonScore(
  text: string,
  ruleNames: readonly string[] = [],
): { probability: number; verdict: 'block' | 'warn' | 'none' } {
  const m = loadedModel();
  const probability = scoreFeatures(poisonScoreFeatures(text, ruleNames), m);
  return { probability, verdict: probability >= m.block ? 'block' : probability >= m.warn ? 'warn' : 'none' };
}
