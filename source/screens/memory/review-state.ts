// Review state: the queue of draft and quarantined candidates, which one is selected, which are
// marked for promotion, the open candidate (its chosen statement, scroll position, whether its
// evidence is shown), the cited turns read so far, a discard question, and a confirm or discard in
// flight. Keys become named actions; a 10k queue is never copied on a key, only its index moves.
import { lintText } from '../../memory/secret-lint.js';
import { maskText } from '../../memory/secret-mask.js';
import type { ConsolidationReview, MemoryReview, MemoryReviewCandidate } from '../../api/memory-views.js';
import type { SessionView } from '../../api/capture.js';
import type { ShownError } from '../format.js';
import { moveSelection } from '../widgets/list-window.js';
import { idLabel } from './wrap-lines.js';

/** What the user said in the cited turns of one session, by turn key; or why it could not be read. */
export type SessionEvidence =
  | { state: 'loaded'; turns: Record<string, string[]> }
  | { state: 'failed'; error: ShownError };

export interface OpenCandidate {
  candidateId: string;
  /** The chosen statement (c confirms it, e shows what it cites). */
  statement: number;
  top: number;
  evidence: boolean;
}

/** A consolidation patch opened from the queue: the operation under the cursor and those taken (by number, from 1). */
export interface OpenPatch {
  taskId: string;
  selected: number;
  taken: ReadonlySet<number>;
}

export type ReviewJob =
  | { id: number; kind: 'confirm'; candidateId: string; statementId: string }
  | { id: number; kind: 'discard'; candidateId: string };

export interface ReviewLoad {
  id: number;
  quiet: boolean;
  rows: number;
  keep: string | null;
}

export interface ReviewState {
  /**
   * Which candidates the queue lists: every scope's (one inbox, whichever directory the TUI was
   * started in: each acts on its own repository), or only the scope of that directory.
   */
  filter: 'all' | 'here';
  /**
   * A read of the queue in flight (its id), or null: its first page, and pages after it until
   * `rows` are read — as many as before, so a read again (r, after a confirm or discard) keeps what
   * was reached — and on to the `keep` candidate (the selected one) should rows come in above it.
   */
  load: ReviewLoad | null;
  /** A read of the next page in flight: the selection reached the last row read. */
  more: { id: number; after: string } | null;
  lastId: number;
  data: MemoryReview | null;
  error: ShownError | null;
  /** The candidate the error is about (a confirm or discard that failed), or null: an error about the queue. */
  errorAbout: string | null;
  selected: number;
  marked: ReadonlySet<string>;
  open: OpenCandidate | null;
  /** A consolidation patch opened (c in the queue, c again: the next waiting one): its operations, each taken or left out. */
  patch: OpenPatch | null;
  evidence: Readonly<Record<string, SessionEvidence>>;
  asking: { candidateId: string } | null;
  job: ReviewJob | null;
  /**
   * Statements confirmed from this screen, by candidate and statement (confirmedKey): every
   * candidate's first statement is s1. The queue read says so too once the host records it.
   */
  confirmed: ReadonlySet<string>;
  notice: string | null;
}

export type ReviewAction =
  | { type: 'reload'; quiet?: boolean }
  | { type: 'toggleFilter' }
  | { type: 'loaded'; id: number; review: MemoryReview }
  | { type: 'moreLoaded'; id: number; review: MemoryReview }
  | { type: 'loadFailed'; id: number; error: ShownError }
  | { type: 'select'; delta: number }
  /** The screen showed another view: the last notice (or a candidate's error) was about what Review showed, and leaves with it. */
  | { type: 'viewChanged' }
  | { type: 'toggleMark' }
  | { type: 'open' }
  | { type: 'close' }
  /** The newest waiting patch; with `next`, the one after the open one (after the oldest: the newest). */
  | { type: 'openPatch'; next?: boolean }
  | { type: 'choosePatchOperation'; delta: number }
  | { type: 'togglePatchOperation' }
  | { type: 'closePatch' }
  /** p in an open patch with every operation left out: nothing to prepare, said on the message line. */
  | { type: 'nothingTaken' }
  /** p chose candidates of which these are quarantined: none goes to Prepare & promote. */
  | { type: 'quarantinedChosen'; candidateIds: string[]; marked: boolean }
  | { type: 'chooseStatement'; delta: number; starts: number[]; room: number }
  | { type: 'scroll'; delta: number; lastTop: number }
  /** With the statements' first lines and the room, so that the view can move to the statement. */
  | { type: 'toggleEvidence'; starts?: readonly number[]; room?: number }
  | { type: 'evidenceLoaded'; sessionKey: string; view: SessionView }
  | { type: 'evidenceFailed'; sessionKey: string; error: ShownError }
  | { type: 'confirmStatement' }
  | { type: 'askDiscard' }
  | { type: 'answerDiscard'; yes: boolean }
  | { type: 'jobDone'; id: number; notice: string }
  | { type: 'jobFailed'; id: number; error: ShownError };

