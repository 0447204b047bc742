#!/usr/bin/env bash
# Runs every check senet has: formatting, clippy (warnings are errors), and all tests,
# browser tests included.
# This is the README's test command; CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all --check

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== cargo test"
cargo test --workspace --locked

# End-to-end tests of `senet serve` in real headless Chromium (driven through chromedriver,
# against the debug build). They are ignored by a plain `cargo test`; here they always run.
echo "== browser tests (headless Chromium)"
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
    else
        echo "the browser tests need the Debian packages chromium and chromium-driver;" >&2
        echo "install them as root: apt-get install -y chromium chromium-driver" >&2
        exit 1
    fi
fi
cargo test -p senet --test browser --locked -- --ignored --test-threads=1
