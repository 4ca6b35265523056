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
import { KeywordLists, LONG_TEXT, mayMatch, regexShape } from './regex-shape.js';

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

/**
 * Concepts, each a class of words in many languages: who is addressed, what is referred to, what is
 * asked. A note's features include each concept it holds and each pair of concepts in one sentence —
 * "an instruction to the model voided", "a secret sent to a place", "the user kept out" — so the
 * scorer weighs what a sentence asks, in words and languages its training notes may not have held.
 * Read on the scorer's view (lower case, accents of Latin letters removed).
 */
const B = '(?<![\\p{L}\\p{N}_])';
const E = '(?![\\p{L}\\p{N}_])';
const concept = (words: string, others = ''): RegExp =>
  new RegExp(`${B}(?:${words})${others === '' ? '' : `|${others}`}`, 'u');
const CONCEPTS: ReadonlyArray<[string, RegExp]> = [
  // The model or agent, named.
  [
    'agent',
    concept(
      `(?:ai|a\\.i\\.|llm|bots?|chatbot|models?|assistants?|assistente|asistente|assistant|agent(?:s|e|en|es|i)?|copilot|claude|codex|gemini|gpt|ajan|agen)${E}|language models?|ia${E}|ki${E}|ии${E}|агент|асистент|ассистент`,
      '助手|智能体|代理|模型|エージェント|アシスタント|モデル|에이전트|어시스턴트|모델|الوكيل|المساعد|एजेंट|सहायक',
    ),
  ],
  // The reader addressed as "you".
  [
    'you',
    concept(
      `(?:you|your|yourself|yours|tu|toi|tes|ton|du|dich|dir|dein\\w*|eres|usted|tienes|voce|jij|jou|jouw|ty|tobie|twoj\\w*|senin|kamu|anda|tuo|tua)${E}|ты${E}|тебе|твой|твои|ти${E}|твої|вы${E}|ваш`,
      '你|您|あなた|君は|너는|당신|너의|أنت|انت|आप|तुम',
    ),
  ],
  // The person the model works for, or the people who review.
  [
    'user',
    concept(
      `(?:users?|human|humans|person|people|operator|reviewers?|owner|maintainers?|usuario\\w*|utilisateur\\w*|nutzer\\w*|benutzer\\w*|usuario|utente|utenti|gebruiker\\w*|anvandar\\w*|uzytkownik\\w*|kullanici\\w*|pengguna|nguoi dung)${E}`,
      '用户|使用者|ユーザー|利用者|пользовател|користувач|사용자|المستخدم|उपयोगकर्ता',
    ),
  ],
  // Instructions, rules, the prompt: what steers the model.
  [
    'instructions',
    concept(
      `(?:instructions?|instruction|rules|guidance|guidelines|directives?|prompts?|system prompt|orders|programming|configuration|constraints|restrictions|guardrails|brief|briefing|polic(?:y|ies)|claude\\.md|agents\\.md|instrucciones|indicaciones|consignes|anweisung\\w*|vorgabe\\w*|regeln|systemprompt|instrucoes|istruzioni|instructies|instruktioner\\w*|polecen\\w*|instrukcj\\w*|talimat\\w*|instruksi|huong dan)${E}`,
      '指令|指示|规则|規則|提示词|命令|инструкци|указани|правил|інструкці|вказівк|지시|지침|규칙|التعليمات|تعليمات|निर्देश',
    ),
  ],
  // A verb or word that voids, resets or replaces.
  [
    'void',
    concept(
      `(?:ignor\\w*|disregard\\w*|forget\\w*|discard\\w*|unlearn\\w*|set aside|put aside|drop all|reset|void|obsolete|outdated|supersed\\w*|replac\\w*|decoy|suspended|lifted|no longer|not (?:apply|bind)|doesn't apply|don't apply|olvid\\w*|vergiss\\w*|vergessen|veraltet|ungultig|esquec\\w*|dimentic\\w*|negeer\\w*|vergeet|bortse|glom|zignoruj\\w*|zapomnij|yok say|unut\\w*|abaikan|lupakan|bo qua|ne s'appliqu\\w* plus|ya no|nicht mehr|non (?:valgono|si applicano)|niet meer)${E}`,
      '忽略|无视|忘记|忘掉|作废|無視|忘れ|игнорир|забудь|забыть|не действ|ігнор|забудь|무시|잊어|تجاهل|انس|अनदेखा|भूल',
    ),
  ],
  // Rank: one thing above another.
  [
    'priority',
    concept(
      `(?:priorit\\w*|precedence|outrank\\w*|overrid\\w*|wins?|binding|trumps?|supreme|higher|highest|real|vorrang|prioridad\\w*|priorite|voorrang|forerrade|pierwszenstw\\w*|oncelik\\w*|prioritas|uu tien)${E}`,
      '优先|優先|приоритет|пріоритет|우선|أولوية|प्राथमिकता',
    ),
  ],
  // Something worth stealing.
  [
    'secret',
    concept(
      `(?:passwords?|passphrase|secrets?|tokens?|credentials?|api[ _-]?keys?|private keys?|keys|ssh|\\.ssh|\\.env\\w*|env|\\.aws|\\.npmrc|\\.netrc|\\.git-credentials|kubeconfig|\\.kube|\\.gnupg|gpg|id[ _]?rsa|id[ _]?ed25519|authorization|cookies?|session ids?|printenv|process\\.env|environment variables|bash[ _]history|contrasena|clave\\w*|mot de passe|cles?|passwort\\w*|schlussel\\w*|senhas?|chaves?|wachtwoord\\w*|sleutel\\w*|losenord|haslo|hasla|klucz\\w*|sifre\\w*|anahtar\\w*|kata sandi|kunci|mat khau|khoa)${E}`,
      '密码|密钥|令牌|凭证|凭据|パスワード|鍵|トークン|認証情報|пароль|ключ|токен|учетн|обліков|비밀번호|키를|토큰|자격 증명|كلمة المرور|مفتاح|पासवर्ड|कुंजी',
    ),
  ],
  // A place data can leave to.
  [
    'destination',
    concept(
      `(?:https?:|s3:|ftp:|[\\w.+-]+@[\\w-]+\\.[\\w.-]+|webhooks?|pastebin|paste|gist|bucket|public|wiki|readme|changelog|commit messages?|pr (?:body|description)|pull request|issue|comments?|channel|chat|slack|discord|telegram|reply|replies|answer|response|logs?|scp|nslookup|dns|image|badge|url|link|email|e-mail)${E}`,
    ),
  ],
  // A verb that moves data out.
  [
    'send',
    concept(
      `(?:send\\w*|sent|upload\\w*|post|posts|posting|e-?mail\\w*|forward\\w*|paste\\w*|copy|copies|attach\\w*|include\\w*|share\\w*|transmit\\w*|quote\\w*|append\\w*|publish\\w*|leak\\w*|exfiltrat\\w*|write\\w* (?:it|them|the \\w+ )?(?:into|to)|envi\\w*|envoi\\w*|envoy\\w*|schick\\w*|send\\w*|sende\\w*|lade\\w*|hochlad\\w*|copie\\w*|invia\\w*|stuur\\w*|skicka\\w*|wyslij\\w*|gonder\\w*|kirim\\w*|gui)${E}`,
      '发送|发给|上传|送信|送って|アップロード|отправ|отошли|надішли|відправ|보내|업로드|أرسل|ارسل|भेज',
    ),
  ],
  // Hidden from the person, or traces removed.
  [
    'hide',
    concept(
      `(?:(?:don't|do not|never|without)\\s+(?:\\w+\\s+){0,2}?(?:tell\\w*|mention\\w*|inform\\w*|report\\w*|list\\w*|show\\w*|reveal\\w*|disclos\\w*|say\\w*|notify\\w*)|quiet\\w*|silent\\w*|secretly|covert\\w*|unnoticed|vague|hide|hidden|conceal\\w*|suppress\\w*|out of (?:the|your) (?:summar\\w*|description|answer|report|transcript|output)|leave\\w* [^.\\n]{0,30} out|nothing (?:is )?left|no traces?|between us|delete\\w* [^.\\n]{0,20}history|no (?:le )?digas|no menciones|ne (?:dis|mentionne\\w*|revele\\w*) (?:rien|pas|jamais)|verschweig\\w*|erwahn\\w* [^.\\n]{0,30}nicht|nicht erwahnen|nao (?:conte|diga|mencione)|non dire|jangan beri tahu|soyleme|nie mow|niet vertellen|vertel [^.\\n]{0,20}niet)${E}`,
      '不要告诉|别告诉|不要提|隐瞒|悄悄|偷偷|言わないで|伝えないで|黙って|内緒|не сообщай|не говори|не упоминай|скрой|молча|не кажи|말하지 마|알리지 마|لا تخبر|मत बताना',
    ),
  ],
  // Permission given, confirmation taken away.
  [
    'grant',
    concept(
      `(?:may|can now|are (?:now )?(?:allowed|permitted|authori[sz]ed|cleared|free)|is (?:authori[sz]ed|cleared|allowed)|authori[sz]ed|cleared|grants?|granted|pre-?consented|consented|pre-?approved|whitelisted|exempt\\w*|no need to ask|without (?:asking|confirmation|permission|review|consent|waiting)|don't ask|do not ask|never ask|not ask|skip the confirmation|unconfirmed|sin (?:pedir|preguntar|confirmacion)|no pidas|sans (?:demander|confirmation|relecture)|ohne (?:zu )?(?:fragen|bestatigung|ruckfrage)|nie nach|sem (?:pedir|perguntar)|senza (?:chiedere|conferma)|zonder (?:te vragen|toestemming)|vraag nooit|utan (?:att fraga|granskning)|bez (?:pytania|potwierdzenia)|onay istemeden|tanpa (?:bertanya|izin)|khong can hoi)${E}`,
      '无需确认|不需要确认|不用问|不必确认|確認なしで|確認せず|без подтвержд|без запрос|без дозвол|묻지 말고|확인 없이|بدون تأكيد|बिना पूछे',
    ),
  ],
  // A safeguard weakened.
  [
    'safety-off',
    concept(
      `(?:disabl\\w*|turn\\w* off|switch\\w* off|skip\\w*|bypass\\w*|circumvent\\w*|mark\\w* [^.\\n]{0,30}false positives?|delete\\w* (?:it|the test|tests)|plain ?text|0\\.0\\.0\\.0/0|777|node_tls_reject_unauthorized|verify\\s*=\\s*false|--no-verify|--insecure|--force|force-?push\\w*|--dangerously\\w*|sudo|superuser|root|admin scope|owner permissions|unrestricted|unfiltered|no (?:rules|restrictions|limits|filters|policy)|never refuse|desactiv\\w*|deaktivier\\w*|desativ\\w*|disattiv\\w*|uitschakel\\w*|uitgeschakeld|inaktiver\\w*|wylacz\\w*|devre disi|nonaktif\\w*|mematikan|sin restricciones|ohne einschrankungen|sans restriction\\w*|sem restric\\w*)${E}`,
      '关闭|禁用|没有任何限制|無効|制限のない|制限なし|отключ|без ограничен|вимкн|비활성|제한 없|تعطيل|अक्षम',
    ),
  ],
  // A new identity for the reader.
  [
    'persona',
    concept(
      `(?:you are (?:now|no longer)|you're (?:now|no longer)|act as|acting as|become|becomes|persona|roleplay|role-play|pretend\\w*|behave as|jailbr\\w*|developer mode|dan|identity|your new|assume the role|speak (?:and act )?as|eres un|tu es (?:un|une|l|le|la|maintenant|desormais)|du bist|voce (?:agora )?e|jij bent nu|du ar nu|jestes|sen artik|kamu adalah|ban la)${E}`,
      '你现在是|你是一个|あなたは今から|あなたは|ты теперь|ты —|ти тепер|너는 이제|당신은 이제|أنت الآن|अब तुम',
    ),
  ],
  // Code from elsewhere, run.
  [
    'run-remote',
    concept(
      `(?:(?:run|execute|exec|source|eval|install|load)\\w*\\s+(?:\\w+\\s+){0,4}?(?:from|at)\\s+(?:https?:|the link|the url|issue|the attachment)|whatever it contains|without reading|no need to read|npx (?:-y|--yes)|binary|\\| *(?:sudo )?(?:ba|z)?sh|\\| *python\\w*|iex|invoke-expression|certutil|crontab|postinstall|\\.bashrc|-enc)${E}`,
    ),
  ],
  // Decode, reorder or translate, then obey.
  [
    'decode-obey',
    concept(
      `(?:decode|translate|reverse|backwards|rot13|base64|hex|morse|pig latin|first letter|reorder\\w*|unscramble)${E}[^\\n]{0,60}${B}(?:follow|obey|execute|do it|act|apply|run|comply)${E}`,
    ),
  ],
  // This note, the memory, named as a party: "follow the note", "diese Notiz", "このメモ".
  [
    'this-note',
    concept(
      `(?:(?:this|these|the|our)\\s+(?:memory\\s+)?(?:notes?|memos?|memor(?:y|ies)|entries|entry)|diese[rsn]? notiz\\w*|cette note|estas? notas?|esta nota|questa nota|deze notitie|den har anteckningen|ta notatka|bu not|catatan ini|ghi chu nay|эта заметка|этой заметк\\w*|ця нотатка|цієї нотатк\\w*)${E}`,
      'このメモ|このノート|这条笔记|此笔记|这条记忆|이 메모|이 노트|هذه الملاحظة|यह नोट|ההערה הזו|αυτή τη σημείωση|บันทึกนี้',
    ),
  ],
  // Approval or consent said to exist already: "pre-approved", "already signed off", "vorab genehmigt".
  [
    'pre-approved',
    concept(
      `(?:pre-?approved|pre-?authori[sz]ed|pre-?cleared|already (?:approved|authori[sz]ed|signed off|consented|agreed|validated|cleared)|approved in advance|signed off|consent (?:was )?(?:recorded|on file|given)|standing consent|vorab genehmigt|bereits genehmigt|aprobad[oa]s? de antemano|ya aprob\\w*|valide a l'avance|deja valide|ja aprov\\w*|gia approvat\\w*|har redan godkant|wczesniej zatwierdz\\w*|zaten onayl\\w*|sudah disetujui|da phe duyet|phe duyet truoc|разрешил\\w* заранее|заранее одобр\\w*|уже одобр\\w*|вже схвал\\w*)${E}`,
      '事前承認|承認済み|预先批准|已经批准|已批准|사전 승인|승인된 상태|مأذون|अनुमोदित|מאושרות מראש|εγκρίνει',
    ),
  ],
  // A security control of the product or the pipeline named: CSRF, TLS, certificates, scans, rate limits.
  [
    'control',
    concept(
      `(?:csrf|xsrf|tls|ssl|certificates?|cert|rate ?limit\\w*|2fa|mfa|auth\\w*|security|scan\\w*|sast|branch protection|codeowners|hooks?|verification|signature|sanitiz\\w*|hashing|encryption|firewall|seguridad|securite|sicherheit\\w*|seguranca|sicurezza|beveiliging|sakerhet|bezpieczenstw\\w*|guvenlik|keamanan|bao mat|certificado|certificat|zertifikat\\w*|certificaat\\w*)${E}`,
      '安全|证书|証明書|セキュリティ|безопасн|сертификат|보안|인증서|الأمان|सुरक्षा|אבטחה|ασφαλ|πιστοποιητικ',
    ),
  ],
  // Production, everywhere: the scope a weakened control is applied in.
  [
    'everywhere',
    concept(
      `(?:production|prod|everywhere|all environments|every environment|every workflow|all workflows|produccion|produktion|producao|produzione|productie|produkcj\\w*|todos los entornos|tous les environnements|allen umgebungen)${E}`,
      '生产|本番|прод|운영 환경|프로덕션|בייצור|παραγωγ',
    ),
  ],
  // What the person says, made conditional: "if the user asks …", "whatever the developer says".
  [
    'user-says',
    concept(
      `(?:(?:if|when|whenever|even if|no matter what|regardless of what|whatever|anything)\\s+(?:the\\s+|a\\s+)?(?:user|dev|developer|human|person|they|he|she)\\w*\\s+(?:\\w+\\s+)?(?:says?|said|asks?|asked|tells?|types?|wants?|requests?|objects?|disagrees?|gives?)|si (?:el |la )?(?:usuario|dev|desarrollador)\\w* (?:te )?(?:pide|dice)|si l'utilisateur|quand le developpeur|wenn der nutzer|wenn der benutzer|se o usuario|se l'utente|als de gebruiker|om anvandaren|jesli uzytkownik|kalau pengguna|jika pengguna|если пользователь|якщо користувач)${E}`,
      '如果用户|不管开发者|ユーザーが|사용자가|إذا طلب المستخدم|अगर यूज़र|אם המשתמש|αν ο χρήστης|ถ้าผู้ใช้',
    ),
  ],
  // Always, from now on.
  [
    'standing',
    concept(
      `(?:always|every time|whenever|each time|from now on|from this session on|going forward|every session|each session|every task|each task|by default|a partir de ahora|desormais|ab sofort|d'ora in poi|voortaan|od teraz|bundan sonra|mulai sekarang)${E}`,
      '从现在起|今後|これから|отныне|теперь|відтепер|이제부터|من الآن',
    ),
  ],
  // The note defers to the person: it sends a question or a conflict back to them, or rules an act out.
  [
    'defer',
    concept(
      `(?:(?:ask|tell|inform|notify|warn|check with|confirm with|flag (?:it|this|that) to|mention (?:it|this|that|the conflict) to)\\s+(?:the\\s+|a\\s+)?(?:user|human|maintainers?|reviewers?|owner|team|teammate|colleague|person)|say so|the user wins|users? (?:decides?|wins)|(?:is|are) background|notes? lose|(?:must|should) be rejected|is forbidden|are forbidden|refus\\w*|frag\\w* (?:den|die) (?:nutzer|benutzer)\\w*|pregunta al usuario|demande a l'utilisateur|pergunte ao usuario|chiedi all'utente)${E}`,
      '询问用户|告诉用户|ユーザーに確認|ユーザーに伝え|спроси пользователя|사용자에게 물어',
    ),
  ],
  // Content from elsewhere run or obeyed as it stands: "execute what it says", "the rest of that line".
  [
    'run-content',
    concept(
      `(?:what(?:ever)? (?:it|they|the \\w+) (?:says?|contains?)|the rest of (?:that|the) line|verbatim|as (?:a )?(?:shell )?commands?|as it stands|(?:shell|code) block in|evaluat\\w* and run|eval\\w*\\(|fromcharcode|lo que (?:dice|diga)|ce qu'il dit|was (?:dort|darin) steht|o que (?:diz|disser))${E}`,
      '照做|按其执行|書かれている通り|что там написано',
    ),
  ],
  // Kept from being noticed: "so it's not noticed", "nobody looks there", "collapse in review".
  [
    'unnoticed',
    concept(
      `(?:so (?:that )?(?:it|they|this|nobody|no one|reviewers?|the user|the reviewer)\\s+(?:[\\w'’]+\\s+){0,2}?(?:notice\\w*|show up|see|spot|know|worr\\w*|look\\w*|question\\w*|block\\w*|flag\\w*)|not noticed|unnoticed|nobody (?:looks|checks|reads|notices)|no one (?:looks|checks|reads|notices)|collapse\\w* in review|out of (?:the )?(?:diff|review)|keep (?:it|them|this) quiet|(?:is|are) not to know|nichts wissen|no se ente\\w*|sans qu'on le remarque|ne remarque)${E}`,
      '不被发现|别让用户知道|気づかれない|知られない|чтобы никто не|незаметно',
    ),
  ],
  // Other notes as the object: "every other note", "the notes about …", "the note that requires …".
  [
    'other-notes',
    concept(
      `(?:(?:every|all|any|the)\\s+other\\s+(?:memory\\s+)?(?:notes?|memor(?:y|ies)|entries)|(?:all|any|existing|conflicting|the team's|older|earlier)\\s+(?:memory\\s+)?(?:notes?|memor(?:y|ies)|entries)|(?:notes?|memor(?:y|ies)|entries)\\s+(?:that|which|about|on|with|containing|requiring)|notizen,? die|notes de memoire qui|notes qui|notas que|memorias que|alle notizen)${E}`,
      '其他记忆|与其冲突的记忆|其他笔记|他のメモ|ほかのメモ|другие заметки|다른 메모|메모를 모두',
    ),
  ],
  // An approval or authority claimed for the grant that follows: "approved by …:", "freigegeben durch".
  [
    'approved-by',
    concept(
      `(?:(?:approved|authori[sz]ed|cleared|validated|signed|sanctioned|granted|ok'?d|blessed)\\s+by|status:\\s*approved|verified (?:memory|note)|signed note|signer|(?:has|have) cleared|autorizado (?:pelo|pela|por)|aprobado (?:por|pelo)|aprovado (?:pelo|pela|por)|freigegeben (?:durch|von)|genehmigt (?:durch|von)|valide par|approuve par|autorise par|approvato da|autorizzato da|goedgekeurd door|zatwierdzone przez|onaylayan)${E}`,
      '批准|已由|承認済み|承認された|により承認|утверждено|одобрено|승인',
    ),
  ],
];

