// The Memory screen's requests: the review queue, the cited turns (through the session read),
// confirm and discard, prepare → approve → promote, search and get. Each reports back with an
// action carrying its request id; a superseded or unmounted request's answer is dropped.
import type { Dispatch } from 'react';
import type { Application } from '../../api/application.js';
import { REVIEW_PAGE_MAX } from '../../limits.js';
import { STATUS_PROGRESS_MS } from '../timing.js';
import { useRequest, useRequestLoop } from '../widgets/use-request.js';
import { idLabel } from './wrap-lines.js';
import type { EntriesAction, EntriesState } from './entries-state.js';
import { busy, type PromoteAction, type PromoteState } from './promote-state.js';
import { evidenceToRead, joinPages, type ReviewAction, type ReviewState } from './review-state.js';

export function useReviewEffects(app: Application, cwd: string, state: ReviewState, dispatch: Dispatch<ReviewAction>) {
  // Every scope's by default (confirm, discard and prepare act on each candidate's own), or the
  // caller's only. The largest pages, read ahead of ↓.
  const page = { cwd, scope: state.filter, limit: REVIEW_PAGE_MAX };
  useRequest(
    state.load,
    async ({ rows, keep }) => {
      // Read again as far as before (and on to the selected candidate, rows having come in above
      // it, at most a page further), so that r never leaves the selection on a row no longer read.
      let review = await app.memoryReview(page);
      const reached = () =>
        review.candidates.length >= rows &&
        (keep === null ||
          review.candidates.length >= rows + REVIEW_PAGE_MAX ||
          review.candidates.some((candidate) => candidate.candidateId === keep));
      while (review.nextAfter && !reached()) {
        const next = await app.memoryReview({ ...page, after: review.nextAfter });
        if (next.candidates.length === 0) break;
        review = joinPages(review, next);
      }
      return review;
    },
    {
      answered: (review, { id }) => dispatch({ type: 'loaded', id, review }),
      failed: (error, { id }) => dispatch({ type: 'loadFailed', id, error }),
    },
  );
  useRequest(state.more, ({ after }) => app.memoryReview({ ...page, after }), {
    answered: (review, { id }) => dispatch({ type: 'moreLoaded', id, review }),
    failed: (error, { id }) => dispatch({ type: 'loadFailed', id, error }),
  });
  const sessionKey = evidenceToRead(state);
  useRequest(sessionKey, (key) => app.readSession({ sessionKey: key }), {
    answered: (view, key) => dispatch({ type: 'evidenceLoaded', sessionKey: key, view }),
    failed: (error, key) => dispatch({ type: 'evidenceFailed', sessionKey: key, error }),
  });
  useRequest(
    state.job,
    async (job): Promise<string> => {
      if (job.kind === 'confirm') {
        const confirmed = await app.memoryConfirm({ candidateId: job.candidateId, statementId: job.statementId, cwd });
        const stays = confirmed.quarantined
          ? ' It stays quarantined: its blocking finding keeps it from being promoted (d discards it).'
          : '';
        return confirmed.replayed
          ? `Statement ${job.statementId} was confirmed already: nothing changed.${stays}`
          : `Statement ${job.statementId} confirmed: its text and citations are recorded as reviewed by you.${stays}`;
      }
      const discarded = await app.memoryDiscard({ candidateId: job.candidateId, cwd });
      return discarded.replayed
        ? `Candidate ${idLabel(job.candidateId)} was discarded already.`
        : `Candidate ${idLabel(job.candidateId)} discarded: it left the queue (memory-state keeps it; nothing is deleted).`;
    },
    {
      answered: (notice, job) => dispatch({ type: 'jobDone', id: job.id, notice }),
      failed: (error, job) => dispatch({ type: 'jobFailed', id: job.id, error }),
    },
  );
}

