// One candidate as the lines the Review screen scrolls through: what it says, each statement with
// its claim support and what it cites (the user's own words once e shows them), the masked secret
// findings, the poisoning findings, the lines the SessionStart snapshot will give, and the
// adjudication. Hidden characters are shown as ⟨U+XXXX⟩ (visible-text.ts): the reviewer reads what
// the model will. Every line is wrapped to the screen, never cut.
import type { MemoryCandidateOrigin, MemoryFindingView, MemoryReviewCandidate } from '../../api/memory-views.js';
import { isPoisonRule } from '../../memory/finding-kind.js';
import { isRevisionClient } from '../../memory/revision-clients.js';
import { visibleText } from '../../memory/visible-text.js';
import { shortId } from '../format.js';
import { isConfirmed, type ReviewState } from './review-state.js';
import { idLabel, type ScreenLine, wrapLines } from './wrap-lines.js';
import { counted } from '../../ground/count-text.js';

export interface CandidateLines {
  lines: ScreenLine[];
  /** The first line of each statement, so choosing one can scroll to it. */
  starts: number[];
}

export function findingText(finding: MemoryFindingView): string {
  // A disguised secret's excerpt is of the decoded text, which the text shown does not hold: say through what.
  const through = finding.transform === undefined ? '' : ` (through ${finding.transform})`;
  return `${finding.severity} ${finding.rule}${through} at ${finding.field} ${finding.line}:${finding.column} — ${finding.excerpt}`;
}

/** Who proposed a candidate: the client as it named itself, and its conversation (a digest, shortened). */
export function originText(origin: MemoryCandidateOrigin): string {
  if (origin.kind === 'extraction') return 'extracted from captured turns';
  if (isRevisionClient(origin.client)) return `made from an approved entry with ${origin.client}`;
  // The name is what the client sent at MCP initialize: a bidi override in it would reorder the line.
  const client = visibleText(origin.clientVersion ? `${origin.client} ${origin.clientVersion}` : origin.client);
  const conversation = origin.conversation ? ` in conversation ${origin.conversation.slice(0, 12)}` : '';
  return `proposed by ${client} (memory_propose)${conversation}`;
}

