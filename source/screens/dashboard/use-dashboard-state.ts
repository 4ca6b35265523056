// Dashboard state: the latest host status and when it was read. Refreshed every
// DASHBOARD_REFRESH_MS while the dashboard is mounted; the loop stops on unmount.
import { useReducer } from 'react';
import type { HostStatus } from '../../api/history.js';
import type { ShownError } from '../format.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { useEnvironment, useShellActions } from '../shell/shell-context.js';
import { DASHBOARD_REFRESH_MS } from '../timing.js';

export interface DashboardState {
  status: HostStatus | null;
  error: ShownError | null;
  loading: boolean;
  refreshedAt: Date | null;
}

export type DashboardAction =
  | { type: 'refreshStarted' }
  | { type: 'statusLoaded'; status: HostStatus; at: Date }
  | { type: 'statusFailed'; error: ShownError; at: Date };

export const initialDashboardState: DashboardState = { status: null, error: null, loading: false, refreshedAt: null };

export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'refreshStarted':
      return { ...state, loading: true };
    case 'statusLoaded':
      return { status: action.status, error: null, loading: false, refreshedAt: action.at };
    case 'statusFailed':
      // Keep the last heads on screen next to the error: stale but labelled, better than blank.
      return { ...state, error: action.error, loading: false, refreshedAt: action.at };
  }
}

export function useDashboardState(): DashboardState {
  const { app } = useEnvironment();
  const { reportStatus, reportStatusError } = useShellActions();
  const [state, dispatch] = useReducer(dashboardReducer, initialDashboardState);
  useRequestLoop(
    () => ({
      run: () => {
        dispatch({ type: 'refreshStarted' });
        return app.status();
      },
      answered: (status) => {
        dispatch({ type: 'statusLoaded', status, at: new Date() });
        reportStatus(status);
        return DASHBOARD_REFRESH_MS;
      },
      failed: (error) => {
        dispatch({ type: 'statusFailed', error, at: new Date() });
        reportStatusError(error);
        return DASHBOARD_REFRESH_MS;
      },
    }),
    [app, reportStatus, reportStatusError],
  );
  return state;
}
