// The Dashboard's line for the background service: installed or not, running or not, and the one
// command to run when it is missing. Read after the first frame (the frame never waits for
// systemctl), through an injected probe: no service manager is asked here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serviceLine } from '../../source/screens/dashboard/service-line.js';
import type { ServiceProbe } from '../../source/screens/shell/shell-context.js';
import type { ServiceStatus } from '../../source/service/service-manager.js';
import { textColumns } from '../../source/text-columns.js';
import { absentDirs, fakeApp, hostStatus } from '../support/tui-fakes.js';
import { act, mount, unmount, waitForText } from '../support/tui-harness.js';

const { home: HOME, dirs: DIRS } = absentDirs('cm-dashboard-service');
const status = hostStatus({ waiting: { events: 3, turns: 1 } });
const app = fakeApp({ status: async () => status });

function service(changes: Partial<ServiceStatus>): ServiceStatus {
  return {
    kind: 'systemd',
    name: 'common-memory-host',
    path: '/home/someone/.config/systemd/user/common-memory-host.service',
    logPath: '/home/someone/.common-memory/service.log',
    file: 'ours',
    installed: true,
    enabled: true,
    running: true,
    state: 'active',
    problem: null,
    ...changes,
  };
}

const ABSENT = service({ file: 'absent', installed: false, enabled: false, running: false, state: 'not installed' });

/** The Dashboard's label column is 11 wide: at 80 columns a line has 69 for its text. */
const TEXT_COLUMNS = 80 - 11;

describe('the service line', () => {
  test('says installed or not, running or not, and the command when something is missing; each fits 69 columns', () => {
    const cases: Array<[ServiceStatus | null | undefined | Error, RegExp]> = [
      [undefined, /^…$/],
      [null, /^none on this platform · keep a host running: common-memory host$/],
      [ABSENT, /^not installed · keep a host running: common-memory service install$/],
      [service({}), /^installed · running · starts at login$/],
      [service({ enabled: false }), /^running, not started at login: common-memory service install$/],
      [
        service({ running: false, state: 'failed' }),
        /^installed, not running \(failed\): common-memory service install$/,
      ],
      [service({ running: false, state: 'deactivating' }), /not running \(deactivating\)/],
      [
        service({ running: null, enabled: null, state: 'unknown', problem: 'no bus' }),
        /state unknown: common-memory service status/,
      ],
      [service({ file: 'foreign', installed: false }), /another file .*common-memory service status/],
      [new Error('systemctl timed out'), /^not read: systemctl timed out$/],
    ];
    for (const [status, expected] of cases) {
      const { text } = serviceLine(status);
      assert.match(text, expected);
      assert.ok(textColumns(text) <= TEXT_COLUMNS, `wider than ${TEXT_COLUMNS} columns: ${text}`);
    }
    assert.equal(serviceLine(service({})).tone, 'ok');
    assert.equal(serviceLine(service({ running: false, state: 'failed' })).tone, 'error');
  });
});

describe('the Dashboard and the service', () => {
  test('the first frame does not wait for the probe; its answer fills the line; the probe is asked for this home', async () => {
    const asked: string[] = [];
    let answer!: (status: ServiceStatus | null) => void;
    const probe: ServiceProbe = (home) => {
      asked.push(home);
      return new Promise((resolve) => {
        answer = resolve;
      });
    };
    const view = await mount(app, HOME, { service: probe, integrations: DIRS });
    try {
      const first = await waitForText(view, /Heads +journal 12 · timeline 7/);
      assert.match(first, /^Service +…\s*$/m, 'the frame is drawn while the probe has not answered');
      assert.deepEqual(asked, [HOME]);
      answer(ABSENT);
      const frame = await waitForText(
        view,
        /^Service +not installed · keep a host running: common-memory service install/m,
      );
      // The line costs no row: the two heads share one, so the Dashboard is as tall as before.
      const lines = frame.split('\n');
      const top = lines.findIndex((line) => line.trim() === 'Dashboard');
      const bottom = lines.findIndex((line) => line.includes('refreshed'));
      assert.deepEqual(
        lines.slice(top, bottom + 1).map((line) => line.trim().split(/\s+/)[0]),
        ['Dashboard', 'Store', 'Home', 'Host', 'Service', 'Started', '', 'Heads', 'Ledger', 'Waiting', '', 'refreshed'],
      );
    } finally {
      await unmount(view);
    }
  });

  test('a running service, and a probe that fails, are said in one line', async () => {
    const running = await mount(app, HOME, { service: async () => service({}), integrations: DIRS });
    try {
      await waitForText(running, /^Service +installed · running · starts at login\s*$/m);
    } finally {
      await unmount(running);
    }
    const failing = await mount(app, HOME, {
      service: async () => {
        throw new Error('launchctl hung');
      },
      integrations: DIRS,
    });
    try {
      await waitForText(failing, /^Service +not read: .*launchctl hung/m);
    } finally {
      await unmount(failing);
    }
  });

  test('at 60×15 no line is drawn over another: the rows that do not fit are given up at the bottom', async () => {
    const view = await mount(app, HOME, { service: async () => ABSENT, integrations: DIRS });
    try {
      await act(async () => {
        Object.defineProperty(view.stdout, 'columns', { value: 60, configurable: true });
        Object.defineProperty(view.stdout, 'rows', { value: 15, configurable: true });
        (view.stdout as unknown as NodeJS.EventEmitter).emit('resize');
      });
      const frame = await waitForText(view, /^Service +not installed · keep a host running/m);
      const lines = frame.split('\n');
      assert.ok(lines.length <= 15, `${lines.length} rows:\n${frame}`);
      // Each field on a row of its own, its text whole or cut with an ellipsis, never another's tail.
      assert.deepEqual(
        lines.map((line) => line.split(/\s+/)[0]).filter((label) => /^(Store|Home|Host|Service|Started)$/.test(label!)),
        ['Store', 'Home', 'Host', 'Service', 'Started'],
      );
      assert.match(frame, /^Started +2026-12-02T10:00:00\.000Z\s*$/m);
      assert.match(frame, /^Heads +journal 12 · timeline 7\s*$/m);
      for (const line of lines) assert.ok(textColumns(line) <= 60, `wider than 60: ${line}`);
    } finally {
      await unmount(view);
    }
  });
});
