// The status screen's requests: the page read, the periodic refresh (fast while a drain runs, so
// its progress shows in the counts), and the one drain / flush / retry in flight.
import { useEffect, type Dispatch } from 'react';
import type { Application } from '../../api/application.js';
import type { DrainReport, FlushReport } from '../../api/capture.js';
import { useKeptRequest } from '../shell/shell-context.js';
import { useRequest } from '../widgets/use-request.js';
import { STATUS_PROGRESS_MS, STATUS_REFRESH_MS } from '../timing.js';
import { prefetchCursor, type StatusAction, type StatusJob, type StatusState } from './use-status-state.js';

function perform(app: Application, job: StatusJob): Promise<DrainReport | FlushReport> {
  if (job.kind === 'flush') return app.flush({});
  return app.sessionDrain(job.kind === 'retry' ? { recover: job.recoveryId } : {});
}

export function useStatusEffects(app: Application, state: StatusState, dispatch: Dispatch<StatusAction>): void {
  const { read, job } = state;
  const working = job !== null;
  const ahead = prefetchCursor(state);
  const once = useKeptRequest('status');

  useRequest(read, ({ cursor }) => app.captureStatus({ afterRecovery: cursor }), {
    answered: (status, { id }) => dispatch({ type: 'loaded', id, status }),
    failed: (error, { id }) => dispatch({ type: 'failed', id, error }),
  });

  // Reads the next page ahead, so "more" shows it without waiting; a failure here is silent, the real read will report it.
  useRequest(ahead, (cursor) => app.captureStatus({ afterRecovery: cursor }), {
    answered: (status, cursor) => dispatch({ type: 'prefetched', cursor, status }),
  });

  // Timed from the end of the last read, so a slow host is never asked twice at once.
  useEffect(() => {
    if (read) return;
    const timer = setTimeout(() => dispatch({ type: 'poll' }), working ? STATUS_PROGRESS_MS : STATUS_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [read, working, dispatch]);

  // A drain left running when another screen was shown is followed, not sent again, when Status is back.
  useRequest(job, (started) => once(started.id, () => perform(app, started)), {
    answered: (report, { id }) => dispatch({ type: 'jobDone', id, report, at: Date.now() }),
    failed: (error, { id }) => dispatch({ type: 'jobFailed', id, error }),
  });
}
