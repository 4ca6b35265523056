// What the Memory screen says under its view — a question, the last result, an error with what to
// do — wrapped whole (never cut to one line), and the help line's keys for each view and step.
import { notDraftCandidate } from '../../memory/plan-voided.js';
import type { ShownError } from '../format.js';
import { helpItem, keyLabel } from '../keyboard/key-bindings.js';
import type { HelpItem } from '../shell/shell-state.js';
import type { EntriesState } from './entries-state.js';
import type { ExtractionState } from './extraction-state.js';
import { type PromoteState, scopesFor } from './promote-state.js';
import { candidatesOf, type ReviewState } from './review-state.js';
import type { MemoryView } from './use-memory-input.js';
import { type ScreenLine, wrapLines, idLabel } from './wrap-lines.js';

const HOST_GONE =
  'The host is not answering: start it again (common-memory host, or quit and reopen the TUI); nothing was changed by this step.';

function errorLines(prefix: string, error: ShownError, columns: number, advice?: string): ScreenLine[] {
  const lines = wrapLines(`${prefix}: error ${error.code}: ${error.message}`, columns, 'error');
  const what = error.code === 'host_unreachable' ? HOST_GONE : advice;
  if (what) lines.push(...wrapLines(what, columns, 'muted', '  '));
  return lines;
}

/**
 * What Esc does to a plan not approved: the host voids it (memory void), so no approval of its
 * digest can write it later, and the screen goes back to the scope chooser with the same candidates.
 */
const LEFT_UNAPPROVED = 'Esc drops it: the plan is voided.';

function promoteAdvice(state: PromoteState, error: ShownError): string {
  // A blocking finding does not go away on a second Enter: the candidate must leave the plan.
  if (state.phase === 'choose' && (error.code === 'secret_found' || error.code === 'poisoning_found'))
    return 'No plan was made: a candidate with a blocking finding is never promoted: on Review ([) discard it (d), or unmark it (m) and choose again.';
  // Prepare's refusal names the CLI's flag (--scope user): on this screen the chooser is the scope.
  const named = /--scope (project|user)\b/.exec(error.message)?.[1];
  if (state.phase === 'choose' && named && scopesFor(state.chosen).some((scope) => scope === named))
    return `No plan was made. Here the scope is the chooser's: ${helpItem('', ['selectUp', 'selectDown', 'toggleScope']).keys} to ${named}, then ${keyLabel('openItem')} prepares the plan there.`;
  // A chosen candidate another TUI or the CLI discarded or promoted since: Enter would send it again,
  // and the candidates are chosen on Review, not here.
  const left = notDraftCandidate(error.message);
  if (state.phase === 'choose' && left !== undefined && state.chosen.some((chosen) => chosen.candidateId === left))
    return `No plan was made: that candidate left the review queue since it was chosen. On Review (${keyLabel('previousView')}) press ${keyLabel('refresh')}, mark the others again (${keyLabel('markItem')}), then ${keyLabel('promoteChosen')}.`;
  if (state.phase === 'choose') return 'No plan was made. Fix what the message names, then press Enter again.';
  if (!state.approved)
    return 'The plan is not approved and nothing was written. Esc drops it (voided); Enter then prepares a fresh plan whose diff you read again.';
  return 'The plan is approved; a press on a writes it again from where it stopped (a file that already has the approved bytes is skipped, none is written twice). Esc leaves it approved, not written: memory promote writes it.';
}

export function messageLines(
  view: MemoryView,
  review: ReviewState,
  promote: PromoteState,
  entries: EntriesState,
  columns: number,
): ScreenLine[] {
  if (view === 'review') {
    if (review.asking)
      return wrapLines(
        `Discard candidate ${idLabel(review.asking.candidateId)}? It leaves the queue and is never promoted (memory-state keeps the record). y discard · n or Esc keep it`,
        columns,
        'heading',
      );
    if (review.job)
      return wrapLines(review.job.kind === 'confirm' ? 'confirming the statement…' : 'discarding…', columns, 'muted');
    if (review.error) return errorLines('review', review.error, columns);
    if (review.notice) return wrapLines(review.notice, columns, 'ok');
    return [];
  }
  if (view === 'promote') {
    if (promote.error) return errorLines('promote', promote.error, columns, promoteAdvice(promote, promote.error));
    if (promote.phase === 'plan' && !promote.approved)
      return wrapLines(
        promote.retire
          ? `Nothing is removed until you approve: a approves exactly this removal (the plan digest) and removes the file, only if it still holds these bytes. ${LEFT_UNAPPROVED}`
          : `Nothing is written until you approve: a approves exactly these bytes (the plan digest). ${LEFT_UNAPPROVED}`,
        columns,
        'muted',
      );
    return [];
  }
  if (view === 'entries' && entries.error) return errorLines(entries.open ? 'get' : 'search', entries.error, columns);
  return [];
}

