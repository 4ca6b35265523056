// What a person reads back when an operation ID (or a lookup's ID) is not one: the rule it breaks,
// and their input quoted and cut, never written raw to the terminal nor repeated at full length.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Application } from '../../source/api/application.js';
import { CmError } from '../../source/errors.js';
import { Host } from '../../source/host/host.js';
import { tempHome } from '../support/cli.js';

const LONG = 'a'.repeat(5000);
const ESCAPED = 'zzzz\u001b[2J\u0007';

async function refusal(call: Promise<unknown>): Promise<CmError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof CmError, String(error));
    return error;
  }
  assert.fail('the call was not refused');
}

function readable(error: CmError): void {
  assert.ok(
    error.message.length < 400,
    `a message of ${error.message.length} characters: ${error.message.slice(0, 200)}`,
  );
  assert.doesNotMatch(error.message, /[\u0000-\u001f\u007f]/, 'no terminal control reaches the message');
}

describe('operation IDs that are not valid, and lookups of IDs nothing has', () => {
  let host: Host;
  let app: Application;
  before(async () => {
    host = await Host.start({ home: tempHome('operation-id-messages'), serve: false });
    app = host.application;
    await app.createAgent({ name: 'quiet', operationId: 'op-create' });
  });
  after(async () => {
    await host.stop();
  });

  for (const [what, call] of [
    ['prompt', () => app.prompt({ agent: 'quiet', text: 'hi', operationId: LONG })],
    ['abort', () => app.abort({ agent: 'quiet', operationId: LONG })],
    ['agent create', () => app.createAgent({ name: 'other', operationId: LONG })],
    ['note', () => app.appendNote({ text: 'n', operationId: LONG })],
  ] as const) {
    it(`${what}: says the rule, bounded, before whether the agent runs`, async () => {
      const error = await refusal(call());
      assert.equal(error.code, 'invalid_input', error.message);
      assert.match(error.message, /1–128 letters, digits/);
      assert.match(error.message, /5000 characters/);
      readable(error);
    });
  }

  it('an escape in an operation ID is quoted, not sent to the terminal', async () => {
    const error = await refusal(app.prompt({ agent: 'quiet', text: 'hi', operationId: ESCAPED }));
    assert.equal(error.code, 'invalid_input', error.message);
    readable(error);
  });

  for (const typed of [LONG, ESCAPED]) {
    it(`operation and message lookups of ${typed.length} characters say not found, quoted and bounded`, async () => {
      for (const call of [() => app.operation({ operationId: typed }), () => app.message({ messageId: typed })]) {
        const error = await refusal(call());
        assert.equal(error.code, 'not_found', error.message);
        readable(error);
      }
    });
  }
});
