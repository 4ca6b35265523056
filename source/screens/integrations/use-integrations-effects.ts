// The integrations screen's work: reading each client's state, planning and applying. These touch
// only the clients' config files (never our store), so the screen calls the integrations module
// directly. The calls are synchronous file reads and one atomic write; errors become on-screen lines.
// An import's dry run reads the client's stored conversations here, as `import` does without
// --yes, writing nothing; the import itself runs in the host (the application API), followed here.
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
import { CmError } from '../../errors.js';
import { importRoot, importRootProblem } from '../../hosts/import-files.js';
import { dryRunImport } from '../../client/import-dry-run.js';
import { IMPORT_CLIENT_NAMES } from '../../import-text.js';
import { toShownError } from '../format.js';
import { isBroken } from '../../hosts/install-health.js';
import { applyPiExtension, planPiExtension, type PiExtensionPlan } from '../../hosts/pi/extension-install.js';
import { type ShellEnvironment, useKeptRequest } from '../shell/shell-context.js';
import type { ScreenPlan } from './plan-lines.js';
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
    piDir: environment.integrations?.piDir,
    home: claude.home,
  };
}

const piOptions = (environment: Pick<ShellEnvironment, 'integrations'>) => {
  const piDir = environment.integrations?.piDir;
  return piDir === undefined ? {} : { piDir };
};

/** pi's row: its extension entry, judged by the install plan like a hook client's hooks. */
function piRow(plan: PiExtensionPlan): ClientRow {
  const state =
    plan.refusals.length > 0
      ? 'blocked'
      : plan.change === 'unchanged'
        ? 'installed'
        : plan.change === 'update'
          ? 'outdated'
          : 'not_installed';
  return { client: 'pi', state, path: plan.path, broken: plan.reasons.filter(isBroken), error: null };
}

function readStates(environment: Pick<ShellEnvironment, 'home' | 'integrations'>): ClientRow[] {
  const hooks = INTEGRATION_CLIENTS.map((client): ClientRow => {
    try {
      const { state, plan } = integrationStatus(client, optionsFor(client, environment));
      return { client, state, path: plan.path, broken: planOutdatedReasons(plan).filter(isBroken), error: null };
    } catch (error) {
      return { client, state: null, path: null, broken: [], error: toShownError(error) };
    }
  });
  let pi: ClientRow;
  try {
    pi = piRow(planPiExtension('install', piOptions(environment)));
  } catch (error) {
    pi = { client: 'pi', state: null, path: null, broken: [], error: toShownError(error) };
  }
  return [...hooks, pi];
}

function planFor(
  request: { client: ClientRow['client']; action: 'install' | 'uninstall' },
  environment: Pick<ShellEnvironment, 'home' | 'integrations'>,
): ScreenPlan {
  if (request.client === 'pi') return { client: 'pi', plan: planPiExtension(request.action, piOptions(environment)) };
  const options = optionsFor(request.client, environment);
  const plan =
    request.action === 'install' ? planInstall(request.client, options) : planUninstall(request.client, options);
  return { client: request.client, plan };
}

/** How often a running import's progress is read. */
const IMPORT_POLL_MS = 200;

/** The folder of the client's stored conversations, from the dir the shell was given (else the client's default). */
function importFolder(client: ClientRow['client'], integrations: ShellEnvironment['integrations']): string {
  const dir =
    client === 'codex' ? integrations?.codexDir : client === 'claude' ? integrations?.claudeDir : integrations?.piDir;
  const root = importRoot(client, dir);
  const problem = importRootProblem(root);
  if (problem !== null)
    throw new CmError(
      'not_found',
      `No ${IMPORT_CLIENT_NAMES[client]} conversations at ${root}${problem}: nothing to import.`,
    );
  return root;
}

type Request = NonNullable<IntegrationsState['request']>;

/** Starts a request once, though the screen is left and shown again (shell-context.tsx, useKeptRequest). */
type Once = <T>(id: number, start: () => Promise<T>) => Promise<T>;

/**
 * The answer to one request, as the action that shows it: a plan, a write, the dry run of an import
 * or the import itself (its progress dispatched while `live()`). Each starts once: the screen left
 * and shown again follows the same request, so a write or an import is never sent twice.
 */
async function answer(
  environment: Pick<ShellEnvironment, 'app' | 'home' | 'integrations'>,
  request: Request,
  once: Once,
  dispatch: Dispatch<IntegrationsAction>,
  live: () => boolean,
): Promise<IntegrationsAction | null> {
  const { app, home, integrations } = environment;
  const { id } = request;
  if (request.kind === 'plan')
    return { type: 'planned', id, shown: await once(id, async () => planFor(request, { home, integrations })) };
  if (request.kind === 'apply') {
    // Writes only if the file still holds the bytes the plan showed; otherwise config_conflict.
    const { shown } = request;
    const applied = await once(id, async () =>
      shown.client === 'pi'
        ? { ...shown, result: applyPiExtension(shown.plan) }
        : { ...shown, result: applyInstall(shown.plan) },
    );
    return { type: 'applied', id, applied };
  }
  if (request.kind === 'importPlan') {
    const report = await once(id, async () => {
      const root = importFolder(request.client, integrations);
      return dryRunImport(home, {
        client: request.client,
        root,
        sinceMs: -Infinity,
        untilMs: Infinity,
        repository: null,
      });
    });
    return { type: 'importPlanned', id, report };
  }
  let run = await once(id, () => app.captureImportStart({ client: request.client, root: request.root }));
  while (run.state === 'running' || run.state === 'extracting') {
    if (!live()) return null;
    dispatch({ type: 'importProgress', id, run });
    await new Promise((done) => setTimeout(done, IMPORT_POLL_MS));
    run = await app.captureImportRun({ importId: run.importId });
  }
  if (run.state === 'failed' || run.report === null)
    throw new CmError(
      (run.error?.code as ConstructorParameters<typeof CmError>[0] | undefined) ?? 'internal',
      `${run.error?.message ?? 'The import failed.'} What was committed stays; import again to go on where it stopped.`,
    );
  return { type: 'imported', id, report: run.report };
}

export function useIntegrationsEffects(
  environment: Pick<ShellEnvironment, 'app' | 'home' | 'integrations'>,
  state: IntegrationsState,
  dispatch: Dispatch<IntegrationsAction>,
): void {
  const { loadNonce, request } = state;
  const { app, home, integrations } = environment;
  const codexDir = integrations?.codexDir;
  const claudeDir = integrations?.claudeDir;
  const piDir = integrations?.piDir;
  const once = useKeptRequest('integrations');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `loadNonce` is the request to read the states again.
  useEffect(() => {
    dispatch({ type: 'statesLoaded', clients: readStates({ home, integrations: { codexDir, claudeDir, piDir } }) });
  }, [home, codexDir, claudeDir, piDir, loadNonce, dispatch]);

  useEffect(() => {
    if (!request) return;
    let live = true;
    answer({ app, home, integrations: { codexDir, claudeDir, piDir } }, request, once, dispatch, () => live).then(
      (action) => {
        if (live && action) dispatch(action);
      },
      (error: unknown) => {
        if (live) dispatch({ type: 'requestFailed', id: request.id, error: toShownError(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [app, home, codexDir, claudeDir, piDir, request, once, dispatch]);
}
