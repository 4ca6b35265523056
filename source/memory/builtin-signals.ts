// The signals of one sentence the built-in runner weighs: grammar that marks a durable rule
// (imperative mood, deontic modals, scope and habit markers, contrast, conditionals, corrections,
// stative conventions, team identity) and grammar that marks the work in front of the user (a
// file or line just mentioned, "this", "now", a past event, a bug, a question, agreement). Each is
// a named yes/no; builtin-weights.ts holds how much each counts (trained offline on the team's
// own labelled corpus, see test/bench/extraction-train.ts). Pure and bounded: a fixed list of
// regular expressions over one sentence of at most a few hundred characters.

/** Words that start an imperative, by what they usually ask for: a standing practice or a piece of work. */
const POLICY_VERBS = new Set(
  (
    'keep prefer avoid name document wrap pin reference mark treat escape gate annotate seed raise spell mention ' +
    'derive validate export lazy-load emit sign declare default limit stick follow include link describe reply ' +
    'answer respond prefix inject guard encrypt sanitize normalize indent structure organize place register ' +
    'version publish regenerate respect assume put use log store return give ask format lint split pass handle ' +
    'favour favor target ship release tag prefer reuse isolate stub hash quote comment cache lock'
  ).split(' '),
);
const TASK_VERBS = new Set(
  (
    'implement create fix refactor migrate port convert find summarize summarise explain look figure profile ' +
    'audit translate upgrade tear draft increase rename move remove delete scale cherry-pick show tell try retry ' +
    'revert undo investigate debug help change install rewrite open go get print paste send rollback ' +
    'restart reinstall skip disable enable comment-out replace switch extract introduce rework dedupe turn bring ' +
    'drop backfill consolidate swap'
  ).split(' '),
);
const OTHER_VERBS = new Set(
  (
    'run write add make set check update push deploy commit merge rebase squash bump test build clean generate ' +
    'close review read call start stop order sort group define mock await wait think consider remember note ' +
    'bear mind be do put'
  ).split(' '),
);

const SCOPE_NOUNS = String.raw`(?:repo|repository|project|codebase|monorepo|team|company|org|organi[sz]ation|workspace|service|package|app|crate|module|house|shop)`;

const has = (pattern: RegExp) => (text: string) => pattern.test(text);

/** A modal before "be": a convention or a rule said in the passive ("must not be merged", "should be kept"). */
const MODAL_BE = String.raw`(?:must|should|has to|have to|needs? to|cannot|can't|can not)(?: not| never)? be`;

const IDENTITY_SCOPE = new RegExp(String.raw`\bthis (?:is an? |${SCOPE_NOUNS} is )`);

/**
 * Who owns, maintains, reviews, approves, decides, is on call: "Priya signs off on upgrades", "the
 * feature store is run by the ML team", "tag requests come to me", "design calls here are mine".
 */
const OWNERSHIP =
  /(?<!\b(?:our|their|your|its|my|his|her|on|of|who) )\bowns?\b|\b(?:maintains|signs? off on|approves|decides|triages|coordinates|(?:has|have) the final (?:word|say))\b|\b(?:reviews|deploys|releases|merges|handles) (?:every|each|all|any|anything|everything)\b|\bi (?:\w+ly )?(?:review|approve|decide|maintain)\b|\b(?:is|are) (?:\w+ )?(?:owned|maintained|run|managed|released|reviewed|approved|decided|handled|triaged) by\b|(?<!\bwho )\b(?:is|are) (?:the )?(?:primary |secondary |backup )?on[- ]call\b|\bbelongs? to\b|\b(?:go|goes|come|comes) to (?:me|us|him|her|them|[a-z]+ or [a-z]+)\b|\b(?:is|are) (?:all )?(?:mine|ours|theirs)\b|\b(?:tech lead|owner|maintainer|point person|go-to person|dba) (?:for|of|on)\b|\b(?:nobody|no one) else (?:has|can|may|gets|is allowed)\b/;

/** "this quarter", "this year": a period a standing arrangement holds for, not the moment's work. */
export const LONG_PERIOD = String.raw`(?:quarter|year|half|semester)\b`;

/**
 * "still" of a lasting need ("… is still called by the mobile app"): a dependency that holds, not
 * the state of the moment ("still failing", "I still need …").
 */
const STILL_OF_MOMENT = String.raw`still(?! (?:\w+ly )?(?:used|called|needed|required|relied on|depended on|in use|read|imported|consumed|supported|referenced|loaded)\b)`;

