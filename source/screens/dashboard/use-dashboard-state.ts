// Dashboard state: the latest host status and when it was read. Refreshed every
// DASHBOARD_REFRESH_MS while the dashboard is mounted; the loop stops on unmount.
import { useEffect, useReducer } from 'react';
import type { HostStatus } from '../../protocol.js';
import { toShownError, type ShownError } from '../format.js';
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
  useEffect(() => {
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const refresh = async () => {
      dispatch({ type: 'refreshStarted' });
      try {
        const status = await app.status();
        if (cancelled) return;
        dispatch({ type: 'statusLoaded', status, at: new Date() });
        reportStatus(status);
      } catch (error) {
        if (cancelled) return;
        const shown = toShownError(error);
        dispatch({ type: 'statusFailed', error: shown, at: new Date() });
        reportStatusError(shown);
      }
      // The next refresh is timed from the end of this one, so a slow host is never asked twice at once.
      if (!cancelled) timer = setTimeout(refresh, DASHBOARD_REFRESH_MS);
    };
    void refresh();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [app, reportStatus, reportStatusError]);
  return state;
}
