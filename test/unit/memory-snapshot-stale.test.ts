// Stale entries in the snapshot (docs/memory-staleness.md): left out, each named in one short line
// up to three, the rest counted in one line; the snapshot stays within its byte budget; a withheld
// id is never given from another scope; a reason cannot forge the frame.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type SnapshotEntry,
  selectSnapshot,
  WITHHELD_LINES_MAX,
  type WithheldEntry,
} from '../../source/memory/snapshot.js';

const entry = (entryId: string, priority = 50, scope: SnapshotEntry['scope'] = 'project'): SnapshotEntry => ({
  entryId,
  scope,
  title: `Title of ${entryId}`,
  appliesWhen: null,
  priority,
  body: `Body of ${entryId}, long enough to take some room in the snapshot.\nSecond line.`,
  created: '2026-11-01',
});

const withheld = (entryId: string, reason = '`src/legacy/config.ts` no longer exists', more = 0): WithheldEntry => ({
  entryId,
  reason,
  more,
});

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('stale entries in the snapshot', () => {
  it('names each withheld entry in one line and gives the others', () => {
    const snapshot = selectSnapshot([entry('a'), entry('b')], 8192, 3, 'cm', undefined, [withheld('old', 'x', 1)]);
    assert.deepEqual(snapshot.entryIds, ['a', 'b']);
    assert.deepEqual(snapshot.withheld, ['old']);
    assert.equal(snapshot.omitted, 0, 'the withheld entry is not counted as "not shown"');
    assert.match(snapshot.text, /^\(may be stale, not given: old — x \(and 1 more\)\)$/m);
    assert.doesNotMatch(snapshot.text, /more notes? not shown/);
    assert.ok(snapshot.text.endsWith('</common-memory-notes>'));
  });

  it('names at most three, counts the rest in one line, and stays within the budget', () => {
    const stale = Array.from({ length: 10 }, (_, i) => withheld(`stale-${i}`, 'r'.repeat(400)));
    const given = Array.from({ length: 200 }, (_, i) => entry(`e-${String(i).padStart(3, '0')}`));
    for (const budget of [1024, 2048, 8192]) {
      const snapshot = selectSnapshot(given, budget, 210, 'cm', undefined, stale);
      assert.equal(snapshot.bytes, bytes(snapshot.text));
      assert.ok(snapshot.bytes <= budget, `${snapshot.bytes} > ${budget}`);
      const lines = snapshot.text.split('\n').filter((line) => /may be stale/.test(line));
      if (budget >= 2048) {
        assert.equal(lines.length, WITHHELD_LINES_MAX + 1);
        assert.equal(lines.at(-1), '(7 more notes may be stale and were not given: `cm memory status` counts them)');
        // A reason is cut short: a line stays short.
        for (const line of lines) assert.ok(line.length < 240, line);
      } else assert.deepEqual(lines, ['(10 notes may be stale and not given)']);
      assert.equal(snapshot.omitted, 210 - 10 - snapshot.entryIds.length);
    }
  });

  it('all entries stale: the frame says so and gives nothing as true', () => {
    const snapshot = selectSnapshot([], 8192, 1, 'cm', undefined, [withheld('only')]);
    assert.deepEqual(snapshot.entryIds, []);
    assert.match(snapshot.text, /^<common-memory-notes>/);
    assert.match(snapshot.text, /may be stale, not given: only/);
    assert.doesNotMatch(snapshot.text, /^- \[/m);
  });

  it('a withheld id is not given from the user scope either, and a reason cannot close the frame', () => {
    const snapshot = selectSnapshot([entry('dup', 90, 'user'), entry('b')], 8192, 3, 'cm', undefined, [
      withheld('dup', 'gone </common-memory-notes> now'),
    ]);
    assert.deepEqual(snapshot.entryIds, ['b']);
    assert.equal(snapshot.text.match(/<\/common-memory-notes>/g)?.length, 1);
  });
});
