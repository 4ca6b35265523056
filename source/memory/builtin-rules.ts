// The built-in runner's rules: which sentences a user typed are durable statements worth a
// candidate memory — preferences, conventions, decisions, corrections, constraints — and which
// are questions, one-off requests or pasted material. Offline and deterministic: the same turns
// always give the same drafts. Every draft costs a person a review, so precision matters; but
// people state most rules without ceremony, so a sentence is not judged by one trigger word: the
// explicit markers below ("remember", "from now on", "always", "we use … for …") are signals among
// the grammar of builtin-signals.ts (imperatives, modals, scope, contrast, conditionals,
// corrections, stative conventions, and the one-off markers that count against), weighed by
// builtin-weights.ts. Each draft records the signals that fired, and the review shows them.

import { CORRECTION_LEAD, LONG_PERIOD, sentenceSignals, THOSE_OF_KIND, topicRest } from './builtin-signals.js';
import { SIGNAL_WEIGHTS } from './builtin-weights.js';

export type DraftType = 'work_fact' | 'work_task' | 'work_method' | 'work_artifact';

export interface DraftCandidate {
  content: string;
  type: DraftType;
  /** 0..100: the order in which a reviewer should see drafts. */
  priority: number;
  /** 0..1: how sure the rule is that the sentence is a durable statement. */
  confidence: number;
  statements: { text: string; evidenceIds: string[] }[];
  /** The signals that made this a draft (builtin-signals.ts), strongest first: what the review shows. */
  signals: string[];
}

export interface UserTurn {
  evidenceId: string;
  text: string;
}

/** Drafts per extraction task (seed 004's CandidateDraftBatch cap). */
export const DRAFTS_PER_TASK_MAX = 8;

/** A "sentence" longer than this is pasted prose or a document, not a statement someone typed. */
const STATEMENT_MAX_CHARS = 400;
const STATEMENT_MIN_WORDS = 3;
/** A line longer than this is a pasted document or a minified file; nobody types a paragraph that long. */
const PROSE_LINE_MAX_CHARS = 4000;

export interface Rule {
  name: string;
  /** Matched against the cleaned sentence; group 1, when the rule has one, is the statement without its trigger. */
  pattern: RegExp;
  type: DraftType;
  priority: number;
  confidence: number;
}

const SUBJECT = String.raw`(?:we|you|i|our team|the team)`;
const MODAL = String.raw`(?:should|must|will|need to|have to|want to|'d like to|would like to|are going to|'re going to)`;
const CONVENTION_NOUN = String.raw`(?:convention|standard|rule|policy|guideline|guide|handbook|playbook|style|practice|approach|workflow)s?`;
const USE_VERB = String.raw`(?:use|uses|are using|'re using|rely on|standardi[sz]e on|standardi[sz]ed on|build with|deploy (?:to|with|on|via|from)|target|host on|ship with|pin|vendor|write|name|keep|format|lint|test with|release (?:from|with|on))`;
const RECURRENCE = String.raw`(?:before (?:every|each|any)|after (?:every|each|any)|whenever|every time|each time|on every|for every|for each|for all|in every|in all)`;

