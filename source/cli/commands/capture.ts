// `status`, `session-drain [--recover <id>]` and `flush`: host capture through the running host's
// API, or — for the two that write — with the lease for this command's duration. No bodies are
// ever printed.
import { checkedRecoveryId, recoveryCursor } from '../../api/request-checks.js';
import { connect } from '../../client/connect.js';
import { storeFiles } from '../../home.js';
import { CmError, EXIT } from '../../errors.js';
import type {
  CaptureStatus,
  CaptureStatusRequest,
  DrainReport,
  FlushExtraction,
  FlushReport,
} from '../../api/capture.js';
import { AUTO_EXTRACT_ENV } from '../../limits.js';
import type { Output } from '../output.js';
import { serviceEnvironment, serviceStatus, type ServiceStatus } from '../../service/service-manager.js';
import { serviceStatusText } from './service.js';
import { brokenIntegrationText, brokenIntegrations, silentHooks, silentHooksText } from '../../hosts/integrations.js';
import type { BrokenIntegration, IntegrationDirs } from '../../hosts/integrations.js';
import { counted } from '../../ground/count-text.js';
import { draftedAny, extractedText } from '../../import-text.js';

/**
 * The store's capture status, and — read here, in the command's own environment, where the
 * clients' config dirs are — the installed hooks that name a path that is gone.
 */
