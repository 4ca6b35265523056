// In the CommonJS CLI bundles without the MCP server (dist/cli/main.cjs and read.cjs, built by
// scripts/bundle.mjs) in place of mcp/server.js: the MCP server (its SDK and tool schemas) is in
// dist/cli/mcp.cjs, so no other command reads or compiles it. The shim sends `mcp` there directly; a run that reaches
// this anyway (`--home D mcp`) is handed over whole, so no object of one bundle meets the other's.
'use strict';
const { join } = require('node:path');

exports.runMcpServer = () => {
  const { loadCached } = require(join(__dirname, '..', '..', 'bin', 'code-cache.cjs'));
  return loadCached(join(__dirname, 'mcp.cjs')).main(process.argv.slice(2));
};
