// The screens' request hooks: an answer for a key that is no longer current, or after unmount,
// never reaches the screen; a loop waits for each round to end before the next.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act, useState } from 'react';
import { useRequest, useRequestLoop } from '../source/screens/widgets/use-request.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

const flush = () => act(async () => new Promise((resolve) => setTimeout(resolve, 5)));

describe('useRequest', () => {
  test('drops the answer of a superseded key and of an unmounted screen; reports failures', async () => {
    const pending = new Map<string, ReturnType<typeof deferred<string>>>();
    const seen: string[] = [];
    function Probe({ id }: { id: string | null }) {
      const [shown, setShown] = useState('none');
      useRequest(id, (key) => {
        const answer = deferred<string>();
        pending.set(key, answer);
        return answer.promise;
      }, {
        answered: (value, key) => {
          seen.push(`${key}=${value}`);
          setShown(value);
        },
        failed: (error, key) => seen.push(`${key}!${error.code}`),
      });
      return <Text>{shown}</Text>;
    }
    let view!: ReturnType<typeof render>;
    await act(async () => {
      view = render(<Probe id="a" />);
    });
    await act(async () => view.rerender(<Probe id="b" />));
    pending.get('b')!.resolve('B');
    await flush();
    pending.get('a')!.resolve('A'); // late: "a" was superseded
    await flush();
    assert.deepEqual(seen, ['b=B']);
    assert.equal(view.lastFrame(), 'B');
    await act(async () => view.rerender(<Probe id={null} />));
    assert.equal(pending.size, 2, 'no request without a key');
    await act(async () => view.rerender(<Probe id="c" />));
    pending.get('c')!.reject(new Error('boom'));
    await flush();
    assert.deepEqual(seen, ['b=B', 'c!internal']);
    await act(async () => view.rerender(<Probe id="d" />));
    await act(async () => view.unmount());
    pending.get('d')!.resolve('D');
    await flush();
    assert.deepEqual(seen, ['b=B', 'c!internal'], 'nothing after unmount');
  });
});

describe('useRequestLoop', () => {
  test('starts a round only after the previous one ended, with the delay it returned; stops on unmount', async () => {
    let inFlight = 0;
    let most = 0;
    let rounds = 0;
    function Loop() {
      useRequestLoop(
        () => ({
          run: async () => {
            inFlight += 1;
            most = Math.max(most, inFlight);
            await new Promise((resolve) => setTimeout(resolve, 15));
            inFlight -= 1;
            return (rounds += 1);
          },
          answered: () => 1,
          failed: () => 1,
        }),
        [],
      );
      return <Text>loop</Text>;
    }
    let view!: ReturnType<typeof render>;
    await act(async () => {
      view = render(<Loop />);
    });
    const deadline = Date.now() + 5000;
    while (rounds < 3) {
      assert.ok(Date.now() < deadline, 'three rounds within 5 s');
      await flush();
    }
    await act(async () => view.unmount());
    const after = rounds;
    await act(async () => new Promise((resolve) => setTimeout(resolve, 60)));
    assert.equal(most, 1, 'never two rounds at once');
    assert.ok(rounds <= after + 1, 'at most the round in flight finishes after unmount');
  });
});
