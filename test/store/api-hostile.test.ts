// The loopback API against a hostile client (issue 26, item 8), spoken to over a raw socket: a
// page on another origin that rebinds its DNS name to 127.0.0.1 reaches the port with its own Host
// header, so only loopback names with this port are served; and a refused request's body is not read.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';

interface RawAnswer {
  status: number;
  body: string;
  /** The server closed the connection (it did not wait for the rest of the body). */
  closed: boolean;
}

/** Sends `head` (and `body`) on a fresh connection; resolves at the answer, then waits up to `closeWithinMs` for the close. */
function raw(port: number, head: string, body: Buffer = Buffer.alloc(0), closeWithinMs = 1500): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let answered: { status: number; body: string } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (timer) clearTimeout(timer);
      socket.destroy();
      if (answered) resolve({ ...answered, closed });
      else reject(new Error(`no answer: ${text}`));
    };
    socket.on('error', () => {
      // a reset after the answer is a close too
    });
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0 || answered) return;
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (text.length < end + 4 + length) return;
      answered = { status: Number(text.slice(9, 12)), body: text.slice(end + 4, end + 4 + length) };
      timer = setTimeout(() => finish(false), closeWithinMs);
    });
    socket.on('close', () => finish(true));
    socket.write(head);
    if (body.length > 0) socket.write(body);
  });
}

describe('the loopback API and the Host header', () => {
  let host: Host;
  let port: number;
  let token: string;
  before(async () => {
    host = await Host.start({ home: tempHome('api-hostile'), serve: true });
    port = host.info.port!;
    token = host.info.token!;
  });
  after(async () => {
    await host.stop();
  });

  const get = (hostHeader: string | null, auth = token) =>
    raw(
      port,
      `GET /v1/agents HTTP/1.1\r\n${hostHeader === null ? '' : `Host: ${hostHeader}\r\n`}Authorization: Bearer ${auth}\r\nConnection: close\r\n\r\n`,
    );

  it('serves 127.0.0.1, localhost and [::1] with its own port', async () => {
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const answer = await get(name);
      assert.equal(answer.status, 200, `${name}: ${answer.body}`);
    }
  });

  it('refuses any other Host with 421 before routing and before the token is checked', async () => {
    for (const name of [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `localhost.evil.example:${port}`,
      `127.0.0.2:${port}`,
    ]) {
      const answer = await get(name);
      assert.equal(answer.status, 421, `${name}: ${answer.body}`);
      assert.match(answer.body, /Host/);
    }
    // The token is not even looked at: a wrong one gets the same refusal, not 401.
    assert.equal((await get(`rebound.example:${port}`, 'wrong')).status, 421);
    // A request with no Host at all (HTTP/1.0 style) is refused too.
    const noHost = await raw(port, `GET /v1/agents HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    assert.equal(noHost.status, 421);
  });

  it('after a 401 the connection is closed, not kept reading the rest of the body', async () => {
    const answer = await raw(
      port,
      `POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`,
      Buffer.from('{"text":"'),
    );
    assert.equal(answer.status, 401);
    assert.ok(answer.closed, 'the server closed the connection');
  });

  it('after a 413 the connection is closed, not kept reading the rest of the body', async () => {
    const answer = await raw(
      port,
      `POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`,
      Buffer.alloc(6 * 1024 * 1024, 0x61),
    );
    assert.equal(answer.status, 413);
    assert.ok(answer.closed, 'the server closed the connection');
  });
});
