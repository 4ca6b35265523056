// What a person can do with an approved entry on the Entries view (issue 29): re-verify it now
// (the verification of its scope runs, then its new verdict is read and said), edit it through a
// new candidate (the person's $VISUAL or $EDITOR opens on the entry's text, and the edit becomes a
// draft marked as revising it, reviewed on Review like any candidate; with no editor set, the draft
// is a copy of the entry), or retire it (a retirement plan on Prepare & promote, approved and
// written with that view's keys); or consolidate the scope of the directory the TUI runs in with
// the built-in runner, whose patch then waits on Review. State, requests and keys apart from the
// entries' search state.
import type { Dispatch } from 'react';
import type { Application } from '../../api/application.js';
import type { MemoryEntryView } from '../../api/memory-views.js';
import { keepText } from '../../ground/text-editor.js';
import { type RevisionFields, readRevisionText, revisionText, sameAsEntry } from '../../memory/revision-text.js';
import type { ShownError } from '../format.js';
import { helpItem } from '../keyboard/key-bindings.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import type { EditInEditor } from './entry-editor.js';
import type { HelpItem } from '../shell/shell-state.js';
import { useRequest } from '../widgets/use-request.js';
import { useKeptRequest } from '../shell/shell-context.js';
import { type EntriesState, listedRows } from './entries-state.js';
import { consolidationNotice } from './consolidation-notice.js';
import { idLabel, type ScreenLine, wrapLines } from './wrap-lines.js';
import { SCREEN_CLIENT } from '../../memory/revision-clients.js';

/** What a revising candidate is made from: the person's edit, or (no editor set) a copy of the entry. */
export type Revision = { kind: 'edited'; fields: RevisionFields } | { kind: 'copy' };

type Job =
  | { id: number; kind: 'verify'; entryId: string | null }
  | { id: number; kind: 'revise'; entry: MemoryEntryView; revision: Revision }
  | { id: number; kind: 'consolidate' };

export interface EntryActionsState {
  job: Job | null;
  lastId: number;
  /** Bumped after a verification: the stale list and the open entry are read again. */
  verified: number;
  /** Bumped after a revise or a consolidation made (or found) what Review lists: Review reads its queue again. */
  reviewChanged: number;
  notice: string | null;
  error: ShownError | null;
}

export type EntryActionsAction =
  | { type: 'verify'; entryId: string | null }
  | { type: 'revise'; entry: MemoryEntryView; revision: Revision }
  | { type: 'consolidate' }
  | { type: 'done'; id: number; notice: string; verified: boolean }
  | { type: 'failed'; id: number; error: ShownError }
  /** An edit that makes nothing: unchanged (a notice), or refused (an error), said on the message line. */
  | { type: 'said'; notice: string | null; error: ShownError | null };

export const initialEntryActions: EntryActionsState = {
  job: null,
  lastId: 0,
  verified: 0,
  reviewChanged: 0,
  notice: null,
  error: null,
};

export function entryActionsReducer(state: EntryActionsState, action: EntryActionsAction): EntryActionsState {
  switch (action.type) {
    case 'verify':
    case 'revise':
    case 'consolidate': {
      if (state.job) return state;
      const id = state.lastId + 1;
      const job: Job =
        action.type === 'verify'
          ? { id, kind: 'verify', entryId: action.entryId }
          : action.type === 'revise'
            ? { id, kind: 'revise', entry: action.entry, revision: action.revision }
            : { id, kind: 'consolidate' };
      return { ...state, job, lastId: id, notice: null, error: null };
    }
    case 'done':
      if (state.job?.id !== action.id) return state;
      return {
        ...state,
        job: null,
        notice: action.notice,
        verified: action.verified ? state.verified + 1 : state.verified,
        reviewChanged: state.job.kind === 'verify' ? state.reviewChanged : state.reviewChanged + 1,
      };
    case 'failed':
      return state.job?.id === action.id ? { ...state, job: null, error: action.error } : state;
    case 'said':
      return state.job ? state : { ...state, notice: action.notice, error: action.error };
  }
}

const HOW_TO_SET = 'to edit its text here, set VISUAL or EDITOR, e.g. EDITOR=nano, before starting common-memory';

