// The `command` runner profile the tests use: the fake runner (fake-command-runner.mjs, a real
// child process) in one of its modes, recording what it received in `record`. A plain object, as
// runners.json holds it; commandProfile.parse() makes it the checked profile.
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