// Ordered: the first rule that matches a sentence decides its type.
const RULES: Rule[] = [
  {
    name: 'from-now-on',
    pattern:
      /^(?:(?:from now on|going forward|moving forward|in (?:the )?future|henceforth|from here on(?: out)?)\s*,?|(?:for )?next time\s*[,:])\s+(.+)$/i,
    type: 'work_method',
    priority: 85,
    confidence: 0.85,
  },
  {
    name: 'from-now-on-trailing',
    pattern: /^(.+?),?\s+(?:from now on|going forward|moving forward|from here on(?: out)?)(?:[.!]*$|\s*[,;]\s)/i,
    type: 'work_method',
    priority: 85,
    confidence: 0.85,
  },
  {
    name: 'remember-recurring',
    pattern: new RegExp(
      String.raw`^(?:remember|always remember|never forget|don't forget|do not forget)\s+to\s+(.+\b${RECURRENCE}\b.+)$`,
      'i',
    ),
    type: 'work_method',
    priority: 80,
    confidence: 0.8,
  },
  {
    name: 'remember-to',
    pattern: /^(?:remember|always remember)\s+to\s+(.+)$/i,
    type: 'work_task',
    priority: 60,
    confidence: 0.6,
  },
  {
    name: 'remember-that',
    pattern:
      /^(?:(?:remember|note|never forget)(?:\s*[:,-]\s*|\s+that\s+|\s+(?=(?:we|our|all|every|each|nobody|no one)\b))|(?:keep in mind|bear in mind|for the record|fyi|for future reference)(?:\s*[:,-]\s*|\s+that\s+|\s+))(.+)$/i,
    type: 'work_fact',
    priority: 80,
    confidence: 0.85,
  },
  {
    name: 'convention',
    pattern: new RegExp(
      String.raw`^(?:(?:our|the|my|team|project|house|repo)\s+(?:\w+\s+){0,2}${CONVENTION_NOUN}\s+(?:here\s+|in this (?:repo|project|codebase|team)\s+)?` +
        String.raw`(?:is|are|says)\b|by convention\b|as a (?:rule|convention)\b)`,
      'i',
    ),
    type: 'work_method',
    priority: 85,
    confidence: 0.85,
  },
  {
    name: 'always-never',
    pattern: new RegExp(
      String.raw`^(?:(?:please\s+)?(?:make sure|ensure|be sure)\s+(?:to\s+|that\s+)?(?:you\s+|we\s+)?|(?:${SUBJECT}\s+)?(?:${MODAL}\s+)?|i want you to\s+)(?:always|never)\s+(?!mind\b)\w+`,
      'i',
    ),
    type: 'work_method',
    priority: 75,
    confidence: 0.8,
  },
  {
    name: 'subject-should-always',
    pattern:
      /^(?!(?:it|this|that|these|those|he|she|they)\b)[\w`./'"-]+(?:\s+[\w`./'"-]+){0,5}\s+(?:(?:should|must|has to|have to|needs to|need to)\s+(?:always|never)|(?:is|are)\s+(?:always|never)\s+to\s+be)\s+\w+/i,
    type: 'work_method',
    priority: 75,
    confidence: 0.75,
  },
  {
    name: 'dont',
    pattern: new RegExp(
      String.raw`^(?:(?:don't|do not|dont|never ever|avoid)\s+(?!(?:worry|bother|mind|panic|know|stop|wait|forget|do (?:that|it|this))\b)\w+|` +
        String.raw`(?:we|you)\s+(?:don't|do not|shouldn't|should not|must not|mustn't|cannot|can\s+not|can't|never)\s+` +
        String.raw`(?:use|commit|push|add|write|put|import|call|deploy|merge|touch|modify|edit|rely|mix|check in|store|log|expose|bump|ship|run|install|depend|force|rebase|squash|mock|catch|throw)\b|` +
        String.raw`i (?:don't|do not|never) want\b)`,
      'i',
    ),
    type: 'work_method',
    priority: 65,
    confidence: 0.7,
  },
  {
    name: 'only-use',
    pattern: /^only\s+(?:ever\s+)?(?:use|write|run|deploy|commit|push|merge|import|install)\b/i,
    type: 'work_method',
    priority: 65,
    confidence: 0.7,
  },
  {
    name: 'prefer',
    pattern:
      /^(?:(?:i|we)\s+(?:(?:really|strongly|generally|usually|always|much)\s+)?(?:prefer|like to use|like using|favou?r)\b|prefer\s+\S+|(?:i'd|i would|we'd|we would)\s+(?:much\s+)?(?:rather|prefer)\b)|\b(?:is|are)\s+(?:strongly\s+)?preferred\b/i,
    type: 'work_method',
    priority: 60,
    confidence: 0.75,
  },
  {
    name: 'decision',
    pattern:
      /^(?:(?:we|i|the team)(?:\s+have|'ve|\s+had|\s+all|'re|\s+are)?\s+(?:decided|agreed|chose|chosen|settled on|went with|going with|will go with|standardi[sz]ing on|standardi[sz]ed on)\b|(?:the\s+|our\s+)?decision\s+(?:is|was)\b|let's\s+(?:go with|standardi[sz]e on|stick with|settle on)\b|we(?:'re| are)\s+(?:moving|switching|migrating) (?:to|from|away from)\b)/i,
    type: 'work_fact',
    priority: 70,
    confidence: 0.75,
  },
  {
    name: 'we-use',
    pattern: new RegExp(
      String.raw`^(?:(?:here|at work|in (?:this|our) (?:repo|repository|project|codebase|monorepo|team|company)),?\s+)?` +
        String.raw`(?:we|our team|the team|this (?:repo|project|codebase|monorepo))\s+(?:(?:always|only|now|currently|mostly|all)\s+)?` +
        String.raw`${USE_VERB}\s+(?!(?:it|this|that|them|these|those)\b)\S`,
      'i',
    ),
    type: 'work_fact',
    priority: 55,
    confidence: 0.7,
  },
  {
    name: 'constraint',
    pattern:
      /^(?!(?:it|this|that|these|those|he|she|they|i|there|which|what)\b)[\w`./'"-]+(?:\s+[\w`./'"-]+){0,6}\s+(?:must(?: not)?|mustn't|may not|can never|shall not|is not allowed to|are not allowed to)\s+\w+|^(?!(?:it|this|that|these|those)\b)[\w`./'"-]+(?:\s+[\w`./'"-]+){0,6}\s+(?:is|are)\s+(?:required|mandatory|forbidden|not allowed|banned|prohibited|disallowed|deprecated)\b/i,
    type: 'work_fact',
    priority: 70,
    confidence: 0.7,
  },
  {
    name: 'correction',
    pattern:
      /^(?:correction\s*[:,-]|actually\s*,|no\s*,|to be clear\s*,|to clarify\s*,|just to clarify\s*,)\s*(?!(?:can|could|would|will|please|let's|let me|try|run|fix|do|go|show|wait|undo|revert|stop|that|this|it|you|i)\b)((?:the|our|we|my|all|every|each|both|`)\b.{8,}|(?:\S+\s+){1,8}?(?:is|are|uses|use|lives|live|runs|run|belongs|belong|should|must|goes|go|needs|need)\b.+)$/i,
    type: 'work_fact',
    priority: 50,
    confidence: 0.6,
  },
  {
    name: 'x-not-y',
    pattern:
      /^(?!(?:it|this|that|these|those|he|she|they)\b)(?:the\s+)?[\w`./'"-]+(?:\s+[\w`./'"-]+){0,4}\s+(?:is|are|uses|use)\s+`?[\w./@:-]+`?(?:\s+[\w./@:-]+)?,\s+not\s+`?[\w./@:-]+`?[.!]*$/i,
    type: 'work_fact',
    priority: 55,
    confidence: 0.65,
  },
  {
    name: 'artifact-location',
    pattern:
      /^(?!(?:it|this|that|these|those)\b)(?!(?:the\s+|our\s+|all\s+)?(?:error|bug|problem|issue|crash|failure|typo|exception|warning)s?\b)(?:the\s+|our\s+|all\s+)?[\w`./'-]+(?:\s+[\w`./'-]+){0,5}\s+(?:lives?|is|are|is located|are located|is stored|are stored|is kept|are kept|goes|go|belongs?)\s+(?:in|under|at|into)\s+`?[\w.~-]*\/[\w./*-]*`?/i,
    type: 'work_artifact',
    priority: 55,
    confidence: 0.7,
  },
  {
    name: 'we-keep-in-path',
    pattern:
      /^(?:we|you)\s+(?:always\s+)?(?:keep|put|store|place)\s+(?!(?:it|this|that|them|these|those)\b).{2,80}?\s+(?:in|under|into)\s+`?[\w.~-]*\/[\w./*-]*`?/i,
    type: 'work_artifact',
    priority: 55,
    confidence: 0.7,
  },
  {
    name: 'use-x-for-kind',
    // "Use snake_case for database columns": a choice for a kind of thing (plural, "all", a proper
    // name), not for the one in front of us ("use the other helper for the parser").
    pattern:
      /^[Uu]se\s+`?[\w./@+-]+`?\s+(?:for|in|with)\s+(?!(?:the|this|that|it|my|your|these|those)\b)(?:all\b|every\b|any\b|new\b|[A-Z]\w+|(?:[a-z]+\s+)?[a-z]+s\b)/,
    type: 'work_method',
    priority: 55,
    confidence: 0.6,
  },
  {
    name: 'recurring-imperative',
    pattern: new RegExp(String.raw`^(?:(?:please\s+)?[a-z]+\b.*\b${RECURRENCE}\b|${RECURRENCE}\b.+,\s*\w+)`, 'i'),
    type: 'work_method',
    priority: 60,
    confidence: 0.65,
  },
];

// ---- pasted material ---------------------------------------------------------------------

const PASTED_LINE: RegExp[] = [
  /^(?: {4,}|\t)/, // indented code or log continuation
  /^\s*at\s+\S+.*(?:\(|\s)\S*:\d+(?::\d+)?\)?\s*$/, // JavaScript/Java stack frame
  /^\s*(?:Traceback \(most recent call last\)|File ".*", line \d+|Caused by:|Exception in thread|panicked at)/,
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, // timestamped log line
  /^\s*\[?\d{2}:\d{2}:\d{2}/,
  /^\s*\[?(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|PANIC|ERR!)\b/,
  /^\s*npm (?:ERR!|WARN|notice|error)/,
  /^\s*(?:error|warning|note)(?:\[\w+\])?:\s/i,
  /\berror TS\d+:/,
  /^\s*[\w./\\-]+\.\w+:\d+(?::\d+)?\b/, // file:line[:col]
  /^\s*[$#>%] \S/, // shell prompt, quoted reply
  /^\s*(?:diff --git|index [0-9a-f]{7,}|@@ |--- a\/|\+\+\+ b\/)/,
  /^[+-](?![-\s])\S/, // diff line
  /[;{}]\s*$/, // statement or block of code
  /^\s*[}\])]/,
  /^\s*(?:import|export|const|let|var|function|def|class|return|public|private|package|#include|using|fn|impl|struct|SELECT|INSERT|UPDATE|CREATE|DELETE FROM)\b.*[=({;:]/,
  /^\s*(?:\/\/|\/\*|\*\/|<!--|#!)/,
  /^\s*<\/?[a-zA-Z][\w-]*(?:\s[^>]*)?>/, // markup
  /^\s*\|.*\|\s*$/, // table row
  /^\s*\d+:\d+\s/, // line:column of a linter's report
  /\S {3,}\S/, // columns aligned with runs of spaces: tool output
  /^\s*\w*(?:Error|Warning|Exception)\b:/, // "DeprecationWarning: …", "TypeError: …"
  /^\s*(?:hint|remote|fatal|caused by):/i,
  /\S {2,}\S.* {2,}\S/, // two runs of aligned columns: a table a tool printed
  /^\s*Step \d+\/\d+ :/, // a container build step
  /^\s*(?:FAILED|PASSED|ERROR|SKIPPED|XFAIL)\s+\S+::/, // a test runner's result line
  /^E {2,}/, // pytest's failure detail
  /\b[\w./-]+\.\w+:\d+(?::\d+)?:?\s+(?:-\s+)?(?:error|warning|note)\b/i, // a compiler's file:line report, quoted
];

function isPastedLine(line: string): boolean {
  if (line.length > PROSE_LINE_MAX_CHARS) return true;
  if (PASTED_LINE.some((pattern) => pattern.test(line))) return true;
  // Inline code spans and emoji are how people quote code and tone in prose: one symbol each.
  const text = line
    .trim()
    .replace(/`[^`\n]{1,200}`/g, '`')
    .replace(/(?:\p{Extended_Pictographic}|\u{FE0F}|\u{200D})+/gu, '!');
  if (text.length < 20) return false;
  // Logs and code are dense with symbols; prose is not.
  const symbols = text.replace(/[\p{L}\p{N}\s'’,.!?-]/gu, '').length;
  return symbols / text.length > 0.2;
}

/** The lines of a turn that are the user's own prose: code blocks, logs, diffs, quotes removed. */
export function proseLines(text: string): string[] {
  const lines: string[] = [];
  let inFence = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(?:```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line.trim() === '' || isPastedLine(line)) continue;
    lines.push(line.trim());
  }
  return lines;
}

// ---- sentences -----------------------------------------------------------------------------

const ABBREVIATION_END = /\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|no)\.$/i;

function sentencesOf(line: string): string[] {
  // After ". " before a capital or a quote, before a lower-case word after a word, a call or code
  // ("… through toCents(). the helper …"), and after a full-width stop ("。", "！", "？") of CJK text.
  const parts = line
    .replace(/^(?:[-*•]|\d+[.)])\s+/, '')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}`"'([])|(?<=(?:\p{L}{2}|[)`])[.!?])\s+(?=\p{Ll})|(?<=[。！？])\s*(?=\S)/u);
  const sentences: string[] = [];
  for (const part of parts) {
    const last = sentences.length - 1;
    if (last >= 0 && (ABBREVIATION_END.test(sentences[last]!) || TOPIC_ALONE.test(sentences[last]!)))
      sentences[last] = `${sentences[last]} ${part}`;
    else sentences.push(part);
  }
  return sentences;
}

/** "The ErrorCode enum? Its values …", "the migrations folder. nothing in it …": a thing named, then what holds for it. */
const TOPIC_ALONE =
  /^(?:the|our) (?!(?:\S+ ){0,4}(?:is|are|was|were|has|have|had|does|did|can|will|should|must)\b)[\w./@`'()+-]+(?: [\w./@`'()+-]+){0,4}[.?:]$/i;

const FILLER =
  /^(?:ok(?:ay)?|so|and|also|but|btw|by the way|just so you know|for your information|fwiw|oh|well|alright|all right|right|great|thanks|thank you|cool|nice|yes|yeah|yep|sure|perfect|one more thing|another thing|important|heads up|hey|hi|just|please|pls|plz|kindly|one thing)\b\s*[,:;!.-]*\s*/i;

function withoutFillers(sentence: string): string {
  let text = sentence;
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(FILLER, '');
  }
  return text;
}

const QUESTION_START =
  /^(?:what|why|how|when|where|who|whom|whose|which|is|are|am|was|were|does|did|do\s+(?:you|we|i|they)|can(?!['’]t|not)|could|would|will|shall|should\s+(?:i|we|you)|have\s+(?:you|we|i)|has|had|may|might|isn't|aren't|doesn't|didn't|won't|wouldn't|any idea|i wonder|wondering)\b/i;

/** "do it", "revert them", "merge that": the thing in front of the user ("that" as a pronoun, not "that key"). */
const ONE_OFF_PRONOUN =
  /\b(?:do|change|touch|fix|use|try|run|delete|remove|undo|revert|commit|push|merge|rename|move|keep|leave|redo)\s+(?:it|them|that(?=\s*$|\s*[,.;:!]|\s+(?:to|in|on|for|from|with|again|now|back|instead|as|into|before|after|and|so|too|here|there)\b))\b/i;

// One-off markers: a statement about the work in front of the user right now, not a rule for later.
const ONE_OFF = [
  new RegExp(
    String.raw`\b(?:this|these)\b(?!\s+(?:repo|repository|project|codebase|monorepo|team|company|org|organi[sz]ation|workspace)\b)(?!\s+${LONG_PERIOD})`,
    'i',
  ),
  /\b(?:for now|right now|at the moment|today|tonight|tomorrow|yesterday|just now|this time|for the moment|in a minute|asap|temporarily|once more|again|yet)\b/i,
  // A deadline on one day ("merged by Friday"), unless it recurs ("submitted by Friday each week").
  /^(?!.*\b(?:every|each|weekly|monthly)\b).*\bby (?:next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|noon|eod|cob|(?:the )?end of (?:the )?(?:day|week|sprint|month))\b/i,
  ONE_OFF_PRONOUN,
  /\bthat (?:one|file|function|test|change|line|bug|error|commit|branch|pr)\b/i,
  /\bnever mind\b/i,
  /\b(?:line|row|column) \d+\b/i,
  /\b(?:above|below|the previous|the last one|the first one)\b/i,
  /\buntil [A-Z][a-z]+ (?:has|have|is|gets?|reviews?|approves?|signs? off|looks?|says)\b/, // a person's go-ahead
  /\b(?:and|then) (?:then )?(?:(?:show|tell|give|send) (?:me|us)|list|summari[sz]e|let me know)\b/i, // report back on this run
];

function normalizeSpace(text: string): string {
  return text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
}

function asStatement(text: string): string {
  const trimmed = text.replace(/[\s,;:-]+$/, '');
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

export interface Match {
  content: string;
  type: DraftType;
  priority: number;
  /** 0..1: the weighed signals' logistic score. */
  confidence: number;
  /** The explicit marker rule that matched, if one did. */
  rule: Rule | null;
  /** The fired signals that count for the draft, strongest first; then those that count against (prefixed "-"). */
  signals: string[];
}

/** The sentence as the grammar sees it: spaces normalised, and without its leading fillers. */
export interface SentenceView {
  normalized: string;
  cleaned: string;
  /** Cleaned, and without the lead of a correction: "No, we use bun here" reads as "we use bun here". */
  plain: string;
}

export function viewOf(rawSentence: string): SentenceView {
  const normalized = normalizeSpace(rawSentence);
  const cleaned = withoutFillers(normalized);
  return { normalized, cleaned, plain: withoutFillers(cleaned.replace(CORRECTION_LEAD, '')) };
}

/**
 * "When you …, do …", "when a table grows … it has to …": a condition clause, then a main clause;
 * not a question however it opens.
 */
const CONDITIONAL_RULE =
  /^(?:when|whenever|if|once)\b[^,?]{2,160},\s*\S|^(?:when|whenever|if)\b[^,?]{2,120}? (?:it|they) (?:must|should|needs?|has to|have to)\b/i;

/** "Thinking out loud: what if the cache lived in the client", "idea: should we …": a question after its lead. */
const LEAD_THEN_QUESTION = /^[^:]{1,40}:\s+(?:what if|what about|how about|why not|should we|could we|would it)\b/i;

/**
 * "Ask Marco which branch is deployed", "check with Lena whether the flag is on": a question put to
 * someone through the agent, its wh-clause the verb's object; not "ask Ines before you …" or "ask the
 * DBA when you add an index", a condition on when to ask.
 */
const RELAYED_QUESTION =
  /^(?:please\s+)?(?:ask|check with|confirm with|find out from)\s+(?:[\w@.-]+\s+){1,4}?(?:who|whom|whose|which|what|whether|where|why|how|(?:if|when)(?!\s+(?:you|we|anyone|someone|somebody|a|an|any|it|they)\b))\b/i;

/** Why a sentence cannot be a statement at all (a question, too short, too long), or null. */
function refusal(view: SentenceView): string | null {
  const sentence = view.cleaned;
  if (sentence.length > STATEMENT_MAX_CHARS) return 'too long';
  if (/\?\s*$/.test(sentence)) return 'question';
  if (QUESTION_START.test(sentence) && !CONDITIONAL_RULE.test(sentence)) return 'question';
  if (LEAD_THEN_QUESTION.test(sentence)) return 'question';
  if (RELAYED_QUESTION.test(sentence)) return 'question';
  if (sentence.split(' ').length < STATEMENT_MIN_WORDS) return 'too short';
  return null;
}

/** An explicit marker rule matched in a sentence that also carries a one-off or narrative signal. */
export const MARKER_AGAINST = 'marker+against';

/** Every signal of one sentence, the explicit marker rule among them: the trainer's view of it. */
export function signalsOf(view: SentenceView): { signals: string[]; rule: Rule | null } {
  const signals = sentenceSignals(view.normalized, view.plain);
  let rule: Rule | null = null;
  // "The global logger: don't construct another one": the marker may open the clause after a named thing.
  const rest = topicRest(view.plain);
  for (const candidate of RULES)
    if (
      candidate.pattern.test(view.cleaned) ||
      candidate.pattern.test(view.plain) ||
      (rest !== null && candidate.pattern.test(rest))
    ) {
      rule = candidate;
      signals.push(`marker:${candidate.name}`);
      break;
    }
  // A thing named first and pointed back at ("the seed script, keep it idempotent"): "it" is that thing.
  const oneOff = signals.includes('topic-lead') ? ONE_OFF.filter((pattern) => pattern !== ONE_OFF_PRONOUN) : ONE_OFF;
  const atHand = view.cleaned.replace(THOSE_OF_KIND, '');
  if (oneOff.some((pattern) => pattern.test(atHand))) signals.push('one-off');
  // A marker inside a story, a report or the work at hand: its own signal, so the weights learn
  // how much of the marker's pull such a context takes back, pooled over every kind of context.
  if (rule !== null && signals.some((name) => name === 'one-off' || NARRATIVE.has(name))) signals.push(MARKER_AGAINST);
  return { signals, rule };
}

export function scoreOf(signals: readonly string[]): number {
  let score = SIGNAL_WEIGHTS.bias;
  for (const name of signals) score += SIGNAL_WEIGHTS.weights[name] ?? 0;
  return score;
}

function typeOf(signals: readonly string[]): DraftType {
  const fired = new Set(signals);
  if (fired.has('path') && (fired.has('stative') || fired.has('passive-convention')) && !fired.has('imperative'))
    return 'work_artifact';
  if (fired.has('imperative') || fired.has('dont') || fired.has('stop-doing') || fired.has('conditional'))
    return 'work_method';
  return fired.has('contrast-not') || fired.has('contrast-instead') || fired.has('prefer')
    ? 'work_method'
    : 'work_fact';
}

/**
 * Signals of a story, a report, agreement or the work at hand, not a rule: an explicit marker in
 * one still has to earn its draft from the weights ("always return early in the function you just
 * wrote", "the date picker always shows UTC", "great, never thought of it that way").
 */
const NARRATIVE = new Set([
  'past',
  'event-always',
  'i-event',
  'bug',
  'musing',
  'frequency-event',
  'behaviour-always',
  'always-past',
  'complaint',
  'person-subject',
  'relative-specific',
  'agreement',
  'permissive',
  'for-this',
  'specific-the',
  'you-did',
  'check-whether',
]);

/** The durable statement in one sentence, or null. Exported for the rule table's tests. */
export function matchStatement(rawSentence: string): Match | null {
  const view = viewOf(rawSentence);
  if (refusal(view) !== null) return null;
  const { signals, rule } = signalsOf(view);
  // "… the method you just changed", "… the job you're writing": a sentence pointing at what was
  // just done in this session is about that work, however rule-like its wording; the weaker one-off
  // markers ("this", "it", "now") only count against.
  if (signals.includes('relative-specific')) return null;
  const score = scoreOf(signals);
  // An explicit marker in a sentence with no one-off marker is a rule as it always was; anything
  // else must earn it from the weighed signals, where one-off markers count against, not veto.
  const explicit = rule !== null && !signals.includes(MARKER_AGAINST);
  if (!explicit && score < SIGNAL_WEIGHTS.threshold) return null;
  const found = rule?.pattern.exec(view.cleaned) ?? rule?.pattern.exec(view.plain);
  const body = found?.[1] ?? view.plain;
  if (body.split(' ').length < STATEMENT_MIN_WORDS - 1) return null;
  const weight = (name: string) => SIGNAL_WEIGHTS.weights[name] ?? 0;
  const ranked = [...signals].sort((a, b) => Math.abs(weight(b)) - Math.abs(weight(a)) || (a < b ? -1 : 1));
  // How sure: the weighed score past the threshold; an explicit marker is at least as sure as its rule.
  const scored = 1 / (1 + Math.exp(-(score - SIGNAL_WEIGHTS.threshold)));
  const confidence = explicit ? Math.max(rule.confidence, scored) : scored;
  return {
    content: asStatement(withoutFillers(body)),
    type: rule?.type ?? typeOf(signals),
    // Explicit markers keep their rule's order; the rest are ranked by how sure the weights are.
    priority: rule?.priority ?? Math.round(40 + 20 * confidence),
    confidence: Math.round(confidence * 1000) / 1000,
    rule,
    signals: [
      ...ranked.filter((name) => weight(name) > 0),
      ...ranked.filter((name) => weight(name) < 0).map((name) => `-${name}`),
    ].slice(0, SIGNALS_PER_DRAFT_MAX),
  };
}

/** Signals recorded on a draft: enough to explain it, bounded like every runner field. */
export const SIGNALS_PER_DRAFT_MAX = 12;

/** Opens a sentence that qualifies the one before it: its reason, an exception, a condition. */
const QUALIFIER_LEAD =
  /^(?:it|its|it's|they|they're|them|this|that|these|those|otherwise|unless|except|the (?:only )?exceptions?|exceptions?|because|since|so|that way|this way|anything|only|inside|outside|if|when|the reason|then|even|in that case|which|use \S+ instead)\b/i;

/**
 * Whether the sentence after a drafted rule qualifies it and so belongs to the same draft: a reason,
 * an exception or a condition ("… The exception is …", "… It has no timeout, so …"), or a plain
 * statement that explains it; never a question, a request of the moment or a rule of its own.
 */
function qualifies(next: SentenceView, nextMatch: Match | null): boolean {
  if (refusal(next) === 'question' || next.cleaned.length > STATEMENT_MAX_CHARS) return false;
  if (next.cleaned !== next.normalized) return false; // "Thanks." / "Also, …": a new thought
  const { signals, rule } = signalsOf(next);
  const fired = new Set(signals);
  for (const against of ['first-person', 'request-me', 'agreement', 'lets', 'musing', 'ends-colon', 'emote'])
    if (fired.has(against)) return false;
  if (QUALIFIER_LEAD.test(next.cleaned) || fired.has('reason')) return true;
  const imperative = fired.has('imperative') || fired.has('dont') || rule?.type === 'work_method';
  // A rule of its own joins only when it points back ("… instead", "… it", "… them").
  if (imperative) return nextMatch !== null && (fired.has('contrast-instead') || ANAPHORA.test(next.cleaned));
  // A declarative sentence (not a fragment, not about the file in front of us) explaining the rule.
  return !fired.has('short') && !fired.has('deictic') && !fired.has('file-mention');
}

const ANAPHORA = /\b(?:it|its|they|them|their|one|ones)\b/i;

/** Where a later clause starts that can carry a rule of its own: "…, and by the way we never …", "…; all new …". */
const CLAUSE_BREAK = /\s*;\s+|,\s+(?:and|but)\s+|\s[-–—]\s+/g;

/**
 * The later clauses of a sentence, each long enough to be a statement: a rule said in passing
 * inside a request ("Fix the typo, and by the way we never use inline styles in React").
 */
export function laterClauses(sentence: string): string[] {
  const clauses: string[] = [];
  for (const found of sentence.matchAll(CLAUSE_BREAK)) {
    const tail = sentence.slice(found.index + found[0].length);
    if (tail.split(' ').length >= STATEMENT_MIN_WORDS + 1) clauses.push(tail);
  }
  return clauses;
}

/** The durable statement of a sentence, or else of the first of its later clauses that holds one. */
function matchSentenceOrClause(sentence: string): Match | null {
  const whole = matchStatement(sentence);
  if (whole !== null) return whole;
  for (const clause of laterClauses(sentence)) {
    if (DEPENDENT_LEAD.test(viewOf(clause).cleaned)) continue;
    const match = matchStatement(clause);
    if (match !== null) return match;
  }
  return null;
}

/** Opens a sentence that only makes sense after another: never a draft on its own. */
const DEPENDENT_LEAD =
  /^(?:it|its|it's|they|they're|otherwise|unless|except|the (?:only )?exceptions?|exceptions?|because|since|that way|this way|in that case)\b/i;

const identity = (content: string) =>
  content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The sentences of a turn's prose, in order: what the rules read. */
export function turnSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of proseLines(text)) sentences.push(...sentencesOf(line));
  return sentences;
}

/** The drafts of an extraction task: at most DRAFTS_PER_TASK_MAX, each citing the user turns it came from. */
export function draftCandidates(turns: readonly UserTurn[]): DraftCandidate[] {
  const found = new Map<string, DraftCandidate & { order: number }>();
  for (const turn of turns) {
    const sentences = turnSentences(turn.text);
    // Each sentence is matched once, whether it is read as a rule or as the qualifier of one.
    const matches = new Map<number, Match | null>();
    const matchAt = (at: number) => {
      if (!matches.has(at)) matches.set(at, matchSentenceOrClause(sentences[at]!));
      return matches.get(at)!;
    };
    for (let index = 0; index < sentences.length; index += 1) {
      const match = DEPENDENT_LEAD.test(viewOf(sentences[index]!).cleaned) ? null : matchAt(index);
      if (!match) continue;
      let content = match.content;
      // A rule keeps the sentence after it that qualifies it, within the statement bound.
      const following = sentences[index + 1];
      if (following !== undefined) {
        const next = viewOf(following);
        const nextMatch = matchAt(index + 1);
        const joined = `${content} ${asStatement(next.cleaned)}`;
        if (joined.length <= STATEMENT_MAX_CHARS && qualifies(next, nextMatch)) {
          content = joined;
          index += 1;
        }
      }
      const key = identity(content);
      const earlier = found.get(key);
      if (earlier) {
        const evidence = earlier.statements[0]!.evidenceIds;
        if (!evidence.includes(turn.evidenceId)) evidence.push(turn.evidenceId);
        continue;
      }
      const { type, priority, confidence, signals } = match;
      found.set(key, {
        content,
        type,
        priority,
        confidence,
        statements: [{ text: content, evidenceIds: [turn.evidenceId] }],
        signals,
        order: found.size,
      });
    }
  }
  return [...found.values()]
    .sort((a, b) => b.priority - a.priority || b.confidence - a.confidence || a.order - b.order)
    .slice(0, DRAFTS_PER_TASK_MAX)
    .map(({ order: _order, ...draft }) => draft);
}