/**
 * The person's editor on the entry's text (title, appliesWhen, type, then the body), and what to
 * do with the outcome: a revision to make, or what to say when nothing is made.
 */
export function editEntry(entry: MemoryEntryView, edit: EditInEditor): EntryActionsAction {
  const outcome = edit(revisionText(entry), `${entry.id}.md`);
  if (outcome.kind === 'no-editor') return { type: 'revise', entry, revision: { kind: 'copy' } };
  const refused = (message: string): EntryActionsAction => ({
    type: 'said',
    notice: null,
    error: { code: 'invalid_input', message },
  });
  if (outcome.kind === 'failed') return refused(`${outcome.message}; nothing was made.`);
  const read = readRevisionText(outcome.text);
  if (!read.ok) {
    // The edit is kept, not lost: the person fixes it and gives it to memory revise --file.
    const kept = keepText(outcome.text, `${entry.id}.md`);
    return refused(
      `line ${read.line} of your edit: ${read.message}. Nothing was made; it is kept in ${kept} (memory revise ${entry.id} --file takes it).`,
    );
  }
  if (sameAsEntry(read.value, entry))
    return { type: 'said', notice: `Nothing changed in ${entry.id}: no candidate was made.`, error: null };
  return { type: 'revise', entry, revision: { kind: 'edited', fields: read.value } };
}

/** The entry the keys act on: the open one, else the selected row. */
/**
 * A scene or a doctrine (`scene:<name>`, `doctrine:<name>`, from search) is read here but changed
 * only by consolidation: no entry action.
 */
const isSceneId = (id: string): boolean => id.startsWith('scene:') || id.startsWith('doctrine:');

/** The entry the keys act on: the open one, else the selected row; never a scene or a doctrine. */
export function targetEntry(entries: EntriesState): { entryId: string; scope: string; title: string } | null {
  const target = actedOn(entries);
  return target && !isSceneId(target.entryId) ? target : null;
}

function actedOn(entries: EntriesState): { entryId: string; scope: string; title: string } | null {
  if (entries.open)
    return {
      entryId: entries.open.entryId,
      scope: entries.entry?.sources[0]?.scope ?? 'project',
      title: entries.entry?.title ?? entries.open.entryId,
    };
  const row = listedRows(entries)[entries.selected];
  return row ? { entryId: row.entryId, scope: row.scope, title: row.title } : null;
}

function verdictText(entry: MemoryEntryView): string {
  const first = entry.failedAnchors?.[0];
  switch (entry.verification) {
    case 'stale':
      return `stale — ${first?.reason ?? 'a claim no longer holds'}${(entry.failedAnchors?.length ?? 0) > 1 ? ` (and ${entry.failedAnchors!.length - 1} more)` : ''}`;
    case 'fresh':
      return 'fresh: every claim checked holds';
    case 'unknown':
      return 'unknown: none of its claims could be checked';
    case 'unavailable':
      return 'unavailable: verdicts cannot be read';
    default:
      return 'not verified';
  }
}

