// `host`: the headless host. Runs until SIGINT or SIGTERM, then shuts down in order.
import { CmError } from '../../errors.js';
import type { Output } from '../output.js';

export async function runHostCommand(home: string, portFlag: string | undefined, out: Output): Promise<number> {
  let port = 0;
  if (portFlag !== undefined) {
    port = Number(portFlag);
    if (!/^\d{1,5}$/.test(portFlag) || port > 65535)
      throw new CmError('usage', `--port must be a port number (0–65535), not ${JSON.stringify(portFlag)}.`);
  }
  // Listening before anything is said: whoever reads the ready line may signal at once, and a
  // signal that came before the listener would stop the host by its default action, not in order.
  // A signal during the start (at most a 3 s wait for a one-shot command's lease) stops it once started.
  // `on`, not `once`: execa's signal-exit (registered when the host first spawns a child through
  // it) re-raises a signal once it sees no listener but its own, which killed the host in the
  // middle of stopping (exit by SIGTERM instead of 0). A second signal while stopping does nothing.
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());
  const { Host } = await import('../../host/host.js');
  const host = await Host.start({ home, serve: true, port });
  const { hostId, storeId, pid } = host.info;
  out.result(
    { hostId, storeId, pid, port: host.info.port, home },
    () =>
      `common-memory host ${hostId} serving store ${storeId} on 127.0.0.1:${host.info.port} (data home ${home}). Ctrl+C stops it.`,
  );
  await stopped;
  await host.stop();
  return 0;
}
