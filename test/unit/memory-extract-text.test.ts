// The text `memory extract` prints for a person: the review step it names is the text one, and a
// quarantine (and exit 11) is not called a secret when a planted instruction caused it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryExtractReport } from '../../source/api/memory-runs.js';
import { extractText } from '../../source/cli/commands/memory-extract.js';
import { globalHelp } from '../../source/cli/help.js';

const report = (created: number, quarantined: number): MemoryExtractReport => ({
  runIds: ['run-1'],
  window: { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' },
  turns: 2,
  chunks: 1,
  tasks: { planned: 1, created: 1, submitted: 1, failed: 0, pending: 0, waitingForRetry: 0, stale: 0 },
  candidates: { created, skipped: 0, updated: 0, merged: 0, stored: created - quarantined, quarantined },
  failures: [],
});

describe('memory extract text', () => {
  it('points a person at the text review, not its JSON', () => {
    const text = extractText(report(2, 0));
    assert.match(text, /^review them: common-memory memory review$/m);
    assert.doesNotMatch(text, /--json/);
  });

  it('says a quarantine is a secret or an instruction to the model, as the lint finds either', () => {
    const text = extractText(report(2, 1));
    assert.match(text, /1 quarantined \(a secret or an instruction to the model found\)/);
    assert.doesNotMatch(text, /\(secret found\)/);
  });
});

describe('exit 11 in the help', () => {
  it('names a poisoning beside a secret, as docs/exit-codes.md does', () => {
    const help = globalHelp('common-memory', 80);
    assert.match(help, /11 +blocking secret or poisoning found/);
  });
});
