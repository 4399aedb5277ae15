#!/usr/bin/env bash
# Installs Debian's neovim package for the editor test of the language server (tests/server/test_neovim.py)
# when `nvim` is missing and we are root with apt-get; otherwise says why not and exits 0, so the test then
# skips with that reason. Prints the version found last. Bookworm ships Neovim 0.7.2 (no `vim.lsp.start`,
# which came in 0.8: the test then uses `vim.lsp.start_client` + `vim.lsp.buf_attach_client`).
set -uo pipefail
if command -v nvim >/dev/null 2>&1; then
  nvim --version | head -n 1
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install_neovim.sh: nvim is not installed and this is not root with apt-get: the Neovim test will skip" >&2
  exit 0
fi
LOG=$(mktemp)
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim; } \
     >"$LOG" 2>&1; then
  tail -n 20 "$LOG" >&2
  echo "install_neovim.sh: apt-get install neovim failed: the Neovim test will skip" >&2
  rm -f "$LOG"
  exit 0
fi
rm -f "$LOG"
nvim --version | head -n 1
