// The TUI's key line within the terminal's width (source/screens/shell/help-line.tsx): all of it
// where it fits; else the arrows give way first (the marked row of a list shows them), then the last
// keys to `…`, never a key that decides nor the quit key at the end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyLine } from '../../source/screens/shell/help-line.js';
import { textColumns } from '../../source/text-columns.js';

const quit = [{ keys: 'q', label: 'quit' }];
const integrations = [
  { keys: '↑↓', label: 'choose' },
  { keys: 'i/Enter', label: 'install' },
  { keys: 'u', label: 'uninstall' },
  { keys: 'm', label: 'import' },
  { keys: 'r', label: 'refresh' },
];

describe('the key line', () => {
  it('is whole where it fits', () => {
    assert.equal(
      keyLine(integrations, quit, 80),
      '↑↓ choose · i/Enter install · u uninstall · m import · r refresh · q quit',
    );
  });

  it("lets the list's own keys give way before any key of the screen: the arrows, Enter beside a letter", () => {
    assert.equal(
      keyLine(integrations, quit, 73),
      '↑↓ choose · i/Enter install · u uninstall · m import · r refresh · q quit',
    );
    assert.equal(keyLine(integrations, quit, 60), 'i install · u uninstall · m import · r refresh · q quit');
    // Enter alone is the only key for its use: it stays.
    const open = [
      { keys: 'Enter', label: 'open' },
      { keys: 'x', label: 'a long thing here' },
    ];
    assert.equal(keyLine(open, quit, 30), 'Enter open · … · q quit');
  });

  it('then lets the last keys give way to …, keeping what decides and quit', () => {
    const items = [
      { keys: 'PgDn/PgUp', label: 'scroll' },
      { keys: '↑↓', label: 'line' },
      { keys: 'a', label: 'approve & write', decides: true },
      { keys: 'Esc', label: 'drop plan', decides: true },
    ];
    assert.equal(keyLine(items, quit, 60), 'a approve & write · Esc drop plan · … · q quit');
    assert.equal(keyLine(integrations, quit, 40), 'i install · u uninstall · … · q quit');
  });

  it('never exceeds the width it is given, from 20 to 90 columns', () => {
    for (let columns = 20; columns <= 90; columns++) {
      const line = keyLine(integrations, quit, columns);
      assert.ok(textColumns(line) <= Math.max(columns, textColumns('… · q quit')), `${columns}: ${line}`);
      assert.match(line, /q quit$/);
    }
  });
});