export async function runStatus(
  home: string,
  request: CaptureStatusRequest,
  dirs: IntegrationDirs,
  out: Output,
): Promise<number> {
  recoveryCursor(request.afterRecovery); // a malformed cursor is refused before the store is opened
  const brokenHooks = brokenIntegrations(dirs);
  let connection: Awaited<ReturnType<typeof connect>>;
  try {
    connection = await connect(home, 'read');
  } catch (error) {
    // A home the hooks never reached (they cannot run) has no store: say why with the "not found".
    if (!(error instanceof CmError) || brokenHooks.length === 0) throw error;
    const warnings = brokenHooks.map((broken) => `warning: ${brokenIntegrationText(broken)}`);
    throw new CmError(error.code, [error.message, ...warnings].join('\n'));
  }
  try {
    const captured = await connection.app.captureStatus(request);
    const untrusted = silentHooks(dirs, (await connection.app.status()).lastEventAt);
    const status = { ...captured, brokenHooks, silentHooks: untrusted, service: serviceOf(home) };
    out.result(status, () =>
      [
        ...untrusted.map((silent) => `warning: ${silentHooksText(silent)}`),
        ...statusText(status, storeFiles(home).hookErrors).split('\n'),
        '',
        ...serviceLines(status.service),
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/** This data home's service as status reports it; null where there is none to ask about (another platform). */
function serviceOf(home: string): ServiceStatus | null {
  try {
    return serviceStatus(home, serviceEnvironment());
  } catch {
    return null;
  }
}

const serviceLines = (service: ServiceStatus | null): string[] =>
  service === null
    ? ['service: not available on this platform (run common-memory host yourself)']
    : serviceStatusText(service);

export async function runSessionDrain(home: string, recover: string | undefined, out: Output): Promise<number> {
  if (recover !== undefined) checkedRecoveryId(recover); // a malformed ID is refused before the store is opened
  const connection = await connect(home, 'write', { drain: true });
  try {
    const report = await connection.app.sessionDrain({ recover });
    out.result(report, () => drainText(report, recover));
    return report.recovered === false ? EXIT.incomplete : EXIT.ok;
  } finally {
    await connection.close();
  }
}

export async function runFlush(home: string, out: Output): Promise<number> {
  const connection = await connect(home, 'write', { drain: true });
  try {
    const report = await connection.app.flush({ extract: true });
    out.result(report, () => flushText(report));
    return report.complete ? EXIT.ok : EXIT.incomplete;
  } finally {
    await connection.close();
  }
}

function drainText(report: DrainReport, recover: string | undefined): string {
  const lines = [`drained: ${report.steps} step(s), ${report.sealedTurns} turn(s) sealed`];
  if (recover !== undefined)
    lines.push(
      report.recovered
        ? `recovered ${recover}`
        : `${recover} failed again and stays open with the same ID (see status)`,
    );
  if (report.isolated.length > 0) lines.push(`isolated: ${report.isolated.join(', ')}`);
  return lines.join('\n');
}

function flushText(report: FlushReport): string {
  const r = report.remaining;
  const captured =
    r.buffered + r.inbox + r.watch + r.isolated === 0
      ? 'captured: everything settled is sealed into turns'
      : `waiting: ${r.buffered} buffered turn(s), ${r.inbox} inbox envelope(s), ${r.watch} watched session(s), ${r.isolated} isolated (status says why)`;
  const lines = [drainText(report, undefined), captured];
  if (report.extraction) lines.push(...extractionLines(report.extraction));
  lines.push(report.complete ? 'complete: everything settled is processed' : 'incomplete (exit 3)');
  return lines.join('\n');
}

/** What flush's extraction did, and the next step: review what it drafted, or run it again. */
export function extractionLines(x: FlushExtraction): string[] {
  if (x.state === 'off')
    return [`extraction: off (${AUTO_EXTRACT_ENV}); draft candidates with: common-memory memory extract`];
  if (x.state === 'failed')
    return [
      `extraction failed: ${x.error ?? 'unknown error'}`,
      'Run common-memory flush again; memory status shows the last run.',
    ];
  const lines = [extractedText(x)];
  if (x.tasksFailed > 0)
    lines.push(`${x.tasksFailed} task(s) failed: memory status lists them (memory retry <task-id>).`);
  if (x.tasksLeft > 0) lines.push(`${x.tasksLeft} task(s) left: run common-memory flush again.`);
  if (draftedAny(x)) lines.push('Review them: common-memory memory review');
  return lines;
}

const pad = (text: string | number, width: number) => String(text).padEnd(width);

/** The read ledger in one line: counts, or unavailable with the reason; the last hook failure. */
export function ledgerLine(ledger: CaptureStatus['ledger']): string {
  const last = ledger.lastError
    ? ` · last failure ${ledger.lastError.code} at ${ledger.lastError.at} (${ledger.lastError.event})`
    : '';
  if (ledger.state === 'unavailable') return `read ledger: UNAVAILABLE — ${ledger.reason}${last}`;
  return `read ledger: ${ledger.state}, ${counted(ledger.roots, 'conversation')} (${ledger.activeRoots} active), ${counted(ledger.entries, 'entry', 'entries')} read${last}`;
}

export function statusText(
  status: CaptureStatus & { brokenHooks?: readonly BrokenIntegration[] },
  hookErrorsFile?: string,
): string {
  const lines: string[] = [];
  for (const broken of status.brokenHooks ?? []) lines.push(`warning: ${brokenIntegrationText(broken)}`);
  const h = status.host;
  const last = h.lastHookError;
  if (last?.fix) lines.push(`warning: hooks cannot run: ${last.message}. To fix, ${last.fix}`);
  lines.push(
    `capture (${status.mode}): inbox ${h.inbox} · watch ${h.watch} · isolated ${h.isolated} · hook errors ${h.hookErrors}${h.lastHookError ? ` (last ${h.lastHookError.code} at ${h.lastHookError.at})` : ''}`,
  );
  // Hooks never print to the client (they must not fail its turn): the count alone would leave a
  // person with no way to learn what failed, so name the file that says it.
  if (h.hookErrors > 0 && hookErrorsFile !== undefined)
    lines.push(`  what each failure was, and how to replay a kept event: ${hookErrorsFile}`);
  if (h.notWritable !== null) lines.push(`DATA HOME NOT WRITABLE: ${h.notWritable}`);
  const q = status.queue;
  lines.push(
    `queue: inbox pending ${q.inboxPending}, processed ${q.inboxProcessed}, legacy ${q.inboxLegacy} · batches ready ${q.batchesReady} · prompt candidates pending ${q.candidatesPending}, delivered ${q.candidatesDelivered}, as context ${q.candidatesAsContext}, unconfirmed ${q.candidatesUnconfirmed}`,
  );
  lines.push(`capacity: ${status.capacity.bodyBytes} of ${status.capacity.totalBytes} bytes of bodies`);
  const i = status.imports;
  lines.push(
    `sessions: ${i.liveSessions} captured live · ${i.sessions} imported (${i.turns} turns)${i.quarantined > 0 ? ` · ${i.quarantined} imported file(s) quarantined` : ''}`,
  );
  lines.push(ledgerLine(status.ledger));
  lines.push('');
  lines.push(`sessions (${status.sessions.length} of ${status.sessionsTotal}, newest first)`);
  const moreSessions = status.nextSessionKey
    ? `  more: common-memory status --after-session ${status.nextSessionKey}`
    : null;
  if (status.sessions.length > 0) {
    lines.push(
      `  ${pad('client', 7)}${pad('session', 34)}${pad('state', 11)}${pad('settled', 8)}${pad('failed', 7)}${pad('interr.', 8)}${pad('buffered', 9)}${pad('incompl.', 9)}inbox`,
    );
    for (const s of status.sessions) {
      const t = s.turns;
      lines.push(
        `  ${pad(s.client, 7)}${pad(s.sessionKey, 34)}${pad(s.state, 11)}${pad(t.settled, 8)}${pad(t.failed, 7)}${pad(t.interrupted, 8)}${pad(t.buffered, 9)}${pad(t.incomplete, 9)}${s.inbox}`,
      );
    }
  }
  if (moreSessions) lines.push(moreSessions);
  lines.push('');
  const r = status.recovery;
  lines.push(`recovery items: ${r.total}${r.items.length > 0 ? ` (showing ${r.items.length})` : ''}`);
  for (const item of r.items)
    lines.push(
      `  ${pad(item.id, 12)}${pad(item.code, 30)}${pad(item.client, 7)}${item.sessionKey}  attempts ${item.attempts}`,
    );
  if (r.nextRecoveryId) lines.push(`  more: common-memory status --after-recovery ${r.nextRecoveryId}`);
  if (r.total > 0) lines.push('  retry one: common-memory session-drain --recover <id>');
  return lines.join('\n');
}