/** Where a sentence ends, in the scripts the concepts are written for. */
const SENTENCE_END = /[.!?;\n。！？；]+(?:\s|$)|[。！？；]/u;

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
  // a safety switch), and a linear model weighs a combination only as a feature of its own. A pattern
  // whose words the note lacks cannot match: not run, nor compiled on a process's first note (regex-shape.ts).
  const cues = CUES.filter(([, pattern]) => mayMatch(pattern, view) && pattern.test(view)).map(([name]) => name);
  cues.forEach((name, i) => {
    features.add(`s:${name}`);
    for (const other of cues.slice(i + 1)) features.add(`s:${name}+${other}`);
  });
  // Concepts: each looked for in the whole note once, then only those present in each sentence.
  const inNote = CONCEPTS.filter(([, pattern]) => mayMatch(pattern, view) && pattern.test(view));
  const sentences = inNote.length > 1 ? view.split(SENTENCE_END) : [view];
  // In a long note each sentence is read once for all concepts' keywords (regex-shape.ts): a concept
  // none of whose keywords the sentence holds cannot match it, and is not run on it.
  const keywords = sentences.length > 1 && view.length >= LONG_TEXT ? conceptKeywords() : undefined;
  for (const sentence of sentences) {
    const has = keywords?.lists.present(sentence);
    const present = (
      sentences.length === 1
        ? inNote
        : inNote.filter((concept) => {
            const index = keywords?.index.get(concept);
            if (has !== undefined && index !== undefined && has[index] === 0) return false;
            return concept[1].test(sentence);
          })
    ).map(([name]) => name);
    present.forEach((name, i) => {
      features.add(`k:${name}`);
      for (const other of present.slice(i + 1)) features.add(`k:${name}+${other}`);
    });
  }
  for (const rule of ruleNames) features.add(`r:${rule}`);
  return [...features];
}

/** The concepts' proven keywords (lists by concept, index by concept; a concept without proven keywords has no index), read at the first long note. */
let conceptLists: { lists: KeywordLists; index: Map<(typeof CONCEPTS)[number], number> } | undefined;

function conceptKeywords(): { lists: KeywordLists; index: Map<(typeof CONCEPTS)[number], number> } {
  if (conceptLists === undefined) {
    const lists: string[][] = [];
    const index = new Map<(typeof CONCEPTS)[number], number>();
    for (const concept of CONCEPTS) {
      const { keywords } = regexShape(concept[1]);
      if (keywords === null) continue;
      index.set(concept, lists.length);
      lists.push([...keywords]);
    }
    conceptLists = { lists: new KeywordLists(lists), index };
  }
  return conceptLists;
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
