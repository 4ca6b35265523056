// The Integrations screen's import report (`m`, then `y`) says what the drafting pass after the
// import made as `import --yes` says it: the quarantined candidates too, so a candidate held back
// for a secret or an instruction to the model is never reported as none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportReport } from '../../source/api/capture.js';
import { extractionLines } from '../../source/cli/commands/capture.js';
import {
  initialIntegrationsState,
  integrationsReducer,
} from '../../source/screens/integrations/use-integrations-state.js';
import { importReport } from '../support/tui-fakes.js';

const REPORT: ImportReport = importReport();

function reported(report: ImportReport): string[] {
  const importing = {
    ...initialIntegrationsState,
    request: { id: 1, kind: 'importApply' as const, client: 'claude' as const, root: report.root },
    lastRequestId: 1,
  };
  return integrationsReducer(importing, { type: 'imported', id: 1, report }).panel?.lines ?? [];
}

describe('Integrations: the import report', () => {
  it('counts the quarantined candidates in the words of import --yes', () => {
    const lines = reported(REPORT);
    const cli = extractionLines(REPORT.extraction!)[0]!;
    assert.match(cli, /candidates: 1 new, 0 updated, 0 merged, 2 quarantined$/);
    assert.ok(
      lines.some((line) => line.endsWith('candidates: 1 new, 0 updated, 0 merged, 2 quarantined')),
      lines.join('\n'),
    );
  });

  it('with only quarantined candidates, still points to the Memory screen to review them', () => {
    const extraction = { ...REPORT.extraction!, candidates: { created: 0, updated: 0, merged: 0, quarantined: 1 } };
    const lines = reported({ ...REPORT, extraction });
    assert.ok(
      lines.some((line) => line.endsWith('candidates: 0 new, 0 updated, 0 merged, 1 quarantined')),
      lines.join('\n'),
    );
    assert.ok(lines.includes('Review them on the Memory screen (7).'), lines.join('\n'));
  });
});
