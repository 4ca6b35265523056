// Keys of the integrations screen: while no panel is open, the client chooser (↑↓ choose, Enter
// plans an install of the highlighted client, as i does) and the list keys (plan install /
// uninstall, what an import would bring in, refresh); scroll, "y" and Esc while a panel is open.
import type { Dispatch } from 'react';
import { useChooserKeys } from '../keyboard/use-chooser-keys.js';
import { useCommandKeys } from '../keyboard/use-command-keys.js';
import type { IntegrationsAction, IntegrationsState } from './use-integrations-state.js';

const LIST_COMMANDS = ['planInstall', 'planUninstall', 'planImport', 'refresh'] as const;
const PANEL_COMMANDS = [
  'confirm',
  'decline',
  'selectUp',
  'selectDown',
  'nextPage',
  'previousPage',
  'firstPage',
] as const;

export function useIntegrationsInput(
  state: IntegrationsState,
  dispatch: Dispatch<IntegrationsAction>,
  panelRows: number,
  panelLines: number,
): void {
  const panelOpen = state.panel !== null;
  useChooserKeys(
    {
      onMove: (delta) => dispatch({ type: 'move', delta }),
      onChoose: () => dispatch({ type: 'plan', action: 'install' }),
    },
    { isActive: !panelOpen },
  );
  useCommandKeys(
    LIST_COMMANDS,
    (command) => {
      if (command === 'planInstall' || command === 'planUninstall')
        dispatch({ type: 'plan', action: command === 'planInstall' ? 'install' : 'uninstall' });
      else if (command === 'planImport') dispatch({ type: 'planImport' });
      else dispatch({ type: command });
    },
    { isActive: !panelOpen },
  );
  useCommandKeys(
    PANEL_COMMANDS,
    (command) => {
      if (command === 'confirm' || command === 'decline') dispatch({ type: command });
      else if (command === 'firstPage') dispatch({ type: 'scroll', by: 'top', total: panelLines });
      else {
        const page = Math.max(1, panelRows - 1);
        const by = { selectUp: -1, selectDown: 1, nextPage: page, previousPage: -page }[command];
        dispatch({ type: 'scroll', by, total: panelLines });
      }
    },
    { isActive: panelOpen },
  );
}