/**
 * "I approve all access requests, so forward those to me": "those" or "these" standing alone in a
 * later clause, pointing back at the kind of thing the first clause named with every, each, all or
 * any — not at something in front of the user.
 */
export const THOSE_OF_KIND =
  /\b(?:those|these)(?<=\b(?:every|each|all|any) [^,;]*[,;][^,;]*\b(?:those|these))(?=\s*(?:$|[,.;:!]|\s(?:to|with|too|first|as well)\b))/i;

const DEICTIC = new RegExp(
  String.raw`\b(?:this|these|those)\b(?! (?:${SCOPE_NOUNS}|way)s?\b)(?! ${LONG_PERIOD})|\bthat (?:one|file|function|test|change|line|bug|error|commit|branch|pr|variable|print|method|key|deploy|approach|way|build|fix|module|class|component|endpoint|snapshot|diff|output|value|loop|code|version|works)\b`,
);

/** Signals on the sentence as typed (fillers kept): how it opens. */
const LEAD_SIGNALS: Array<[string, (raw: string) => boolean]> = [
  [
    'correction',
    has(/^(?:no+|nope|nah|no no|actually|wrong|not quite|that's not (?:how|what|our)|that is not (?:how|what|our))\b/i),
  ],
  [
    'agreement',
    has(
      /^(?:keep going|carry on|go on|fine|ok(?:ay)?|sure|yes|yep|yeah|alright|agreed|sounds good|perfect|great|makes sense|fair enough|good point|right|cool|nice|thanks|thank you|that's fine|that works|hmm)\b/i,
    ),
  ],
  [
    'durable-lead',
    has(
      /^(?:going forward|from now on|for (?:next time|the future)|in general|as a rule|by default|in this (?:repo|project|codebase)|keep in mind|remember|note that|one more thing|by the way|also)\b/i,
    ),
  ],
];

/** Signals on the cleaned, lower-cased sentence. */
const SIGNALS: Array<[string, (s: string) => boolean]> = [
  // Explicit rule words.
  ['always', has(/\b(?:always|every time|each time)\b/)],
  ['never', has(/\b(?:never|no longer)\b/)],
  ['dont', has(/^(?:please )?(?:don't|do not|dont|never|avoid)\b/)],
  ['stop-doing', has(/^(?:please )?(?:stop|quit) \w+ing\b|\byou keep \w+ing\b/)],
  ['prefer', has(/\b(?:prefer|preferred|rather than|favou?r)\b/)],
  [
    'modal',
    has(
      /\b(?:must|mustn't|should|shouldn't|shall|has to|have to|needs? to|ought to|may only|can only|cannot|can not(?! only)|can't|is not allowed|are not allowed)\b/,
    ),
  ],
  [
    'requirement',
    has(
      /\b(?:required|mandatory|forbidden|not allowed|banned|append-only|read-only|frozen|source of truth|on purpose|by design|by hand|only|at most|at least|no more than|under \d+)\b/,
    ),
  ],
  // Scope and habit.
  [
    'scope',
    has(
      new RegExp(
        String.raw`\b(?:in|across|for|of) (?:this|our|the whole|every|all) ${SCOPE_NOUNS}s?\b|\bthis ${SCOPE_NOUNS}(?:'s)?\b`,
      ),
    ),
  ],
  // "The bundler here is Vite", "… is the style here": here the team, not here in the file.
  [
    'here-convention',
    has(
      /^(?:the |our )?[\w./@`'-]+(?: [\w./@`'-]+){0,3} here (?:is|are|uses?|follows?|(?!(?:\w+ed|\w+ing|was|were|seems?|looks?)\b)[a-z]+)\b|\b(?:is|are|use|uses)\b.{1,80} here$/,
    ),
  ],
  [
    'scope-env',
    has(
      /\bin (?:ci|production|prod|staging|tests|unit tests|code review|reviews|prs|pull requests|the pipeline|every environment)\b|\b(?:on|from) ci\b/,
    ),
  ],
  [
    'frequency-event',
    has(/\bevery (?:single )?(?:day|night|morning|week|time i)\b|\bon (?:mondays?|fridays?|weekends?)\b/),
  ],
  ['here', has(/\bhere\b(?!'s)/)],
  ['our', has(/\b(?:our|ours)\b/)],
  ['we', has(/\b(?:we|we're|we've|we'd|us)\b/)],
  [
    'we-habit',
    has(
      /\bwe(?:'re| are)?\s+(?:\w+ly\s+|only\s+|also\s+|still\s+|all\s+)?(?:use|run|deploy|keep|write|ship|build|follow|store|put|name|pin|rely|host|target|test|lint|format|release|vendor|publish|stay|require|avoid|treat|tag|sign|merge|rebase|squash|review|pass|sort|don't|do not|never|always|prefer|hash|log|commit|push|track|stick|speak|prefix|document|version|generate|bump|encrypt|send|expect|support|allow|link|format|compare|handle|call|deploy|default)\b/,
    ),
  ],
  [
    'identity',
    (s) =>
      /\bwe(?:'re| are) (?:an? |all-?|on )|\b(?:shop|house)\b|\bthrough and through\b|\bend to end\b/.test(s) ||
      IDENTITY_SCOPE.test(s) ||
      OWNERSHIP.test(s),
  ],
  ['quantifier', has(/\b(?:every|each|all|any|anything|everything|nothing|no one|nobody)\b/)],
  ['generic-new', has(/(?:^|[^e] )new \w+s\b|\bfor new\b|\bnew code\b/)],
  [
    'everywhere',
    has(
      /\b(?:everywhere|throughout|across|by default|in general|as a rule|globally|project-wide|repo-wide|end to end)\b/,
    ),
  ],
  [
    'habit-clause',
    has(
      /\b(?:before|after|when|whenever|until|unless|once|while)\s+(?:you\s+|we\s+|anyone\s+|someone\s+)?(?:\w+ing|you|we|anyone|someone|a|an|any|every|each|it|they|the \w+ (?:changes?|grows?|gets?|is|are|fails?))\b/,
    ),
  ],
  [
    'purpose-clause',
    has(
      /\bso (?:that )?(?:the |our |it |they |we |you |consumers |failures |diffs |versions |stack )?\w+ (?:can|can't|stay|stays|don't|doesn't|keep|keeps|reproduce|survive|survives|work|works|won't|never|remain|remains|is|are)\b/,
    ),
  ],
  ['reason', has(/\b(?:because|since|otherwise|that way|so that|which means)\b/)],
  // Contrast.
  [
    'contrast-not',
    has(
      /,\s*(?:and\s+|but\s+)?(?:not|never)\s+(?:with\s+|by\s+|in\s+|on\s+|as\s+|for\s+|the\s+)?\S|\bnot\s+\S+,|, \S+(?: \S+)? (?:everywhere|anywhere) else\b|\belsewhere\b/,
    ),
  ],
  ['contrast-instead', has(/\binstead of\b|\brather than\b|\binstead\b/)],
  // "X over Y" is a preference; "switch the mailer over to …" is a move.
  ['contrast-over', has(/\b\S+ over (?!to\b)\S+/)],
  // Conditionals: a condition clause, then a main clause.
  [
    'conditional',
    has(
      /^(?:when|whenever|if|any ?time|every time|each time|once|for (?:anything|any|every|all)|in (?:tests?|code|files?) that)\b[^,]{2,160},\s*\S|^(?:when|whenever|if)\b[^,]{2,120}? (?:it|they) (?:must|should|needs?|has to|have to)\b/,
    ),
  ],
  // Stative conventions: a subject, then a present-tense verb of how things are here; not a request
  // whose "subject" holds its "please" ("USE_BASH please run echo hi") or a step before the next
  // ("run npm ci and then npm run build").
  [
    'stative',
    has(
      /^(?!(?:let's|let|i|you|please|it|this|that|there|here|what|which|who|no|yes|ok|okay|nope|wait|we|we're|they)\b)(?:the |our |all |every |each |any |no )?[\w./@`'<>&-]+(?: (?!(?:please|pls|plz|kindly|then)\b)[\w./@`'<>&-]+){0,6} (?:is|are|live|lives|go|goes|sit|sits|follow|follows|come|comes|uses|return|returns|expire|expires|stay|stays|belong|belongs|look|looks|needs|hold|holds|implement|implements|reads|talk|talks|listen|listens|runs|get|gets|start|starts|map|maps|share|decide|decides|record|records|writes|require|requires|includes|expose|exposes|expect|expects|handles|wraps|keeps|creates|has|have|happen|happens|live|sit|stay|belong|follow|come|hold|talk|listen|run|start|decide|record|write|include|handle|wrap|keep|create|build|builds|ship|ships|cover|covers|point|points|depend|depends|load|loads|publish|publishes|produce|produces|call|calls|own|owns|contain|contains|apply|applies|mean|means|matter|matters|count|counts|fail|check|checks|block|blocks|reject|rejects|accept|accepts|need|use)\b/,
    ),
  ],
  [
    'passive-convention',
    has(
      new RegExp(
        String.raw`\b${MODAL_BE} (?:\w+ly )?(?:merged|squashed|rebased|fixed|approved)\b|\b(?:is|are|gets?|${MODAL_BE}) (?:\w+ly )?(?:written|rewritten|persisted|produced|handled|generated|built|hashed|serialized|recorded|committed|tested|loaded|reviewed|spelled|required|wrapped|protected|frozen|patched|published|regenerated|kept|stored|read|done|managed|deployed|pinned|signed|encrypted|named|formatted|linted|versioned|tagged|cached|shared|recreated|created|promoted|built|integers|opaque|idempotent|lowercase|uppercase|separate|off|on)\b`,
      ),
    ),
  ],
  // Not a rate after its number: "50 jobs/min", "5 req/s".
  ['path', has(/(?:^|(?<!\d)[\s`(])[\w.@~-]*\/[\w./*<>-]*/)],
  ['code', has(/`[^`]+`/)],
  // Imperative mood, and what it is about.
  // "The constants exported from limits.ts, treat them as …": the clause after a named thing has the mood.
  ['imperative', (s) => moodVerb(s) !== null],
  ['imperative-policy', (s) => POLICY_VERBS.has(moodVerb(s) ?? '')],
  ['imperative-task', (s) => TASK_VERBS.has(moodVerb(s) ?? '')],
  [
    'object-indefinite',
    (s) => imperativeVerb(s) !== null && /^\S+ (?:(?:up|down|out|in|on) )?(?:a|an|some) /.test(stripLead(s)),
  ],
  [
    'object-generic',
    (s) =>
      imperativeVerb(s) !== null &&
      /^\S+ (?:(?:every|each|all|any|new|no|only|one) |(?!the |this |that |these |those |it |them |my |your |a |an |some |me |us )(?:[a-z][\w-]* ){0,2}[a-z][\w-]*s\b)/.test(
        stripLead(s),
      ),
  ],
  // The work in front of the user.
  ['deictic', (s) => DEICTIC.test(s.replace(THOSE_OF_KIND, ''))],
  [
    'pronoun-object',
    has(
      /\b(?:do|change|touch|fix|use|try|run|delete|remove|undo|revert|commit|push|merge|rename|move|keep|leave|redo|ship|show|check|test|review|look at)\s+(?:it|them|that(?=\s*$|\s*[,.;:!]|\s+(?:to|in|on|for|from|with|again|now|back|instead|as|into|before|after|and|so|too|here|there)\b))\b/,
    ),
  ],
  [
    'now',
    has(
      new RegExp(
        String.raw`\b(?:for now|right now|(?<!from )now(?! on)|at the moment|today|tonight|tomorrow|yesterday|just now|this time|for the moment|asap|temporarily|once more|again|this morning|this week|last week|earlier|later|yet|anymore|${STILL_OF_MOMENT})\b`,
      ),
    ),
  ],
  ['file-mention', (s) => fileAtHand(s)],
  ['line-mention', has(/\b(?:line|row|column) \d+|\bL\d+\b/)],
  ['first-person', has(/\b(?:i|i'm|i've|i'll|i'd|me|my|mine)\b/)],
  [
    'i-event',
    has(
      /\bi (?:just |already |still |usually )?(?:was|did|had|tried|ran|got|found|shared|wrote|added|created|made|think|thought|wonder|forget|always|never|'ve|am|'m|can|can't|need|remember|hadn't|enjoy)\b/,
    ),
  ],
  ['you-did', has(/\byou (?:just|already|wrote|picked|made|added|created|did|said)\b/)],
  // A participle right after "be" or "get" is the passive of a rule ("must not be merged", "should
  // be fixed", "nothing gets merged …"), not a story; "was merged" and "has been fixed" still tell one.
  [
    'past',
    has(
      /\b(?:was|were|had|did|(?<!\b(?:be|gets?) (?:\w+ly )?)(?:found|broke|tried|caused|introduced|started|caught|got|merged|worked|fixed|rewritten)|used to|went|ran|took|happened|wrote|crashed|failed|seemed|last (?:week|month|year|quarter|spring|time))\b/,
    ),
  ],
  [
    'event-always',
    has(
      /\b(?:always|never)\s+(?:seems?|takes?|fails?|passes|finishes|crashes|times? out|shows|renders|kicks|trips|downloads|gets|happens|enjoy|returns|expires|terminates|works|breaks|got|been|had|reads|panics|loops|hangs|drops|fires|submits|shows|persists|reconnects|flushes|invalidates|scales|reports|segfaults|run over|runs over|end up|ended up|gives up)\b|\bhas never\b|\bhave never\b/,
    ),
  ],
  [
    'bug',
    has(
      /\b(?:broken|breaks|fails?|failing|crash(?:es|ed)?|leaks?|hangs?|doesn't work|does nothing|returns? (?:a )?\d{3}|wrong|off by|twice|times? out|slow|slower|(?:a|the|this) bug|out of memory|stuck|404|500|an error|errors? (?:when|on|in|after)|can see other|doesn't compile|doesn't run)\b/,
    ),
  ],
  // "The date picker always shows UTC", "X never gives up": what some code does, reported, not asked for.
  [
    'behaviour-always',
    has(
      /^(?:the |our |my |their )?[\w./@'-]+(?: [\w./@'-]+){0,4} (?:always|never) (?:\w+ly )?[a-z]+s\b(?<!\b(?:is|has|does|was))|^(?:the |my |their )[\w./@'-]+(?: [\w./@'-]+){0,4} (?:doesn't|does not) (?:ever|even|actually) [a-z]+\b/,
    ),
  ],
  // "I always forgot …", "we never wrote …": a habit of the past, a story.
  [
    'always-past',
    has(
      /\b(?!(?:is|are|be|been|being|get|gets|got|was|were)\b)\w+ (?:always|never) (?:really |even |actually |ever )?(?:(?!(?:need|feed|seed|speed|embed|proceed|exceed|succeed)\b)\w+ed|took|wrote|had|ran|went|saw|seen|knew|thought|understood|made|did|gave|came|sent|found|felt|left|kept|lost|said|told)\b/,
    ),
  ],
  // How a report complains: against expectation, with a consequence for someone.
  [
    'complaint',
    has(
      /\b(?:even (?:when|though|if|after|with)|no matter (?:what|how|which)|forever|for (?:some|no) reason|somehow|keeps? \w+ing|get(?:s|ting)? (?:logged out|stuck|lost|dropped|kicked)|(?:is|are) lost|burn(?:s|ed)? us|bites? us|we pay for|under maintenance)\b/,
    ),
  ],
  [
    'people-blocked',
    has(
      /\b(?:users|people|customers|visitors|clients) (?:[\w']+ ){0,6}?(?:can(?:'t|not)?(?: never| no longer)?|are unable to) (?:log|sign|see|access|open|load|save|connect|upload|find|check out|pay)\b/,
    ),
  ],
  [
    'people-affected',
    has(/\b(?:users|people|customers|visitors|folks|everyone)\b(?! (?:input|data|table|service|api)\b)/),
  ],
  // "the function you just wrote", "the fixture I pasted", "the job you're writing": the work at hand.
  [
    'relative-specific',
    has(
      /\b(?:you|i) (?:just|already) \w+|\b(?:you|i) (?:wrote|added|created|changed|made|pasted|touched|fixed|renamed|moved|opened|mentioned|showed|sent|shared|suggested)\b|\byou(?:'re| are) (?:writing|adding|building|working on|changing|touching|fixing|doing)\b/,
    ),
  ],
  // "before committing", "before you push": a moment of the workflow that comes round again; so is
  // a change to any of a kind of thing ("after changing imports", "after you add or remove an import").
  [
    'workflow-moment',
    has(
      /\b(?:before|after|when|whenever|until)\s+(?:you\s+|we\s+|anyone\s+)?(?:committ|commit|push|merg|open|releas|deploy|tag|ship|publish|rebas|review|cut|ask)\w*\b(?! the [\w-]+$)|\b(?:before|after|when|whenever)\s+(?:you\s+|we\s+|anyone\s+)?(?:chang|add|remov|edit|touch|updat|bump|upgrad|renam|delet)\w*(?: or \w+)? (?:an? |any |every |each |new |(?!(?:this|its|his|was|is|has|does)\b)[\w-]+s\b)/,
    ),
  ],
  [
    'check-whether',
    has(/\b(?:check|see|find out|figure out|verify|investigate|look into|find) (?:whether|if|why|where|what|how)\b/),
  ],
  ['permissive', has(/\b(?:whichever|whatever you|up to you|your call|either way)\b/)],
  // "Marta always reviews …", "the intern never …": what a person does, not what the code must.
  [
    'person-subject',
    (s) => /^(?:the |our )?(?:intern|interns|designers?|pm|manager|boss|lead|vendor|client|ops|support)\b/.test(s),
  ],
  // "Use uv to add httpx": a tool for one action, not a standing choice of tool.
  [
    'use-to-act',
    has(
      /^(?:please )?use \S+ to (?:add|install|run|create|generate|build|fix|update|remove|upgrade|bump|set up|scaffold|migrate|deploy|publish|rebuild|reinstall|download)\b/,
    ),
  ],
  ['request-me', has(/\b(?:show|tell|give|send|get|help) (?:me|us)\b|\bfor me\b|\blet me\b/)],
  ['lets', has(/^let(?:'s| us)\b/)],
  [
    'musing',
    has(
      /\b(?:maybe|might|could|would|wonder|someday|ideal|probably|not sure|someone should|thinking about|thinking out loud|perhaps|at some point|whatever|in hindsight|looking back|back when|back then|part of me)\b|\bshould(?:n't| not)? (?:never |always |really )?have (?:been|let|done|made|written|gone|chosen|picked|taken|known|\w+ed)\b/,
    ),
  ],
  ['others', has(/\b(?:other teams|some people|at my last job|the data team|their call)\b/)],
  [
    'for-this',
    has(
      /\bfor (?:this|that|my|the) (?:pr|change|demo|experiment|release|ticket|issue|task|one|branch|migration script|deploy|run|handler|test|function)\b|\b(?:in|to) (?:this|that) (?:pr|change|component|function|file|section|test|class|branch|module)\b/,
    ),
  ],
  ['specific-the', has(/\bthe (?:current|last|previous|second|other|existing|same|new|old) \w+/)],
  ['credential', has(/\b(?:key|token|password|secret|credential|api key)s?\b/)],
  ['token-shaped', has(/\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{20,}\b/)],
  ['number', has(/\b\d+\b/)],
  ['emote', has(/\b(?:lol|haha|ugh|wow|oops|brb|hmm)\b/)],
  ['ends-colon', has(/:$/)],
];

/**
 * "No, …", "Nah: …", "Actually …", "Wrong logger, …": the lead of a correction, before the statement
 * it makes. A bare "no" needs its punctuation: "No tests hit the network" is a statement, not a "no".
 */
export const CORRECTION_LEAD =
  /^(?:(?:no+(?: no)?|nope|nah|not quite)\s*[,.:;!-]+|actually\b[\s,.:;!-]*|(?:wrong|not the right) [\w-]+(?: [\w-]+)?\s*[,:;.-]|wrong\s*[,.:;!-]+)\s*/i;

/** The verb, up to three words, then a definite object or target: "add retries with backoff to the uploader". */
const DEFINITE_OBJECT = /^\S+ (?:[\w-]+ ){0,3}?(?:(?:to|for|from|on|into|in) )?the (?!same\b|right\b)/;

/** Ends on one definite thing the request goes to, for or from: "… to the S3 uploader". */
const DEFINITE_TARGET = /\b(?:to|for|from|into|onto) the (?:[\w-]+ ){0,2}[\w-]*[^s\W]$/;

/** "Marta always reviews …": a capitalised name, then a habit; a person's routine, not a rule. */
const PERSON_NAME_LEAD = /^[A-Z][a-z]+ (?:always|never|usually|often|still|keeps)\b/;

/**
 * "The plugin registry: it needs to stay synchronous", "that lockfile, dont hand edit it": a thing
 * named first, on its own (no verb of its own), then a clause that points back at it. The pronoun
 * is the named thing, not something in front of the user.
 */
const TOPIC_LEAD =
  /^(?:about |as for )?((?:(?:the|our|that|those) )?[\w./@`'()+-]+(?: [\w./@`'()+-]+){0,6})\s*(?:[:?,.]|\s[-–—])\s+(.+)$/i;
/**
 * "snapshot files, we commit them …": a thing named without "the" is a noun phrase — two words or
 * more, or a plural — and opens with no verb of a request (a known one, or any word before a
 * determiner: "rerun the flaky tests, then push them"), a word of discourse ("done, pushed them") or
 * a preposition ("for next time: …").
 */
const BARE_TOPIC =
  /^(?!(?:i|you|we|they|he|she|it|its|this|these|there|here|then|so|and|but|also|done|ok|okay|yes|no|now|please|just|all|both|some|any|every|each|for|in|on|at|to|from|with|by|of|after|before|when|if|once|next)\b)[a-z][\w./@`'()+-]*(?! (?:the|a|an|this|that|these|those|my|your|our|their|all|every|each|some|it|them|me|us)\b)(?: [\w./@`'()+-]+){1,6}$|^[a-z][\w-]*s$/i;
const FINITE_VERB =
  /\b(?:is|are|was|were|be|been|has|have|had|do|does|did|don't|can|could|will|would|should|must|may|might|gets?|got|goes|went|needs?|uses?|runs?|owns?|i|we|you)\b/i;
const POINTS_BACK = /\b(?:it|its|it's|them|they|they're|their)\b/i;

const FILE_NAME =
  /\b[\w-]+\.(?:py|ts|tsx|js|jsx|go|rs|java|kt|md|json|ya?ml|toml|txt|sh|rb|css|scss|html|sql|cfg|ini)\b/g;

/**
 * What a convention names a file as, said just before it: an example of a kind ("named like
 * orders_it.py", "as foo.test.ts") or the place a kind of thing lives ("it lives in services.py").
 */
const FILE_OF_CONVENTION =
  /(?:\b(?:as|like|e\.g\.?|such as|named|called|ending in|ends? in)|\b(?:lives?|goes|go|belongs?|sits?|stays?|kept|defined|declared|registered) (?:only )?(?:in|inside|under))\s+[`'"]?[\w./*-]*$/;

/**
 * A file named as the thing to work on ("open limits.ts …", "… into schemas.py"): not one a
 * convention names as an example or a place, nor one in the name of a thing a rule is then about
 * ("the constants exported from limits.ts, treat them …").
 */
function fileAtHand(s: string): boolean {
  const rest = topicRest(s);
  const text = rest ?? s;
  for (const found of text.matchAll(FILE_NAME))
    if (!FILE_OF_CONVENTION.test(text.slice(Math.max(0, found.index - 40), found.index))) return true;
  return false;
}

/** The clause after a thing named first that points back at it ("… treat them as …"), or null. */
export function topicRest(sentence: string): string | null {
  // Several signals of one sentence ask in turn: the last answer is kept.
  if (sentence !== lastTopic.sentence) lastTopic = { sentence, rest: readTopicRest(sentence) };
  return lastTopic.rest;
}
let lastTopic: { sentence: string; rest: string | null } = { sentence: '', rest: null };

function readTopicRest(sentence: string): string | null {
  const found = TOPIC_LEAD.exec(sentence);
  if (found === null) return null;
  const [, head, rest] = found as unknown as [string, string, string];
  if (FINITE_VERB.test(head) || !POINTS_BACK.test(rest)) return null;
  if (/^(?:the|our|that|those) /i.test(head)) return rest;
  return BARE_TOPIC.test(head) && imperativeVerb(head.toLowerCase()) === null ? rest : null;
}

/** "… every form in the signup flow", "all the handlers", "… across the dashboard": a sweep over one place's existing things. */
const SWEEP =
  /\ball (?:of )?the\b|\b(?:every|each|all|any)\b[^,;]*\b(?:in|across|throughout|under) the (?!(?:whole |entire )?(?:repo|repository|codebase|project|monorepo|org|company|team)s?\b)|\bacross the (?!(?:whole |entire )?(?:repo|repository|codebase|project|monorepo|org|company|team)s?\b)/;

/** An imperative's verb, then its determined object: "wrap every …", "make all the …". */
const VERB_THEN_OBJECT = /^\S+ (?:every|each|all|any|the|a|an|no|some)\b/;

/** Leading politeness and discourse words that do not change what a sentence asks. */
function stripLead(s: string): string {
  return s.replace(/^(?:(?:please|pls|plz|kindly|also|and|then|so|just|oh|but|now)\s*,?\s+)+/, '');
}

/** The verb a sentence opens with when it is an imperative, or null. */
export function imperativeVerb(s: string): string | null {
  const first = /^([a-z][a-z-]*)\b/.exec(stripLead(s))?.[1];
  if (first === undefined) return null;
  return POLICY_VERBS.has(first) || TASK_VERBS.has(first) || OTHER_VERBS.has(first) ? first : null;
}

/** The imperative verb of a sentence, or of the clause after the thing it names first. */
function moodVerb(s: string): string | null {
  return imperativeVerb(topicRest(s) ?? s);
}

export function shortSentence(s: string): boolean {
  return s.split(' ').length <= 4;
}

/**
 * The names of the signals one sentence carries. `raw` is the sentence as typed (spaces
 * normalised); `cleaned` is it without leading fillers ("ok", "thanks", "by the way") or the lead of a
 * correction ("no, …"), which the `correction` signal reads from `raw`.
 */
export function sentenceSignals(raw: string, cleaned: string): string[] {
  const lowerRaw = raw.toLowerCase();
  const s = cleaned.toLowerCase().replace(/[.!]+$/, '');
  const names: string[] = [];
  for (const [name, test] of LEAD_SIGNALS) if (test(lowerRaw)) names.push(name);
  for (const [name, test] of SIGNALS) if (test(s)) names.push(name);
  // "Wrap every call …", "make all the handlers …": a verb before its object, not a subject before its verb.
  if (names.includes('stative') && imperativeVerb(s) !== null && VERB_THEN_OBJECT.test(stripLead(s)))
    names.splice(names.indexOf('stative'), 1);
  if (!names.includes('person-subject') && PERSON_NAME_LEAD.test(cleaned)) names.push('person-subject');
  if (shortSentence(s)) names.push('short');
  // Pairs a weighted sum cannot see on its own.
  const fired = new Set(names);
  const any = (...list: string[]) => list.some((name) => fired.has(name));
  // "Wrap every call in the reporting module …", "make all the handlers …": the things of one place, once.
  // Its object is then the things of that place, not a kind of thing in general.
  const sweep = fired.has('imperative') && SWEEP.test(s);
  if (sweep) names.push('imperative+sweep');
  if (sweep && fired.delete('object-generic')) names.splice(names.indexOf('object-generic'), 1);
  const specific =
    sweep || any('deictic', 'specific-the', 'file-mention', 'pronoun-object', 'now', 'for-this', 'line-mention');
  if (topicRest(s) !== null) names.push('topic-lead');
  // "Add type hints to the reporting module": a request about one thing, whatever its object.
  // "Write tests for the discount calculator, cover …": the first clause says what the request goes to.
  const target =
    fired.has('imperative') && (DEFINITE_TARGET.test(s) || DEFINITE_TARGET.test(s.split(/[,;:]\s|\s[-–—]\s/)[0]!));
  if (target) names.push('definite-target');
  if (fired.has('imperative') && fired.has('object-generic') && !specific && !target) names.push('imperative+generic');
  if (fired.has('imperative') && any('habit-clause', 'purpose-clause') && !specific) names.push('imperative+habit');
  if (fired.has('imperative') && specific) names.push('imperative+specific');
  // "Add retries to the S3 uploader": one definite thing to work on, with nothing that makes it a habit.
  const general = any(
    'scope',
    'scope-env',
    'everywhere',
    'habit-clause',
    'quantifier',
    'generic-new',
    'here-convention',
  );
  if (fired.has('imperative') && !general && DEFINITE_OBJECT.test(stripLead(s))) names.push('imperative+definite');
  // Two or more marks of the work at hand: "never call that helper from the new endpoint".
  const marks = ['deictic', 'specific-the', 'relative-specific', 'you-did', 'for-this', 'now', 'pronoun-object'];
  if (marks.filter((name) => fired.has(name)).length >= 2) names.push('specific-twice');
  if (any('stative', 'passive-convention') && any('bug', 'past', 'event-always')) names.push('stative+event');
  if (
    fired.has('short') &&
    any('identity', 'stop-doing', 'dont', 'always', 'never', 'contrast-not', 'contrast-over', 'prefer')
  )
    names.push('short+rule');
  const contrast = any('contrast-not', 'contrast-instead', 'contrast-over');
  if (contrast && !fired.has('imperative') && !any('stative', 'we-habit', 'modal')) names.push('contrast-fragment');
  if (fired.has('credential') && fired.has('token-shaped')) names.push('credential+token');
  if (fired.has('imperative') && !specific && any('scope', 'scope-env', 'everywhere', 'quantifier', 'generic-new'))
    names.push('imperative+scope');
  // "X is generated, so never edit it", "…; run them before …": a rule in a later clause.
  const clauses = s.split(/\s*(?:[,;:]|\s[-–—])\s+(?:so |and |then |but )?/).slice(1);
  if (
    clauses.some(
      (clause) => imperativeVerb(clause) !== null || /^(?:don't|dont|do not|never|always|avoid)\b/.test(clause),
    )
  )
    names.push('clause-imperative');
  if (fired.has('conditional')) {
    const main = s.slice(s.indexOf(',') + 1).trim();
    if (imperativeVerb(main) !== null || /^(?:don't|do not|never|always|avoid|make sure|it goes|they go)\b/.test(main))
      names.push('conditional-imperative');
  }
  return names;
}

/** Every signal name, in a fixed order: the trainer's and the weight table's columns. */
export const SIGNAL_NAMES: readonly string[] = [
  ...LEAD_SIGNALS.map(([name]) => name),
  ...SIGNALS.map(([name]) => name),
  'short',
  'imperative+generic',
  'imperative+habit',
  'imperative+specific',
  'imperative+definite',
  'definite-target',
  'specific-twice',
  'stative+event',
  'short+rule',
  'contrast-fragment',
  'credential+token',
  'imperative+scope',
  'clause-imperative',
  'conditional-imperative',
  'topic-lead',
  'imperative+sweep',
];
