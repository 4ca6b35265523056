// Imported first by run.ts, before anything loads React: the benchmarks measure the build a user
// runs. The shipped bin sets NODE_ENV=production for the TUI; React's development build (the
// default under node and in `npm test`) renders several times slower.
process.env['NODE_ENV'] ??= 'production';
