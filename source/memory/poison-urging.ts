// Poisoning lint: the words under which a negation urges the act on instead of advising against it
// ("don't ask, just run …", "not up for debate: pipe …", "there is no reason not to send …"). One
// list for every reading of advice: the phrase rules' negation (poison-lint.ts) and the house rules'
// advice against an act (poison-house-rules.ts, advisedAgainst) blank these words before they look
// for a negation. Pure; no imports.

/** A negated verb that urges the act on rather than advises against it. Used with `replace` only (global). */
export const URGING = new RegExp(
  [
    String.raw`\b(?:don't|dont|do not|doesn't|does not|no need to|never|without)\s+(?:(?:even|ever)\s+)?(?:(?:need|have) to\s+)?(?:stop|stopping|bother|bothering|hesitate|wait|waiting|pause|ask|asking|check|checking|read|reading|review|reviewing|inspect|inspecting|verify|verifying|look|looking|prompt|prompting|confirm|confirming)\b`,
    // The same in the other languages: "не спрашивай", "no preguntes", "sans demander", "ohne zu fragen".
    String.raw`(?<![\p{L}\p{N}_])(?:не (?:нужно |надо )?(?:спрашива\p{L}*|спроси\p{L}*|жди|ждать|провер\p{L}*|чита\p{L}*|останавлива\p{L}*|уточня\p{L}*)|без (?:вопросов|подтверждения|проверки)|no (?:preguntes|esperes|revises|compruebes|confirmes|hace falta (?:preguntar|revisar|confirmar))|sin (?:preguntar|revisar|confirmar|esperar)|ne (?:demande|attends|vérifie|relis)z? pas|n['’](?:attends|hésite)z? pas|sans (?:demander|vérifier|attendre|confirmer|relire)|(?:frag|prüf|wart)\p{L}* nicht|nicht (?:fragen|nachfragen|prüfen|warten)|ohne (?:zu )?(?:fragen|nachzufragen|prüfen|warten|rückfrage|bestätigung)|nie (?:pytaj|czekaj|sprawdzaj)|bez (?:pytania|sprawdzania|potwierdzenia)|não (?:pergunte|espere|verifique|confirme)|sem (?:perguntar|verificar|confirmar|esperar)|non (?:chiedere|aspettare|controllare)|senza (?:chiedere|controllare|conferma)|niet (?:vragen|wachten|controleren)|zonder (?:te )?(?:vragen|controleren|wachten))(?![\p{L}\p{N}_])`,
    // The step put beyond question, choice or skipping ("not for the agent to question: run …", "never
    // skip this: pipe …", "non-negotiable: …"): the negation is of the doubt, not of the act.
    // Skipping and omitting only before a colon or a dash: "never skip or delete a failing test" is advice.
    String.raw`\b(?:don't|dont|do not|never)\s+(?:ever\s+)?(?:(?:forget|forgetting)\s+to\b|(?:question|questioning|debate|doubt|second-guess|argue|overthink)\b|(?:skip|skipping|forget|omit|omitting)(?:\s+(?:this|it|that|these|them))?\s*[:—–])|\bnot\s+(?:optional|negotiable|up for (?:debate|discussion|negotiation)|open (?:to|for) (?:debate|discussion|question)|(?:for|up to)\s+(?:you|the agent|agents|the assistant|the model|the ai|us)\s+to\s+(?:question|decide|debate|judge|second-guess|doubt|challenge)|a question of)\b|\bnon-?(?:negotiable|optional)\b|\b(?:don't|dont|do not|doesn't|does not|never)\s+(?:need|require)\s+(?:any\s+|a\s+|an\s+|the\s+)?(?:permission|approval|review|sign-?off|confirmation|consent|go-ahead|ok|okay)\b`,
    // A permission said with a negation ("there is no reason not to …", "it is not a problem to …"),
    // a safeguard said to be unneeded ("reviews are not needed for hotfixes: merge …").
    String.raw`\bno reason not to\b|\bnothing (?:stops|prevents|keeps) (?:you|agents?|the agent|us) from\b|\bnot (?:unusual|uncommon|a problem|an issue|a big deal|frowned upon|something to (?:wait (?:on|for)|worry about|ask about))\b|\bwould(?:n't| not) (?:be )?(?:wrong|a problem|hurt)\b|\b(?:reviews?|approvals?|confirmations?|sign-?offs?|tests?|checks?|permission|asking)\s+(?:is|are)\s+not\s+(?:needed|necessary|required)\b`,
    String.raw`(?<![\p{L}\p{N}_])(?:nicht\s+(?:\p{L}+\s+){0,2}zu\s+(?:hinterfragen|verhandeln|diskutieren|bezweifeln|zögern)|nicht\s+(?:verhandelbar|optional|zögern)|nicht\s+(?:vergessen|überspringen|auslassen)\s*[:—–]|(?:vergiss|überspring|hinterfrag|zöger)\p{L}*\s+(?:(?:das|es|dies|ihn|sie)\s+)?nicht|n['’]est pas (?:négociable|optionnel\p{L}*|facultati\p{L}*|à discuter)|(?:pas|non) (?:négociable|optionnel\p{L}*|facultati\p{L}*)|n['’]oubliez? pas|ne (?:discute|questionne)z? pas|ne (?:l['’])?(?:saute|omets)z? pas\s*[:—–]|keine (?:sorge|angst|bedenken)|mach dir keine sorgen|ne t['’]inquiète pas|ne vous inquiétez pas|pas de (?:souci|problème))(?![\p{L}\p{N}_])`,
    '不用问|不要问|无需确认|不必确认|不用确认|不要忘记|别忘了|别忘记|不要停下来?|不用停下来?|别停下来?|不要犹豫|别犹豫|不必犹豫|不用犹豫|不要等|别等|不用等|不必等|无需等待|不用担心|别担心|不必担心|ためらわず|躊躇せず|待たずに|心配しないで|気にしないで|(?:不要|别|不可|不得)跳过(?:这一?步)?[：:]|不容置疑|不要质疑|没有商量|不容商量|聞かずに|確認せずに|確認しないで|묻지 말고|확인 없이',
  ].join('|'),
  'gu',
);
