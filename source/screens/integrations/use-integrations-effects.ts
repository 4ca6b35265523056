// The integrations screen's work: reading each client's state, planning and applying. These touch
// only the clients' config files (never our store), so the screen calls the integrations module
// directly. The calls are synchronous file reads and one atomic write; errors become on-screen lines.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { useEffect, type Dispatch } from 'react';
import {
  applyInstall,
  INTEGRATION_CLIENTS,
  integrationStatus,
  planInstall,
  planOutdatedReasons,
  planUninstall,
  type HookClient,
  type IntegrationDirs,
  type IntegrationOptions,
} from '../../hosts/integrations.js';
import { toShownError } from '../format.js';
import { isBroken } from '../../hosts/install-health.js';
import type { ShellEnvironment } from '../shell/shell-context.js';
import type { ClientRow, IntegrationsAction, IntegrationsState } from './use-integrations-state.js';

/** The options for one client: its config dir if the shell was given one, and the data home when it is not the default. */
export function optionsFor(
  client: HookClient,
  environment: Pick<ShellEnvironment, 'home' | 'integrations'>,
): IntegrationOptions {
  const configDir = client === 'codex' ? environment.integrations?.codexDir : environment.integrations?.claudeDir;
  // Like `install`, the hook gets --home only for a home other than the default, so it resolves it as we do.
  const explicitHome = environment.home !== join(homedir(), '.common-memory') ? environment.home : undefined;
  return {
    ...(configDir === undefined ? {} : { configDir }),
    ...(explicitHome === undefined ? {} : { home: explicitHome }),
  };
}

/** The config dirs and data home the shell was given, as `brokenIntegrations` takes them (the Dashboard's warning). */
export function integrationDirs(environment: Pick<ShellEnvironment, 'home' | 'integrations'>): IntegrationDirs {
  const claude = optionsFor('claude', environment);
  return {
    codexHome: optionsFor('codex', environment).configDir,
    claudeDir: claude.configDir,
    home: claude.home,
  };
}

function readStates(environment: Pick<ShellEnvironment, 'home' | 'integrations'>): ClientRow[] {
  return INTEGRATION_CLIENTS.map((client) => {
    try {
      const { state, plan } = integrationStatus(client, optionsFor(client, environment));
      return { client, state, path: plan.path, broken: planOutdatedReasons(plan).filter(isBroken), error: null };
    } catch (error) {
      return { client, state: null, path: null, broken: [], error: toShownError(error) };
    }
  });
}

export function useIntegrationsEffects(
  environment: Pick<ShellEnvironment, 'home' | 'integrations'>,
  state: IntegrationsState,
  dispatch: Dispatch<IntegrationsAction>,
): void {
  const { loadNonce, request } = state;
  const { home, integrations } = environment;
  const codexDir = integrations?.codexDir;
  const claudeDir = integrations?.claudeDir;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `loadNonce` is the request to read the states again.
  useEffect(() => {
    dispatch({ type: 'statesLoaded', clients: readStates({ home, integrations: { codexDir, claudeDir } }) });
  }, [home, codexDir, claudeDir, loadNonce, dispatch]);

  useEffect(() => {
    if (!request) return;
    const environmentNow = { home, integrations: { codexDir, claudeDir } };
    try {
      if (request.kind === 'plan') {
        const options = optionsFor(request.client, environmentNow);
        const plan =
          request.action === 'install' ? planInstall(request.client, options) : planUninstall(request.client, options);
        dispatch({ type: 'planned', id: request.id, plan });
      } else {
        // Writes only if the file still holds the bytes the plan showed; otherwise config_conflict.
        const result = applyInstall(request.plan);
        dispatch({ type: 'applied', id: request.id, plan: request.plan, result });
      }
    } catch (error) {
      dispatch({ type: 'requestFailed', id: request.id, error: toShownError(error) });
    }
  }, [home, codexDir, claudeDir, request, dispatch]);
}
