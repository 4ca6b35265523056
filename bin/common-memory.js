#!/usr/bin/env node
// The shim. `hook` goes to the fast path before anything heavy is loaded: hosts start a hook
// process per event with deadlines of a second or two. Everything else goes to the CLI.
const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  const { runHook } = await import('../dist/hook/main.js');
  process.exitCode = runHook(argv.slice(1));
} else {
  // React's development build is several times slower; the shipped TUI runs the production one.
  process.env.NODE_ENV ??= 'production';
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(argv);
}
