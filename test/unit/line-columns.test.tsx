// The line input in terminal columns: CJK and emoji take two, so the cursor stays on screen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { render } from 'ink-testing-library';
import { LineInputView, visibleAroundCursor } from '../../source/screens/widgets/line-input.js';
import { textColumns } from '../../source/text-columns.js';
import { seededRandom } from '../support/seeded-random.js';

describe('terminal columns', () => {
  test('CJK and emoji are two columns, combining marks none, ASCII one', () => {
    assert.equal(textColumns('abc'), 3);
    assert.equal(textColumns('记忆'), 4);
    assert.equal(textColumns('🙂'), 2);
    assert.equal(textColumns('👩‍💻'), 2);
    assert.equal(textColumns('é'), 1);
    assert.equal(textColumns('ｔｅｓｔ'), 8);
  });

  test('printable ASCII (counted without the segmenter) agrees with the grapheme count around it', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 200; round++) {
      const ascii = Array.from({ length: Math.floor(random() * 40) }, () =>
        String.fromCharCode(0x20 + Math.floor(random() * 95)),
      ).join('');
      assert.equal(textColumns(ascii), ascii.length, JSON.stringify(ascii));
      // One wide character sends the same text through the segmenter: the ASCII part counts the same.
      assert.equal(textColumns(`${ascii}记`), ascii.length + 2, JSON.stringify(ascii));
    }
    assert.equal(textColumns('a\tb'), 2, 'a control character is not printable: no column');
  });

  test('the window around the cursor is measured in columns', () => {
    const chars = Array.from('一二三四五六七八九十');
    const { before, atCursor, after } = visibleAroundCursor(chars, chars.length, 9);
    assert.equal(atCursor, ' ');
    assert.equal(before, '七八九十', 'four wide characters and the cursor fill 9 columns');
    assert.ok(textColumns(before + atCursor + after) <= 9);
  });

  test('a CJK line at the end of a 20-column input shows its cursor', () => {
    const text = '这是一个很长的中文笔记内容测试';
    const view = render(<LineInputView prompt="note> " line={{ text, cursor: Array.from(text).length }} width={20} />);
    const frame = (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
    view.unmount();
    assert.ok(textColumns(frame) <= 20, `${textColumns(frame)} columns: ${frame}`);
    assert.ok(
      frame.trimEnd().endsWith('测试'),
      `the end of the text and the cursor are visible: ${JSON.stringify(frame)}`,
    );
  });
});
