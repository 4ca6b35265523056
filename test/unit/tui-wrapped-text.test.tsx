// Paragraphs the screens wrap (an empty list's advice, an error while typing) break between words
// at any width, with no line starting with the space it broke at: Ink's own wrap kept that space
// (" scope. Candidates come from…" on Memory · Review at 60 columns).
import assert from 'node:assert/strict';
import { render } from 'ink-testing-library';
import { describe, it } from 'node:test';
import { WrappedText } from '../../source/screens/widgets/wrapped-text.js';
import { textColumns } from '../../source/text-columns.js';
import { wrapText } from '../../source/text-wrap.js';
import { absentDirs, fakeApp, hostStatus, reviewQueue } from '../support/tui-fakes.js';
import { mount, press, resizeTo, unmount, waitForFrame, waitForText } from '../support/tui-harness.js';

const ADVICE =
  "Nothing to review: no draft or quarantined candidates in any scope. Candidates come from extraction (] Extraction shows it; common-memory memory extract runs it) and from agents' memory_propose; consolidation patches from c on Entries.";

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('wrapped paragraphs', () => {
  it('break between words at every width from 10 to 100 columns, no line starting with a space', () => {
    for (let columns = 10; columns <= 100; columns++) {
      const lines = wrapText(ADVICE, columns);
      for (const line of lines) {
        assert.doesNotMatch(line, /^\s|\s$/, `${columns} columns: ${JSON.stringify(line)}`);
        assert.ok(textColumns(line) <= columns || !line.includes(' '), `${columns} columns: over the width: ${line}`);
      }
      assert.deepEqual(words(lines.join('\n')), words(ADVICE), `${columns} columns: every word, in order`);
    }
  });

  it('are drawn as wrapped, one line each', async () => {
    const view = render(<WrappedText>{ADVICE}</WrappedText>);
    try {
      const frame = await waitForFrame(view, 'the advice', (text) => text.includes('c on Entries.'));
      assert.equal(frame, wrapText(ADVICE, 100).join('\n'));
    } finally {
      view.unmount();
    }
  });

  it('Memory · Review with an empty queue at 60 columns: its advice has no line starting with a space', async () => {
    const { home, dirs } = absentDirs('cm-wrapped-review');
    const view = await mount(
      fakeApp({ status: async () => hostStatus(), memoryReview: async () => reviewQueue([]) }),
      home,
      { service: async () => null, integrations: dirs },
    );
    try {
      await resizeTo(view, 60, 20);
      await press(view, '7');
      const frame = await waitForText(view, /Nothing to review/);
      const advice = frame
        .split('\n')
        .slice(frame.split('\n').findIndex((line) => line.startsWith('Nothing to review')));
      for (const line of advice.slice(0, 4)) assert.doesNotMatch(line, /^ \S/, JSON.stringify(line));
    } finally {
      await unmount(view);
    }
  });
});
