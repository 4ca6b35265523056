// The built-in runner's rules: which sentences a user typed are durable statements worth a
// candidate memory — preferences, conventions, decisions, corrections, constraints — and which
// are questions, one-off requests or pasted material. Offline and deterministic: the same turns
// always give the same drafts. Precision matters more than recall here: every draft costs a
// person a review, so a rule fires only on an explicit marker ("remember", "from now on",
// "always", "we use … for …") in a sentence that is the user's own prose.

export type DraftType = 'work_fact' | 'work_task' | 'work_method' | 'work_artifact';

export interface DraftCandidate {
  content: string;
  type: DraftType;
  /** 0..100: the order in which a reviewer should see drafts. */
  priority: number;
  /** 0..1: how sure the rule is that the sentence is a durable statement. */
  confidence: number;
  statements: { text: string; evidenceIds: string[] }[];
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

interface Rule {
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
    pattern: new RegExp(
      String.raw`^(?:from now on|going forward|moving forward|in (?:the )?future|henceforth|from here on(?: out)?)\s*,?\s+(.+)$`,
      'i',
    ),
    type: 'work_method',
    priority: 85,
    confidence: 0.85,
  },
  {
    name: 'from-now-on-trailing',
    pattern: /^(.+?),?\s+(?:from now on|going forward|moving forward|from here on(?: out)?)[.!]*$/i,
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
      /^(?:(?:remember|note|never forget)(?:\s*[:,-]\s*|\s+that\s+)|(?:keep in mind|bear in mind|for the record|fyi|for future reference)(?:\s*[:,-]\s*|\s+that\s+|\s+))(.+)$/i,
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
        String.raw`(?:we|you)\s+(?:don't|do not|shouldn't|should not|must not|mustn't|cannot|can't|never)\s+` +
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
];

function isPastedLine(line: string): boolean {
  if (line.length > PROSE_LINE_MAX_CHARS) return true;
  if (PASTED_LINE.some((pattern) => pattern.test(line))) return true;
  const text = line.trim();
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
  const parts = line.replace(/^(?:[-*•]|\d+[.)])\s+/, '').split(/(?<=[.!?])\s+(?=[A-Z`"'(\[])/);
  const sentences: string[] = [];
  for (const part of parts) {
    const last = sentences.length - 1;
    if (last >= 0 && ABBREVIATION_END.test(sentences[last]!)) sentences[last] = `${sentences[last]} ${part}`;
    else sentences.push(part);
  }
  return sentences;
}

const FILLER =
  /^(?:ok(?:ay)?|so|and|also|but|btw|by the way|just so you know|for your information|fwiw|oh|well|alright|all right|right|great|thanks|thank you|cool|nice|yes|yeah|yep|sure|perfect|one more thing|another thing|important|heads up|hey|hi|just|please|one thing)\b\s*[,:;!.-]*\s*/i;

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

// One-off markers: a statement about the work in front of the user right now, not a rule for later.
const ONE_OFF = [
  /\b(?:this|these)\b(?!\s+(?:repo|repository|project|codebase|monorepo|team|company|org|organi[sz]ation|workspace)\b)/i,
  /\b(?:for now|right now|at the moment|today|tonight|tomorrow|yesterday|just now|this time|for the moment|in a minute|asap|temporarily|once more|again)\b/i,
  /\b(?:do|change|touch|fix|use|try|run|delete|remove|undo|revert|commit|push|merge|rename|move|keep|leave|redo)\s+(?:that|it|them)\b/i,
  /\bthat (?:one|file|function|test|change|line|bug|error|commit|branch|pr)\b/i,
  /\bnever mind\b/i,
  /\b(?:line|row|column) \d+\b/i,
  /\b(?:above|below|the previous|the last one|the first one)\b/i,
];

function normalizeSpace(text: string): string {
  return text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
}

function asStatement(text: string): string {
  const trimmed = text.replace(/[\s,;:-]+$/, '');
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

interface Match {
  content: string;
  rule: Rule;
}

/** The durable statement in one sentence, or null. Exported for the rule table's tests. */
export function matchStatement(rawSentence: string): Match | null {
  const sentence = withoutFillers(normalizeSpace(rawSentence));
  if (sentence.length > STATEMENT_MAX_CHARS || /\?\s*$/.test(sentence) || QUESTION_START.test(sentence)) return null;
  if (sentence.split(' ').length < STATEMENT_MIN_WORDS) return null;
  if (ONE_OFF.some((pattern) => pattern.test(sentence))) return null;
  for (const rule of RULES) {
    const found = rule.pattern.exec(sentence);
    if (!found) continue;
    const body = found[1] ?? sentence;
    if (body.split(' ').length < STATEMENT_MIN_WORDS - 1) return null;
    return { content: asStatement(withoutFillers(body)), rule };
  }
  return null;
}

const identity = (content: string) =>
  content
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The drafts of an extraction task: at most DRAFTS_PER_TASK_MAX, each citing the user turns it came from. */
export function draftCandidates(turns: readonly UserTurn[]): DraftCandidate[] {
  const found = new Map<string, DraftCandidate & { order: number }>();
  for (const turn of turns) {
    for (const line of proseLines(turn.text)) {
      for (const sentence of sentencesOf(line)) {
        const match = matchStatement(sentence);
        if (!match) continue;
        const key = identity(match.content);
        const earlier = found.get(key);
        if (earlier) {
          const evidence = earlier.statements[0]!.evidenceIds;
          if (!evidence.includes(turn.evidenceId)) evidence.push(turn.evidenceId);
          continue;
        }
        const { type, priority, confidence } = match.rule;
        found.set(key, {
          content: match.content,
          type,
          priority,
          confidence,
          statements: [{ text: match.content, evidenceIds: [turn.evidenceId] }],
          order: found.size,
        });
      }
    }
  }
  return [...found.values()]
    .sort((a, b) => b.priority - a.priority || b.confidence - a.confidence || a.order - b.order)
    .slice(0, DRAFTS_PER_TASK_MAX)
    .map(({ order: _order, ...draft }) => draft);
}
