// Timeline messages as text: text parts, tool calls summarised, thinking folded, errors in words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { messageText } from '../../source/message-text.js';
import { previewPayload } from '../../source/screens/format.js';

describe('message text', () => {
  test('parts become readable text; raw JSON never shows', () => {
    const answer = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm' },
        { type: 'text', text: 'Hello there' },
        { type: 'toolCall', name: 'bash', arguments: { command: 'ls' } },
      ],
      stopReason: 'toolUse',
    };
    assert.equal(messageText(answer), '[thinking folded]\nHello there\n[tool call bash({"command":"ls"})]');
    assert.equal(
      messageText({
        role: 'assistant',
        content: [],
        stopReason: 'error',
        errorMessage: 'No API key found for anthropic',
      }),
      '[error: No API key found for anthropic]',
    );
    assert.equal(
      messageText({ role: 'assistant', content: [{ type: 'text', text: 'Hel' }], stopReason: 'aborted' }),
      'Hel\n[aborted]',
    );
    assert.equal(messageText({ role: 'user', content: 'Say hello' }), 'Say hello');
    assert.match(
      messageText({ role: 'toolResult', toolName: 'bash', content: [{ type: 'text', text: 'a\nb' }] })!,
      /^\[tool result of bash\] a\nb/,
    );
    assert.equal(messageText({ text: 'a note' }), undefined);
    assert.equal(previewPayload(answer), '[thinking folded] Hello there [tool call bash({"command":"ls"})]');
  });
});
