// The two shapes every screen's requests take, written once: a request per key (a page read, a
// command in flight) and a request repeated while mounted (a refresh, a follow). Both drop an
// answer that arrives after the screen unmounted or moved on, and turn every rejection into an
// on-screen error — so no screen keeps its own "cancelled" flag.
import { type DependencyList, useEffect, useRef } from 'react';
import { type ShownError, toShownError } from '../format.js';

export interface Settle<K, T> {
  answered(value: T, key: K): void;
  /** Absent: a failure is silent (a read ahead, whose real read will report it). */
  failed?(error: ShownError, key: K): void;
}

/**
 * Starts `run(key)` whenever `key` becomes a new value other than null or undefined. Its answer
 * reaches `settle` only while that key is still current and the screen still mounted. `run` and
 * `settle` are read at call time, so they may be new functions on every render.
 */
export function useRequest<K, T>(key: K | null | undefined, run: (key: K) => Promise<T>, settle: Settle<K, T>): void {
  const latest = useRef({ run, settle });
  latest.current = { run, settle };
  useEffect(() => {
    if (key === null || key === undefined) return;
    let current = true;
    latest.current.run(key).then(
      (value) => current && latest.current.settle.answered(value, key),
      (error: unknown) => current && latest.current.settle.failed?.(toShownError(error), key),
    );
    return () => {
      current = false;
    };
  }, [key]);
}

/** One round of a repeated request; answered and failed return the delay before the next round. */
export interface Rounds<T> {
  run(): Promise<T>;
  answered(value: T): number;
  failed(error: ShownError): number;
}

/**
 * Repeats a request while mounted: each round starts the returned delay after the previous one
 * ended, so a slow host is never asked twice at once. `begin` runs again (and the rounds start over)
 * whenever `deps` change; it may keep a cursor in its closure, or return undefined for no rounds.
 */
export function useRequestLoop<T>(begin: () => Rounds<T> | undefined, deps: DependencyList): void {
  const latest = useRef(begin);
  latest.current = begin;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when the rounds start over.
  useEffect(() => {
    const rounds = latest.current();
    if (!rounds) return;
    let current = true;
    let timer: NodeJS.Timeout | undefined;
    const round = async () => {
      let delay: number;
      try {
        const value = await rounds.run();
        if (!current) return;
        delay = rounds.answered(value);
      } catch (error) {
        if (!current) return;
        delay = rounds.failed(toShownError(error));
      }
      if (current) timer = setTimeout(() => void round(), delay);
    };
    void round();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, deps);
}