export function usePromoteEffects(
  app: Application,
  cwd: string,
  state: PromoteState,
  dispatch: Dispatch<PromoteAction>,
) {
  const { phase, requestId, plan } = state;
  const request = busy(phase) ? { phase, requestId } : null;
  // One key object per request, so a re-render does not start it again.
  useRequest(
    request ? `${request.phase}\u0000${request.requestId}` : null,
    async () => {
      const id = requestId;
      if (phase === 'preparing' && state.retire) {
        const retirement = await app.memoryRetire({
          entryId: state.retire.entryId,
          scope: state.retire.scope,
          cwd,
        });
        return () => dispatch({ type: 'prepared', id, plan: retirement });
      }
      if (phase === 'preparing' && state.patch) {
        const prepared = await app.memoryPrepare({
          candidateIds: [],
          patch: { taskId: state.patch.taskId, operations: state.patch.operations },
          cwd,
        });
        return () => dispatch({ type: 'prepared', id, plan: prepared });
      }
      if (phase === 'preparing') {
        const prepared = await app.memoryPrepare({
          candidateIds: state.chosen.map((chosen) => chosen.candidateId),
          scope: state.scope,
          cwd,
        });
        return () => dispatch({ type: 'prepared', id, plan: prepared });
      }
      if (!plan) throw new Error('no plan to approve, promote or withdraw');
      if (phase === 'withdrawing') {
        await app.memoryVoid({ planId: plan.planId });
        return () => dispatch({ type: 'withdrawn', id });
      }
      if (phase === 'approving') {
        const approved = await app.memoryApprove({ planId: plan.planId, digest: plan.planDigest });
        return () => dispatch({ type: 'approved', id, plan: approved });
      }
      const result = await app.memoryPromote({ planId: plan.planId });
      return () => dispatch({ type: 'promoted', id, result });
    },
    {
      answered: (report) => report(),
      failed: (error) => dispatch({ type: 'failed', id: requestId, error }),
    },
  );
  // While the files are written, the journal's view of the plan says which are done.
  const watched = phase === 'promoting' && plan ? plan.planId : null;
  useRequestLoop(
    () =>
      watched
        ? {
            run: () => app.memoryPlan({ planId: watched }),
            answered: (live) => {
              dispatch({ type: 'progress', id: requestId, plan: live });
              return STATUS_PROGRESS_MS;
            },
            failed: () => STATUS_PROGRESS_MS,
          }
        : undefined,
    [watched, requestId],
  );
}

export function useEntriesEffects(
  app: Application,
  cwd: string,
  state: EntriesState,
  dispatch: Dispatch<EntriesAction>,
) {
  useRequest(state.staleLoad, () => app.memoryStale({ cwd }), {
    answered: (stale, { id }) => dispatch({ type: 'staleLoaded', id, stale }),
    // The list is a courtesy: when it cannot be read, the screen stays a search screen and says why.
    failed: (error, { id }) =>
      dispatch({
        type: 'staleLoaded',
        id,
        stale: { state: 'unavailable', reason: error.message, total: 0, entries: [] },
      }),
  });
  // The memory files nothing gives back (a hand-written entry the lint blocks): memory status names
  // them. Unreadable, the list goes without them: the stale line says when the host cannot answer.
  useRequest(state.leftOutLoad, () => app.memoryStatus(), {
    answered: (status, { id }) => dispatch({ type: 'leftOutLoaded', id, files: status.leftOutFiles ?? [] }),
    failed: (_error, { id }) => dispatch({ type: 'leftOutLoaded', id, files: [] }),
  });
  useRequest(state.search, (search) => app.memorySearch({ query: search.query, cwd }), {
    answered: (result, { id }) => dispatch({ type: 'searched', id, result }),
    failed: (error, { id }) => dispatch({ type: 'failed', id, error }),
  });
  useRequest(state.open, (open) => app.memoryGet({ entryId: open.entryId, cwd }), {
    answered: (entry, { id }) => dispatch({ type: 'entryRead', id, entry }),
    failed: (error, { id }) => dispatch({ type: 'failed', id, error }),
  });
}
