// Blocks this thread for `ms` milliseconds without a timer: for code that must stay synchronous
// (a hook waiting on a full pipe, a drill holding a commit boundary).
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
