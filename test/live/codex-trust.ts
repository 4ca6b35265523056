// Persistent Codex hook trust (HOSTS.md 1.4): `codex app-server` computes each hook's
// currentHash (sha256 over event, matcher, command, timeout, async, statusMessage in a
// form Codex does not document), so we ask it instead of re-implementing the hash.
import { spawn } from 'node:child_process';

export interface ListedCodexHook {
  readonly key: string;
  readonly eventName: string;
  readonly command: string;
  readonly currentHash: string;
  readonly trustStatus: string;
}

const APP_SERVER_TIMEOUT_MS = 30_000;

/** JSON-RPC over stdio: initialize, initialized, hooks/list; then close stdin so it exits. */
export function listCodexHooks(
  codexLauncher: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): Promise<ListedCodexHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [codexLauncher, 'app-server'], {
      cwd,
      env: { ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const pid = child.pid;
    let settled = false;
    let buffer = '';
    let stderr = '';
    const finish = (error: Error | null, hooks?: ListedCodexHook[]): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      // It exits on stdin EOF; the group kill is for a child that does not.
      setTimeout(() => {
        if (pid !== undefined && child.exitCode === null) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }, 3_000).unref();
      if (error) reject(error);
      else resolve(hooks ?? []);
    };
    const timer = setTimeout(
      () =>
        finish(
          new Error(`codex app-server gave no hooks/list answer within ${APP_SERVER_TIMEOUT_MS} ms; stderr: ${stderr}`),
        ),
      APP_SERVER_TIMEOUT_MS,
    );
    child.once('error', (e) => finish(e));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let message: { id?: unknown; result?: unknown; error?: unknown };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          continue;
        }
        if (message.id !== 2) continue;
        if (message.error !== undefined)
          return finish(new Error(`hooks/list failed: ${JSON.stringify(message.error)}`));
        return finish(null, hooksFromResult(message.result));
      }
    });
    const send = (message: Record<string, unknown>): void => {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    };
    send({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'common-memory-live-tests', version: '0.0.0' } },
    });
    send({ method: 'initialized' });
    send({ id: 2, method: 'hooks/list', params: {} });
  });
}

function hooksFromResult(result: unknown): ListedCodexHook[] {
  const data = (result as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry: unknown) => {
    const hooks = (entry as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(hooks) ? (hooks as ListedCodexHook[]) : [];
  });
}

/** `[hooks.state."<key>"] trusted_hash = …` tables; JSON string syntax is valid TOML basic-string syntax here. */
export function trustedHashToml(hooks: readonly ListedCodexHook[]): string {
  return hooks
    .map((h) => `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`)
    .join('');
}
