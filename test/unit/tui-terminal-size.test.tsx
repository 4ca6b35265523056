// useTerminalSize follows resizes through one listener on the terminal, however many components
// ask for the size: with a listener each, a screen of a dozen such components passed Node's limit
// of ten listeners an event, and Node printed its MaxListenersExceededWarning to stderr — over the
// full-screen TUI, in a real terminal.
import assert from 'node:assert/strict';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, it } from 'node:test';
import { useTerminalSize } from '../../source/screens/terminal-size.js';
import { waitForFrame } from '../support/tui-harness.js';

function Size({ name }: { name: string }) {
  const { columns, rows } = useTerminalSize();
  return (
    <Text>
      {name} {columns}x{rows}
    </Text>
  );
}

const COUNT = 15;

function Many({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => `s${i}`).map((name) => (
        <Size key={name} name={name} />
      ))}
    </>
  );
}

type Terminal = NodeJS.EventEmitter & { columns: number; rows: number };

/** The resize listeners on the terminal with `count` components drawn (Ink's own included). */
async function listenersWith(count: number): Promise<number> {
  const view = render(<Many count={count} />);
  await waitForFrame(view, 'every size drawn', (frame) => frame.includes(`s${count - 1} 100x`));
  const listeners = (view.stdout as unknown as Terminal).listenerCount('resize');
  view.unmount();
  return listeners;
}

describe('useTerminalSize', () => {
  it('listens to the terminal once for any number of components', async () => {
    assert.equal(await listenersWith(COUNT), await listenersWith(1));
  });

  it('each component follows a resize; nothing is left listening once unmounted; no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const view = render(<Many count={COUNT} />);
      const stdout = view.stdout as unknown as Terminal;
      await waitForFrame(view, 'every size drawn', (frame) => frame.includes(`s${COUNT - 1} 100x`));
      Object.defineProperty(stdout, 'columns', { value: 61, configurable: true });
      Object.defineProperty(stdout, 'rows', { value: 17, configurable: true });
      stdout.emit('resize');
      await waitForFrame(view, 'every size at 61x17', (frame) => frame.split('61x17').length - 1 === COUNT);
      view.unmount();
      assert.equal(stdout.listenerCount('resize'), 0, 'no listener left once unmounted');
      await new Promise((resolve) => setImmediate(resolve));
      const leaks = warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning');
      assert.deepEqual(
        leaks.map((warning) => warning.message),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});
