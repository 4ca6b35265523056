// Preloaded into a CLI process (NODE_OPTIONS=--require): at the process's first write to stdout,
// says on stderr how many SIGTERM listeners it has. A host that prints its ready line before it
// listens can be stopped by SIGTERM's default action by whoever acts on that line at once.
const write = process.stdout.write;
let told = false;
process.stdout.write = function (...args) {
  if (!told) {
    told = true;
    process.stderr.write(`sigterm-listeners-at-first-output=${process.listenerCount('SIGTERM')}\n`);
  }
  return write.apply(this, args);
};
