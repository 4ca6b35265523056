// The screens' request hooks: an answer for a key that is no longer current, or after unmount,
// never reaches the screen; a loop waits for each round to end before the next.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act, useState } from 'react';
import { useRequest, useRequestLoop } from '../../source/screens/widgets/use-request.js';

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

type Pending = Map<string, ReturnType<typeof deferred<string>>>;

/** Shows the last answer of a request per `id`; records every answer and failure it is handed. */
function RequestProbe({ id, pending, seen }: { id: string | null; pending: Pending; seen: string[] }) {
  const [shown, setShown] = useState('none');
  useRequest(
    id,
    (key) => {
      const answer = deferred<string>();
      pending.set(key, answer);
      return answer.promise;
    },
    {
      answered: (value, key) => {
        seen.push(`${key}=${value}`);
        setShown(value);
      },
      failed: (error, key) => seen.push(`${key}!${error.code}`),
    },
  );
  return <Text>{shown}</Text>;
}

/** Rounds of 15 ms, 1 ms apart, counting how many run at once. */
function LoopProbe({ counts }: { counts: { inFlight: number; most: number; rounds: number } }) {
  useRequestLoop(
    () => ({
      run: async () => {
        counts.inFlight += 1;
        counts.most = Math.max(counts.most, counts.inFlight);
        await new Promise((resolve) => setTimeout(resolve, 15));
        counts.inFlight -= 1;
        counts.rounds += 1;
        return counts.rounds;
      },
      answered: () => 1,
      failed: () => 1,
    }),
    [],
  );
  return <Text>loop</Text>;
}

const flush = () => act(async () => new Promise((resolve) => setTimeout(resolve, 5)));

describe('useRequest', () => {
  test('drops the answer of a superseded key and of an unmounted screen; reports failures', async () => {
    const pending: Pending = new Map();
    const seen: string[] = [];
    let view!: ReturnType<typeof render>;
    await act(async () => {
      view = render(<RequestProbe id="a" pending={pending} seen={seen} />);
    });
    await act(async () => view.rerender(<RequestProbe id="b" pending={pending} seen={seen} />));
    pending.get('b')!.resolve('B');
    await flush();
    pending.get('a')!.resolve('A'); // late: "a" was superseded
    await flush();
    assert.deepEqual(seen, ['b=B']);
    assert.equal(view.lastFrame(), 'B');
    await act(async () => view.rerender(<RequestProbe id={null} pending={pending} seen={seen} />));
    assert.equal(pending.size, 2, 'no request without a key');
    await act(async () => view.rerender(<RequestProbe id="c" pending={pending} seen={seen} />));
    pending.get('c')!.reject(new Error('boom'));
    await flush();
    assert.deepEqual(seen, ['b=B', 'c!internal']);
    await act(async () => view.rerender(<RequestProbe id="d" pending={pending} seen={seen} />));
    await act(async () => view.unmount());
    pending.get('d')!.resolve('D');
    await flush();
    assert.deepEqual(seen, ['b=B', 'c!internal'], 'nothing after unmount');
  });
});

describe('useRequestLoop', () => {
  test('starts a round only after the previous one ended, with the delay it returned; stops on unmount', async () => {
    const counts = { inFlight: 0, most: 0, rounds: 0 };
    let view!: ReturnType<typeof render>;
    await act(async () => {
      view = render(<LoopProbe counts={counts} />);
    });
    const deadline = Date.now() + 5000;
    while (counts.rounds < 3) {
      assert.ok(Date.now() < deadline, 'three rounds within 5 s');
      await flush();
    }
    await act(async () => view.unmount());
    const after = counts.rounds;
    await act(async () => new Promise((resolve) => setTimeout(resolve, 60)));
    assert.equal(counts.most, 1, 'never two rounds at once');
    assert.ok(counts.rounds <= after + 1, 'at most the round in flight finishes after unmount');
  });
});
