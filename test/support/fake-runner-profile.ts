// The `command` runner profile the tests use: the fake runner (fake-command-runner.mjs, a real
// child process) in one of its modes, recording what it received in `record`. A plain object, as
// runners.json holds it; commandProfile.parse() makes it the checked profile.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKE_RUNNER = new URL('./fake-command-runner.mjs', import.meta.url).pathname;

export function fakeRunnerProfile(mode: string, record: string, extra: Record<string, unknown> = {}) {
  return {
    name: 'ext',
    kind: 'command' as const,
    argv: [process.execPath, FAKE_RUNNER, mode, record],
    provider: 'test-provider',
    model: 'fake-model',
    endpoint: 'http://127.0.0.1:9/v1',
    ...extra,
  };
}

/** What the fake runner received, in order (none yet: empty): each run's stdin bytes and text. */
export const receivedBy = (record: string): Array<{ bytes: number; text: string }> =>
  existsSync(join(record, 'received.jsonl'))
    ? readFileSync(join(record, 'received.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { bytes: number; text: string })
    : [];