export const initialReviewState: ReviewState = {
  filter: 'all',
  load: { id: 1, quiet: false, rows: 0, keep: null },
  more: null,
  lastId: 1,
  data: null,
  error: null,
  errorAbout: null,
  selected: 0,
  marked: new Set(),
  open: null,
  patch: null,
  evidence: {},
  asking: null,
  job: null,
  confirmed: new Set(),
  notice: null,
};

/**
 * The state kept when the screen was left, shown again: the same filter, selection, marks and open
 * candidate over the queue read again (as r reads it). What was in flight (a confirm, a discard, a
 * question, a page) lost its answer with the screen: the read again shows where it stands.
 */
export function resumedReview(kept: ReviewState | undefined): ReviewState {
  if (kept === undefined) return initialReviewState;
  const settled = { ...kept, job: null, more: null, asking: null, notice: null, error: null, errorAbout: null };
  const id = kept.lastId + 1;
  return { ...settled, lastId: id, load: readAgain(settled, id, false) };
}

/** What Review says when marked candidates left the queue it read again. */
const droppedMarks = (count: number): string =>
  count === 1
    ? '1 marked candidate left the queue (discarded or promoted): mark dropped.'
    : `${count} marked candidates left the queue (discarded or promoted): marks dropped.`;

export const candidatesOf = (state: ReviewState): MemoryReviewCandidate[] => state.data?.candidates ?? [];

/** The queue read again as far as it was read, with the selected candidate to read on to. */
function readAgain(state: ReviewState, id: number, quiet: boolean): ReviewLoad {
  const candidates = candidatesOf(state);
  return { id, quiet, rows: candidates.length, keep: candidates[state.selected]?.candidateId ?? null };
}

/** A page read after `read`: its candidates after those read (one that moved up a page is listed once), its counts. */
export function joinPages(read: MemoryReview, page: MemoryReview): MemoryReview {
  const known = new Set(read.candidates.map((candidate) => candidate.candidateId));
  const added = page.candidates.filter((candidate) => !known.has(candidate.candidateId));
  return { ...page, candidates: [...read.candidates, ...added] };
}

/** Rows before the last one read at which the next page is asked for, so that it is there when ↓ gets there. */
const READ_AHEAD_ROWS = 20;

/** The state asking for the next page when the selection nears the end of what is read. */
function readAhead(state: ReviewState): ReviewState {
  const after = state.data?.nextAfter;
  if (!after || state.more || state.load || state.selected < candidatesOf(state).length - READ_AHEAD_ROWS) return state;
  const id = state.lastId + 1;
  return { ...state, lastId: id, more: { id, after } };
}

export function openCandidate(state: ReviewState): MemoryReviewCandidate | undefined {
  const id = state.open?.candidateId;
  return id === undefined ? undefined : candidatesOf(state).find((candidate) => candidate.candidateId === id);
}

/** The open consolidation patch as the queue read it, or undefined. */
export function openPatch(state: ReviewState): ConsolidationReview | undefined {
  const id = state.patch?.taskId;
  return id === undefined ? undefined : state.data?.patches.find((patch) => patch.taskId === id);
}

