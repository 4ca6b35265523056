// Keeps the header's host state fresh on every screen; cancelled when the shell unmounts.
import { useEffect } from 'react';
import { toShownError } from '../format.js';
import { HEADER_REFRESH_MS } from '../timing.js';
import { useEnvironment, useShellActions } from './shell-context.js';

export function useHeaderStatus(): void {
  const { app } = useEnvironment();
  const { reportStatus, reportStatusError } = useShellActions();
  useEffect(() => {
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const check = async () => {
      try {
        const status = await app.status();
        if (!cancelled) reportStatus(status);
      } catch (error) {
        if (!cancelled) reportStatusError(toShownError(error));
      }
      if (!cancelled) timer = setTimeout(check, HEADER_REFRESH_MS);
    };
    void check();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [app, reportStatus, reportStatusError]);
}