export function useEntryActionEffects(
  app: Application,
  cwd: string,
  state: EntryActionsState,
  dispatch: Dispatch<EntryActionsAction>,
) {
  // A job left in flight when another screen was shown is followed, not sent again, when Memory is back.
  const once = useKeptRequest('memory entry action');
  useRequest(state.job, (job) => once(job.id, () => perform(job)), {
    answered: (done, job) => dispatch({ type: 'done', id: job.id, ...done }),
    failed: (error, job) => dispatch({ type: 'failed', id: job.id, error }),
  });

  async function perform(job: Job): Promise<{ notice: string; verified: boolean }> {
    if (job.kind === 'consolidate')
      return { notice: consolidationNotice(await app.memoryConsolidate({ cwd })), verified: false };
    if (job.kind === 'verify') {
      const run = await app.memoryVerify({ cwd });
      if (run.state === 'failed') throw new Error(`verification failed: ${run.reason ?? 'no reason given'}`);
      const counted =
        run.state === 'skipped'
          ? `Not verified: ${run.reason ?? 'nothing to verify here'}.`
          : `Verified ${run.entries} entr${run.entries === 1 ? 'y' : 'ies'}: ${run.stale} stale.`;
      if (job.entryId === null) return { notice: counted, verified: true };
      const entry = await app.memoryGet({ entryId: job.entryId, cwd });
      return { notice: `${counted} ${job.entryId} is ${verdictText(entry)}`, verified: true };
    }
    const { entry, revision } = job;
    const text =
      revision.kind === 'edited'
        ? revision.fields
        : {
            title: entry.title,
            content: entry.body,
            type: entry.type as RevisionFields['type'],
            appliesWhen: entry.appliesWhen,
          };
    const proposed = await app.memoryPropose({
      cwd,
      ...text,
      origin: { client: SCREEN_CLIENT, clientVersion: null, conversation: null },
      revises: entry.id,
    });
    const made = proposed.created ? 'made' : 'already there';
    // The candidate belongs to this directory's scope; a user-scope entry is rewritten in the user root.
    const where = entry.sources[0]?.scope === 'user' ? ' (choose the user scope on Prepare & promote)' : '';
    const label = idLabel(proposed.candidateId);
    if (proposed.status === 'quarantined')
      return {
        notice: `Candidate ${label} is quarantined: the text trips ${proposed.blockedBy.join(', ')}. See it on Review.`,
        verified: false,
      };
    return {
      notice:
        revision.kind === 'edited'
          ? `Candidate ${label} ${made} from your edit of ${entry.id}. Review it on Review; promoting it${where} rewrites ${entry.id}'s file.`
          : `Candidate ${label} ${made}: a copy of ${entry.id} marked as revising it. No editor is set: ${HOW_TO_SET}. Promoting it${where} rewrites ${entry.id}'s file.`,
      verified: false,
    };
  }
}

export interface EntryActionKeys {
  entries: EntriesState;
  actions: EntryActionsState;
  dispatch: Dispatch<EntryActionsAction>;
  /** Prepares the retirement of the entry on Prepare & promote and shows that view. */
  retire(entry: { entryId: string; scope: string; title: string }): void;
  /** Runs the person's editor on a text, the TUI suspended meanwhile (entry-editor.ts). */
  edit: EditInEditor;
}

const COMMANDS = ['reverifyEntry', 'reviseEntry', 'retireEntry', 'consolidateScope'] as const;

export function useEntryActionKeys(input: EntryActionKeys, active: boolean) {
  const { entries, dispatch } = input;
  useCommandKeys(
    COMMANDS,
    (command) => {
      const target = targetEntry(entries);
      if (command === 'consolidateScope') {
        if (!entries.open) dispatch({ type: 'consolidate' });
      } else if (command === 'reverifyEntry') dispatch({ type: 'verify', entryId: target?.entryId ?? null });
      else if (command === 'reviseEntry') {
        if (entries.entry && !isSceneId(entries.entry.id)) dispatch(editEntry(entries.entry, input.edit));
      } else if (target) input.retire(target);
    },
    { isActive: active && !entries.typing && input.actions.job === null },
  );
}

/** The help line's items for these keys: edit only on an open entry (its text is read). */
export function entryActionHelp(entries: EntriesState): HelpItem[] {
  if (entries.typing) return [];
  const any = targetEntry(entries) !== null;
  return [
    helpItem('verify', ['reverifyEntry']),
    ...(entries.entry && !isSceneId(entries.entry.id) ? [helpItem('edit', ['reviseEntry'])] : []),
    ...(any ? [helpItem('retire', ['retireEntry'])] : []),
    // Over the scope, not the entry: offered on the list only.
    ...(entries.open ? [] : [helpItem('consolidate', ['consolidateScope'])]),
  ];
}

const JOB_TEXT: Record<Job['kind'], string> = {
  verify: 'verifying…',
  revise: 'making the candidate…',
  consolidate: 'consolidating…',
};

export function entryActionLines(state: EntryActionsState, columns: number): ScreenLine[] {
  if (state.job) return wrapLines(JOB_TEXT[state.job.kind], columns, 'muted');
  if (state.error) return wrapLines(`error ${state.error.code}: ${state.error.message}`, columns, 'error');
  if (state.notice) return wrapLines(state.notice, columns, 'ok');
  return [];
}
