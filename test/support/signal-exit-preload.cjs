// Preloaded into a CLI process (NODE_OPTIONS=--require): once the process listens for SIGTERM
// itself, registers a signal-exit handler, as execa does when the process later spawns a child
// through it. signal-exit re-raises a signal when it sees no listener but its own, which a
// process that listened with `once` no longer has by then.
const { onExit } = require(require.resolve('signal-exit', { paths: [__dirname] }));
const poll = setInterval(() => {
  if (process.listenerCount('SIGTERM') === 0) return;
  clearInterval(poll);
  onExit(() => {});
}, 20);
poll.unref();