/** The open patch's operations that p prepares, by number in order; empty when every one is left out. */
export const takenOperations = (state: ReviewState): number[] =>
  state.patch ? [...state.patch.taken].sort((a, b) => a - b) : [];

/** The candidate a key acts on: the open one, else the selected row. */
export function targetCandidate(state: ReviewState): MemoryReviewCandidate | undefined {
  return state.open ? openCandidate(state) : candidatesOf(state)[state.selected];
}

/** A statement's key in `confirmed`: statement ids are per candidate (each candidate's first is s1). */
export const confirmedKey = (candidateId: string, statementId: string): string => `${candidateId} ${statementId}`;

export function isConfirmed(
  state: ReviewState,
  candidateId: string,
  statement: { statementId: string; claimSupport: string },
): boolean {
  return (
    state.confirmed.has(confirmedKey(candidateId, statement.statementId)) ||
    statement.claimSupport === 'human-confirmed'
  );
}

type NewJob = ReviewJob extends infer Job ? (Job extends ReviewJob ? Omit<Job, 'id'> : never) : never;

function withJob(state: ReviewState, job: NewJob): ReviewState {
  const id = state.lastId + 1;
  return { ...state, lastId: id, job: { ...job, id } as ReviewJob, notice: null, error: null, errorAbout: null };
}

/**
 * The state without what Review said about one candidate (a notice, a confirm or discard that
 * failed): the selection left that candidate, or the queue or the view changed. An error about the
 * queue itself (a read that failed) stays.
 */
function withoutCandidateWords(state: ReviewState): ReviewState {
  if (state.notice === null && state.errorAbout === null) return state;
  return {
    ...state,
    notice: null,
    ...(state.errorAbout === null ? {} : { error: null, errorAbout: null }),
  };
}

/**
 * Where the selection goes in a queue read again: the row of the candidate it was on (rows added
 * above it or taken away move it), else of the nearest one still listed — the next older one, which
 * takes its place, else the one before — else the same row number.
 */
function followSelection(
  before: readonly MemoryReviewCandidate[],
  selected: number,
  after: readonly MemoryReviewCandidate[],
): number {
  const last = Math.max(0, after.length - 1);
  if (before.length === 0 || after.length === 0) return Math.min(selected, last);
  const rows = new Map(after.map((candidate, index) => [candidate.candidateId, index]));
  const rowOf = (index: number) => rows.get(before[index]?.candidateId ?? '');
  for (let index = selected; index < before.length; index++) {
    const row = rowOf(index);
    if (row !== undefined) return row;
  }
  for (let index = selected - 1; index >= 0; index--) {
    const row = rowOf(index);
    if (row !== undefined) return row;
  }
  return Math.min(selected, last);
}

