#!/usr/bin/env bash
# The browser tests' server: a fresh data directory with an administrator and invitation codes
# made by the command line, mail written to a known outbox, then the real server. E2E_DIR (and
# DIST_DIR, E2E_PORT) let two runs side by side keep apart.
set -euo pipefail
dir="${E2E_DIR:-tests/.tmp/e2e}"
rm -rf "$dir" && mkdir -p "$dir"
export DATA_DIR="$dir/data" OUTBOX_DIR="$dir/outbox"
node scripts/cli.ts user:create --email admin@kiraboshi.test --username Admin --password 'e2e administrator secret' --role administrator > /dev/null
node scripts/cli.ts invite:create --count 20 > "$dir/invitation-codes.txt"
exec node --max-semi-space-size=8 server/main.ts # the flags of server/node-flags.ts
