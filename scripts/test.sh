#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs the third-party MCP servers the tests talk
# to (npm, PyPI), builds the release binary for the real-terminal tests, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v tmux >/dev/null 2>&1; then
  echo "test: installing tmux for the real-terminal tests"
  (apt-get update -qq && apt-get install -y -qq tmux) >/dev/null
fi
bash scripts/setup-peers.sh
cargo build --release --quiet
MCP_INSPECT_REQUIRE_PEERS=1 cargo test --lib --bins --tests
