// Keeps the header's host state fresh on every screen; cancelled when the shell unmounts.
import { HEADER_REFRESH_MS } from '../timing.js';
import { useRequestLoop } from '../widgets/use-request.js';
import { useEnvironment, useShellActions } from './shell-context.js';

export function useHeaderStatus(): void {
  const { app } = useEnvironment();
  const { reportStatus, reportStatusError } = useShellActions();
  useRequestLoop(
    () => ({
      run: () => app.status(),
      answered: (status) => {
        reportStatus(status);
        return HEADER_REFRESH_MS;
      },
      failed: (error) => {
        reportStatusError(error);
        return HEADER_REFRESH_MS;
      },
    }),
    [app, reportStatus, reportStatusError],
  );
}
