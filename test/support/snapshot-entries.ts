// Snapshot entries for the selection's tests: 300 plain notes of one scope, newer as the index grows
// within each minute, each rendering to a few short lines.
import type { SnapshotEntry } from '../../source/memory/snapshot.js';

export const snapshotEntry = (i: number): SnapshotEntry => ({
  entryId: `m-${String(i).padStart(3, '0')}`,
  scope: 'project',
  title: `Note ${i} about the build`,
  appliesWhen: null,
  priority: 50,
  body: `What note ${i} says, on a line long enough to be a real note.\nA second line.\n`,
  created: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
});

export const snapshotEntries: SnapshotEntry[] = Array.from({ length: 300 }, (_, i) => snapshotEntry(i));
