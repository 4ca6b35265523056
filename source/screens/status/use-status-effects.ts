// The status screen's requests: the page read, the periodic refresh (fast while a drain runs, so
// its progress shows in the counts), and the one drain / flush / retry in flight.
import { useEffect, type Dispatch } from 'react';
import type { Application } from '../../api/application.js';
import type { DrainReport, FlushReport } from '../../protocol.js';
import { toShownError } from '../format.js';
import { STATUS_PROGRESS_MS, STATUS_REFRESH_MS } from '../timing.js';
import { prefetchCursor, type StatusAction, type StatusJob, type StatusState } from './use-status-state.js';

function perform(app: Application, job: StatusJob): Promise<DrainReport | FlushReport> {
  if (job.kind === 'flush') return app.flush();
  return app.sessionDrain(job.kind === 'retry' ? { recover: job.recoveryId } : {});
}

export function useStatusEffects(app: Application, state: StatusState, dispatch: Dispatch<StatusAction>): void {
  const { read, job } = state;
  const working = job !== null;
  const ahead = prefetchCursor(state);

  useEffect(() => {
    if (!read) return;
    let cancelled = false;
    app.captureStatus({ afterRecovery: read.cursor }).then(
      (status) => !cancelled && dispatch({ type: 'loaded', id: read.id, status }),
      (failure: unknown) => !cancelled && dispatch({ type: 'failed', id: read.id, error: toShownError(failure) }),
    );
    return () => {
      cancelled = true;
    };
  }, [app, read, dispatch]);

  // Reads the next page ahead, so "more" shows it without waiting; a failure here is silent, the real read will report it.
  useEffect(() => {
    if (ahead === null) return;
    let cancelled = false;
    app.captureStatus({ afterRecovery: ahead }).then(
      (status) => !cancelled && dispatch({ type: 'prefetched', cursor: ahead, status }),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [app, ahead, dispatch]);

  // Timed from the end of the last read, so a slow host is never asked twice at once.
  useEffect(() => {
    if (read) return;
    const timer = setTimeout(() => dispatch({ type: 'poll' }), working ? STATUS_PROGRESS_MS : STATUS_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [read, working, dispatch]);

  useEffect(() => {
    if (!job) return;
    let cancelled = false;
    perform(app, job).then(
      (report) => !cancelled && dispatch({ type: 'jobDone', id: job.id, report, at: Date.now() }),
      (failure: unknown) => !cancelled && dispatch({ type: 'jobFailed', id: job.id, error: toShownError(failure) }),
    );
    return () => {
      cancelled = true;
    };
  }, [app, job, dispatch]);
}
