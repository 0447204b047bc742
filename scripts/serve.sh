#!/usr/bin/env bash
# The README's first command: builds the page's engine (the rules and bots in WebAssembly,
# scripts/build-wasm.sh, which installs Debian's rustc-web when missing) and then builds and
# starts the browser game, `senet serve`, on an embedded SQLite database. Arguments go to
# `senet serve` (e.g. --addr 127.0.0.1:8080 --db senet.sqlite).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! bash scripts/build-wasm.sh; then
    echo "senet: the page's engine could not be built (see above); the server plays the bots instead" >&2
fi
exec cargo run --release -p senet -- serve "$@"