export function candidateLines(candidate: MemoryReviewCandidate, state: ReviewState, columns: number): CandidateLines {
  const lines: ScreenLine[] = [];
  const add = (text: string, tone: ScreenLine['tone'], indent = '') =>
    lines.push(...wrapLines(text, columns, tone, indent));
  const hanging = (text: string, tone: ScreenLine['tone'], indent: string) =>
    lines.push(...wrapLines(text, columns, tone, indent, true));
  add(
    `Candidate ${idLabel(candidate.candidateId)} · ${candidate.status} · ${candidate.type} · priority ${candidate.priority} · confidence ${candidate.confidence}`,
    'heading',
  );
  const where = candidate.scope === 'user' ? 'user scope' : `repository ${candidate.repository ?? '(unknown)'}`;
  const created = `${where} · created ${candidate.createdAt.replace('T', ' ').slice(0, 19)} UTC`;
  if (candidate.origin.kind === 'proposal') {
    add(`${originText(candidate.origin)} · ${created}`, 'muted');
    add(
      isRevisionClient(candidate.origin.client)
        ? "You made it from an approved entry: promoting it into that entry's scope rewrites its file."
        : 'An agent wrote it, not you: it cites no turn of yours. Keep it only if it is what you said.',
      'muted',
    );
  } else {
    const decided = candidate.decision ? ` (${candidate.decision})` : '';
    add(`adjudication ${candidate.adjudication}${decided} · ${created}`, 'muted');
    if (candidate.signals?.length) add(`signals ${candidate.signals.join(', ')}`, 'muted');
  }
  if (candidate.title !== null) add(visibleText(candidate.title), 'heading', '  ');
  // A trailing line break (an entry's body made a candidate) would add an empty line.
  add(visibleText(candidate.content.trimEnd()), 'text', '  ');
  const open = state.open;
  const starts: number[] = [];
  lines.push({ text: '', tone: 'muted' });
  add(`Statements (${candidate.statements.length})`, 'heading');
  candidate.statements.forEach((statement, index) => {
    starts.push(lines.length);
    const chosen = open?.statement === index;
    const mark = isConfirmed(state, candidate.candidateId, statement) ? ' [confirmed]' : '';
    hanging(
      `${chosen ? '›' : ' '} ${index + 1}. ${visibleText(statement.text.trimEnd())}${mark}`,
      chosen ? 'selected' : 'text',
      '     ',
    );
    const turns = new Set(statement.evidence.map((ref) => ref.turnKey)).size;
    add(`support ${statement.claimSupport} · cites ${counted(turns, 'user turn')}`, 'muted', '     ');
    if (!chosen || !open?.evidence) return;
    // e always answers: a statement that cites no turn says so rather than leaving the screen as it was.
    if (statement.evidence.length === 0)
      add(
        candidate.origin.kind !== 'proposal'
          ? 'No user turn to show: this statement cites none.'
          : isRevisionClient(candidate.origin.client)
            ? 'No user turn to show: it is the text of an approved entry, as you made it.'
            : 'No user turn to show: an agent proposed it and cites none. Confirm it (c) only if it is what you said.',
        'muted',
        '     ',
      );
    for (const ref of statement.evidence) {
      add(`${ref.client} session ${shortId(ref.sessionKey)} · turn ${shortId(ref.turnKey)}:`, 'muted', '     ');
      const session = state.evidence[ref.sessionKey];
      if (!session) add('reading the turn…', 'muted', '       ');
      else if (session.state === 'failed')
        add(`could not read it (${session.error.code}): ${session.error.message}`, 'error', '       ');
      else {
        const said = session.turns[ref.turnKey];
        if (!said) add('this turn is no longer in the captured session', 'error', '       ');
        else if (said.length === 0) add('(the turn holds no text from the user)', 'muted', '       ');
        else for (const text of said) add(`you: ${visibleText(text)}`, 'text', '       ');
      }
    }
  });
  const secrets = candidate.findings.filter((finding) => !isPoisonRule(finding.rule));
  const poisoning = candidate.findings.filter((finding) => isPoisonRule(finding.rule));
  if (secrets.length > 0) {
    lines.push({ text: '', tone: 'muted' });
    add(`Secret findings (${secrets.length}, masked: the secret itself is never shown)`, 'heading');
    for (const finding of secrets) add(findingText(finding), finding.severity === 'block' ? 'error' : 'text', '  ');
  }
  if (poisoning.length > 0) {
    lines.push({ text: '', tone: 'muted' });
    add(
      `Poisoning findings (${poisoning.length}: text written to steer the model that reads this memory, shown as written)`,
      'heading',
    );
    for (const finding of poisoning) add(findingText(finding), finding.severity === 'block' ? 'error' : 'text', '  ');
  }
  // What the findings mean, right after them: at 80×24 it stays on the first screen.
  if (candidate.findings.length > 0) {
    // Only an extracted candidate comes back from extraction; a proposal or a revision is made again as it was made.
    // A captured turn is never edited and the same turns make the same task, so the rule comes back
    // only from a new turn that says it without the finding.
    if (candidate.status === 'quarantined')
      add(
        candidate.origin.kind === 'extraction'
          ? 'Quarantined: a blocking finding keeps it from being promoted. Discard it (d); to keep the rule, say it again without the secret or the text aimed at the model, and the next extraction drafts it (a captured turn is never edited).'
          : 'Quarantined: a blocking finding keeps it from being promoted. Discard it (d); a text without the secret or the text aimed at the model can be proposed again.',
        'muted',
        '  ',
      );
  }
  if (candidate.snapshot) {
    lines.push({ text: '', tone: 'muted' });
    add(
      candidate.status === 'quarantined'
        ? 'What the SessionStart snapshot would give (it is quarantined: never promoted):'
        : 'What the SessionStart snapshot will give once promoted:',
      'heading',
    );
    // A wrapped entry or quote line continues under its own text, as a Markdown list would.
    for (const line of candidate.snapshot.split('\n')) {
      const marker = /^\s*(?:[->] )?/.exec(line)![0];
      hanging(`  ${line}`, 'muted', ' '.repeat(marker.length + 2));
    }
  }
  return { lines, starts };
}