export function helpFor(
  view: MemoryView,
  review: ReviewState,
  promote: PromoteState,
  entries: EntriesState,
  run: ExtractionState,
  /**
   * The open candidate's last scroll position (0 when it fits): PgDn is named only while there is
   * more. On Entries' list, that of the text above the rows (the left-out files).
   */
  lastTop = 0,
): HelpItem[] {
  if (view === 'review') {
    if (review.asking) return [helpItem('discard', ['confirm']), helpItem('keep', ['decline'], 'all')];
    // The view line names ] and [; each help line here stays within 80 columns.
    if (review.patch)
      return [
        helpItem('choose', ['selectUp', 'selectDown']),
        helpItem('take/leave out', ['markItem']),
        helpItem('prepare plan', ['promoteChosen']),
        ...((review.data?.patches.length ?? 0) > 1 ? [helpItem('next patch', ['openPatch'])] : []),
        helpItem('back', ['back']),
      ];
    if (review.open) {
      // PgDn where there is nothing below did nothing: at the end PgUp goes back up.
      const top = review.open.top;
      const scroll =
        top < lastTop ? [helpItem('more', ['nextPage'])] : top > 0 ? [helpItem('up', ['previousPage'])] : [];
      return [
        helpItem('choose', ['selectUp', 'selectDown']),
        ...scroll,
        helpItem('evidence', ['showEvidence']),
        helpItem('confirm', ['confirmStatement']),
        helpItem('discard', ['discardCandidate']),
        helpItem('back', ['back']),
      ];
    }
    const patch = (review.data?.patches.length ?? 0) > 0 ? [helpItem('patch', ['openPatch'])] : [];
    // A queue read empty: no candidate to select, open, mark, promote or discard, so no such key is
    // named (while it loads they are: keys typed ahead are held for it).
    if (review.data && candidatesOf(review).length === 0) return patch;
    return [
      helpItem('select', ['selectUp', 'selectDown']),
      helpItem('open', ['openItem']),
      helpItem('mark', ['markItem']),
      helpItem('promote', ['promoteChosen']),
      helpItem('discard', ['discardCandidate']),
      // s and r are named under the queue's summary (ReviewQueue): with them this line passes 80 columns.
      ...patch,
    ];
  }
  if (view === 'promote') {
    switch (promote.phase) {
      case 'choose':
        // Nothing chosen: the scope and Enter do nothing; candidates are chosen on Review.
        if (promote.chosen.length === 0 && !promote.retire && !promote.patch)
          return [helpItem('Review', ['previousView'])];
        // One scope the candidates can go to: no key moves off it.
        return [
          ...(scopesFor(promote.chosen).length > 1
            ? [helpItem(`scope ${promote.scope}`, ['selectUp', 'selectDown', 'toggleScope'])]
            : []),
          helpItem('prepare plan', ['openItem']),
        ];
      case 'plan':
        return [
          helpItem('scroll', ['nextPage', 'previousPage']),
          helpItem('line', ['selectUp', 'selectDown']),
          // The keys that decide the plan stay on a line too narrow for all (60 columns).
          {
            ...helpItem(promote.approved ? 'write again' : promote.retire ? 'approve & remove' : 'approve & write', [
              'approvePlan',
            ]),
            decides: true,
          },
          // Esc voids a plan not approved (memory void); an approved one stays for memory promote.
          { ...helpItem(promote.approved ? 'leave unwritten' : 'drop plan', ['back']), decides: true },
        ];
      case 'done':
        return [
          helpItem('scroll', ['nextPage', 'previousPage']),
          ...(promote.result?.status === 'voided' ? [helpItem('prepare again', ['openItem'])] : []),
          helpItem('back', ['back']),
        ];
      default:
        return [{ keys: '', label: 'working…' }];
    }
  }
  if (view === 'entries') {
    if (entries.typing) return [helpItem('search', ['submit']), helpItem('cancel', ['cancel'])];
    // An open entry's line leaves / (search) to the list's: its own keys (entry-actions.ts) follow.
    if (entries.open)
      return [
        helpItem('scroll', ['nextPage', 'previousPage']),
        helpItem('line', ['selectUp', 'selectDown']),
        helpItem('back', ['back']),
      ];
    return [
      helpItem('search', ['openSearch']),
      helpItem('select', ['selectUp', 'selectDown']),
      helpItem('open', ['openItem']),
      // As an open candidate's: only the way there is more to read (the line stays within 80 columns).
      ...(entries.listTop < lastTop
        ? [helpItem('more', ['nextPage'])]
        : entries.listTop > 0
          ? [helpItem('up', ['previousPage'])]
          : []),
    ];
  }
  if (view === 'usage')
    return [helpItem('scroll', ['nextPage', 'previousPage']), helpItem('line', ['selectUp', 'selectDown'])];
  if (run.request) return [{ keys: '', label: 'extracting…' }];
  if (run.choosing)
    return [
      helpItem('choose', ['selectUp', 'selectDown']),
      helpItem('use this one', ['openItem']),
      helpItem(`keep ${run.runner ?? 'builtin'}`, ['back']),
    ];
  if (run.pending)
    return [
      helpItem('approve & send', ['approvePlan']),
      helpItem('drop plan', ['back']),
      helpItem('scroll', ['nextPage', 'previousPage']),
    ];
  return [
    helpItem('extract', ['runExtraction']),
    helpItem(`runner ${run.runner ?? 'builtin'}`, ['chooseRunner']),
    helpItem('scroll', ['nextPage', 'previousPage']),
  ];
}