export function reviewReducer(state: ReviewState, action: ReviewAction): ReviewState {
  switch (action.type) {
    case 'reload': {
      const id = state.lastId + 1;
      return { ...state, lastId: id, load: readAgain(state, id, action.quiet ?? false) };
    }
    case 'toggleFilter': {
      // Another queue: what was selected, marked or open belongs to the one left.
      const id = state.lastId + 1;
      return {
        ...withoutCandidateWords(state),
        filter: state.filter === 'all' ? 'here' : 'all',
        lastId: id,
        load: { id, quiet: false, rows: 0, keep: null },
        more: null,
        selected: 0,
        marked: new Set(),
        open: null,
        asking: null,
      };
    }
    case 'loaded': {
      if (state.load?.id !== action.id) return state;
      const ids = new Set(action.review.candidates.map((candidate) => candidate.candidateId));
      const marked = new Set([...state.marked].filter((id) => ids.has(id)));
      // Marks on candidates gone since (discarded or promoted elsewhere) are dropped, and said.
      const dropped = state.marked.size - marked.size;
      const open = state.open && ids.has(state.open.candidateId) ? state.open : null;
      const selected = followSelection(candidatesOf(state), state.selected, action.review.candidates);
      // A patch prepared (or gone) leaves the queue, and its open view closes.
      const patch =
        state.patch && action.review.patches.some((p) => p.taskId === state.patch!.taskId) ? state.patch : null;
      // A first page replaces what was read: a page read before it answers (more) is dropped.
      return readAhead({
        ...state,
        load: null,
        more: null,
        data: action.review,
        error: null,
        errorAbout: null,
        marked,
        open,
        patch,
        selected,
        notice: dropped > 0 ? droppedMarks(dropped) : state.notice,
      });
    }
    case 'moreLoaded': {
      if (state.more?.id !== action.id || !state.data) return state;
      return readAhead({ ...state, more: null, data: joinPages(state.data, action.review) });
    }
    case 'loadFailed':
      if (state.more?.id === action.id) return { ...state, more: null, error: action.error, errorAbout: null };
      return state.load?.id === action.id ? { ...state, load: null, error: action.error, errorAbout: null } : state;
    case 'select': {
      const selected = moveSelection(state.selected, action.delta, candidatesOf(state).length);
      if (selected === state.selected) return readAhead(state);
      // A notice (a statement confirmed, a candidate refused by p) or an error about a confirm or
      // discard is about the candidate it was given on: it does not stay under another.
      return readAhead({ ...withoutCandidateWords(state), selected });
    }
    case 'viewChanged':
      return withoutCandidateWords(state);
    case 'toggleMark': {
      const candidate = targetCandidate(state);
      if (!candidate) return state;
      const marked = new Set(state.marked);
      if (!marked.delete(candidate.candidateId)) marked.add(candidate.candidateId);
      return { ...state, marked };
    }
    case 'open': {
      const candidate = candidatesOf(state)[state.selected];
      if (!candidate) return state;
      // The last result (a statement confirmed) belongs to the candidate it was about: it does not follow to this one.
      return {
        ...state,
        open: { candidateId: candidate.candidateId, statement: 0, top: 0, evidence: false },
        notice: null,
      };
    }
    case 'close':
      return { ...state, open: null, asking: null };
    case 'openPatch': {
      // The newest waiting patch (or the next one), every operation taken: the person leaves out what they do not want.
      const patches = state.data?.patches ?? [];
      const at = action.next && state.patch ? patches.findIndex((p) => p.taskId === state.patch!.taskId) : -1;
      const patch = patches[(at + 1) % Math.max(1, patches.length)];
      // The only waiting patch asked again stays as the person left it.
      if (!patch || patch.operations.length === 0 || patch.taskId === state.patch?.taskId) return state;
      const taken = new Set(patch.operations.map((_, index) => index + 1));
      return { ...state, open: null, patch: { taskId: patch.taskId, selected: 0, taken } };
    }
    case 'choosePatchOperation': {
      const patch = openPatch(state);
      if (!patch || !state.patch) return state;
      const selected = moveSelection(state.patch.selected, action.delta, patch.operations.length);
      return { ...state, patch: { ...state.patch, selected } };
    }
    case 'togglePatchOperation': {
      if (!state.patch) return state;
      const taken = new Set(state.patch.taken);
      const number = state.patch.selected + 1;
      if (!taken.delete(number)) taken.add(number);
      return { ...state, patch: { ...state.patch, taken }, notice: null };
    }
    case 'closePatch':
      return { ...state, patch: null, notice: null };
    case 'nothingTaken':
      // Prepare & promote has nothing to show for no operation (it would say "No candidates
      // chosen", about candidates): the patch stays open with what to do.
      return state.patch
        ? {
            ...state,
            notice:
              'Every operation of this patch is left out: take one with m, then p prepares the plan of those taken.',
          }
        : state;
    case 'chooseStatement': {
      if (!state.open) return state;
      const statement = moveSelection(state.open.statement, action.delta, action.starts.length);
      const start = action.starts[statement] ?? 0;
      // Keep the chosen statement's first line on screen, moving the view as little as possible.
      const top = start < state.open.top ? start : start >= state.open.top + action.room ? start : state.open.top;
      return { ...state, open: { ...state.open, statement, top } };
    }
    case 'scroll':
      if (!state.open) return state;
      return {
        ...state,
        open: { ...state.open, top: Math.min(action.lastTop, Math.max(0, state.open.top + action.delta)) },
      };
    case 'toggleEvidence': {
      if (!state.open) return state;
      const evidence = !state.open.evidence;
      // The turns are shown under the chosen statement: scrolled past it (down among the
      // findings), e changed nothing on screen. Shown, the view moves to the statement.
      const start = action.starts?.[state.open.statement];
      const away =
        evidence && start !== undefined && action.room !== undefined
          ? start < state.open.top || start >= state.open.top + action.room
          : false;
      return { ...state, open: { ...state.open, evidence, top: away ? start! : state.open.top } };
    }
    case 'evidenceLoaded': {
      const turns: Record<string, string[]> = {};
      for (const turn of action.view.turns)
        turns[turn.turnKey] = turn.messages
          .filter((message) => message.classification === 'evidence')
          .map((message) => maskedText(message.text ?? ''));
      return { ...state, evidence: { ...state.evidence, [action.sessionKey]: { state: 'loaded', turns } } };
    }
    case 'evidenceFailed':
      return {
        ...state,
        evidence: { ...state.evidence, [action.sessionKey]: { state: 'failed', error: action.error } },
      };
    case 'confirmStatement': {
      const candidate = openCandidate(state);
      const statement = candidate?.statements[state.open?.statement ?? 0];
      if (!candidate || !statement || state.job) return state;
      return withJob(state, {
        kind: 'confirm',
        candidateId: candidate.candidateId,
        statementId: statement.statementId,
      });
    }
    case 'quarantinedChosen': {
      const one = action.candidateIds.length === 1;
      const ids = action.candidateIds.map(idLabel).join(', ');
      return {
        ...state,
        notice: `${ids} ${one ? 'is' : 'are'} quarantined: a blocking finding keeps ${one ? 'it' : 'them'} out of every plan. ${
          !action.marked
            ? 'd discards it.'
            : one
              ? 'Discard it (d) or unmark it (m); p then takes the others.'
              : 'Discard them (d, one at a time) or unmark them (m); p then takes the others.'
        }`,
      };
    }
    case 'askDiscard': {
      const candidate = targetCandidate(state);
      if (!candidate || state.job) return state;
      return { ...state, asking: { candidateId: candidate.candidateId }, notice: null };
    }
    case 'answerDiscard': {
      const asking = state.asking;
      if (!asking) return state;
      const answered = { ...state, asking: null };
      return action.yes ? withJob(answered, { kind: 'discard', candidateId: asking.candidateId }) : answered;
    }
    case 'jobDone': {
      if (state.job?.id !== action.id) return state;
      const job = state.job;
      const confirmed =
        job.kind === 'confirm'
          ? new Set([...state.confirmed, confirmedKey(job.candidateId, job.statementId)])
          : (state.confirmed as Set<string>);
      const open = job.kind === 'discard' && state.open?.candidateId === job.candidateId ? null : state.open;
      // A candidate discarded here leaves the queue: its mark goes with it, without a word of its own.
      const marked = new Set(state.marked);
      if (job.kind === 'discard') marked.delete(job.candidateId);
      const id = state.lastId + 1;
      // Read the queue again, quietly: a discarded candidate leaves it, a confirmed statement says so.
      return {
        ...state,
        job: null,
        confirmed,
        open,
        marked,
        notice: action.notice,
        lastId: id,
        load: readAgain(state, id, true),
      };
    }
    case 'jobFailed':
      return state.job?.id === action.id
        ? { ...state, job: null, error: action.error, errorAbout: state.job.candidateId }
        : state;
  }
}

/** A session the open candidate's chosen statement cites whose turns are not read yet (the key stays until its answer). */
export function evidenceToRead(state: ReviewState): string | undefined {
  if (!state.open?.evidence) return undefined;
  const statement = openCandidate(state)?.statements[state.open.statement];
  return statement?.evidence.map((ref) => ref.sessionKey).find((key) => state.evidence[key] === undefined);
}

/** The user's words with every secret the lint finds masked, as the candidates' own text is: the screen never shows one. */
export function maskedText(text: string): string {
  return maskText(text, lintText(text));
}
