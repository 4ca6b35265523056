#!/usr/bin/env bash
# Installs the real host clients for the live tests into test/live/clients (a private
# package, separate from the root one: ~700 MB of native binaries from optional deps).
# Idempotent: does nothing when the pinned versions are already in place.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
clients="${CM_LIVE_CLIENTS_DIR:-$here/clients}"
codex_version="0.171.0"
claude_version="2.1.332"
modules="$clients/node_modules"
codex_native="$modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
claude_native="$modules/@anthropic-ai/claude-code/bin/claude.exe"

installed_version() { # <package.json> -> version or empty
  [ -f "$1" ] && node -p "require(process.argv[1]).version" "$1" 2>/dev/null || true
}

# The wrapper's bin/claude.exe is the real ~400 MB binary (HOSTS.md 2.1), even when npm 11
# skips its postinstall; anything small is a placeholder.
claude_is_native() { [ -f "$claude_native" ] && [ "$(stat -c %s "$claude_native")" -gt 52428800 ]; }

is_installed() {
  [ "$(installed_version "$modules/@openai/codex/package.json")" = "$codex_version" ] &&
    [ "$(installed_version "$modules/@anthropic-ai/claude-code/package.json")" = "$claude_version" ] &&
    [ -x "$codex_native" ] && claude_is_native
}

if is_installed; then
  echo "live clients already installed in $clients"
else
  echo "installing live clients into $clients (about 700 MB; needs the npm registry)…"
  cd "$clients"
  if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund
  else
    npm install --no-audit --no-fund
  fi
  if ! claude_is_native; then
    # npm 11 may have skipped the postinstall that links the platform binary in; run it ourselves.
    (cd "$modules/@anthropic-ai/claude-code" && node install.cjs)
  fi
  is_installed || { echo "live clients are still incomplete in $clients" >&2; exit 1; }
fi

# What the live tests rely on, checked the way a user would (offline switches on).
export DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
"$modules/.bin/codex" --version
"$modules/.bin/claude" --version
