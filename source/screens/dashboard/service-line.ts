// The Dashboard's line for the background service (`service install`): installed or not, running or
// not, and the one command to run when something is missing. One line at 80×24, where it shares the
// screen with the heads and a broken-hooks warning: each text fits the 69 columns after the label
// (narrower, it wraps with its command whole).
import type { ServiceStatus } from '../../service/service-manager.js';

export const INSTALL_SERVICE = 'common-memory service install';
const SERVICE_STATUS = 'common-memory service status';
const RUN_HOST = 'common-memory host';

/** The commands the line names, each kept whole where the line wraps. */
export const SERVICE_COMMANDS = [INSTALL_SERVICE, SERVICE_STATUS, RUN_HOST] as const;

export interface ServiceLine {
  text: string;
  tone: 'text' | 'muted' | 'ok' | 'error';
}

/** undefined: not read yet; null: no service manager on this platform; an Error: the read failed. */
export function serviceLine(status: ServiceStatus | null | undefined | Error): ServiceLine {
  if (status === undefined) return { text: '…', tone: 'muted' };
  if (status instanceof Error) return { text: `not read: ${status.message}`, tone: 'error' };
  if (status === null) return { text: `none on this platform · keep a host running: ${RUN_HOST}`, tone: 'muted' };
  if (status.file === 'absent')
    return { text: `not installed · keep a host running: ${INSTALL_SERVICE}`, tone: 'text' };
  if (status.file === 'foreign')
    return { text: `another file is where the service goes: ${SERVICE_STATUS}`, tone: 'error' };
  if (status.problem || status.running === null)
    return { text: `installed · state unknown: ${SERVICE_STATUS} says why`, tone: 'error' };
  if (!status.running) return { text: `installed, not running (${status.state}): ${INSTALL_SERVICE}`, tone: 'error' };
  return {
    text:
      status.enabled === false
        ? `running, not started at login: ${INSTALL_SERVICE}`
        : 'installed · running · starts at login',
    tone: 'ok',
  };
}
