#!/usr/bin/env bash
# Runs every check senet has: formatting, clippy (warnings are errors), and all tests,
# browser tests included.
# This is the README's test command; CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all --check

# The page's engine (issue 54): built before anything else, so that every later build of
# `senet serve` embeds it (crates/senet-server/build.rs) and the browser tests run with it.
# It installs Debian's rustc-web, cargo-web, rust-web-src and lld when missing.
echo "== the page's engine (WebAssembly, scripts/build-wasm.sh)"
bash scripts/build-wasm.sh
# Issue 54's bar, checked at once rather than after the rest of the tests.
wasm_size=$(stat -c %s target/wasm/senet_engine.wasm)
if [ "$wasm_size" -ge 3000000 ]; then
    echo "target/wasm/senet_engine.wasm is $wasm_size bytes: issue 54's bar is under 3,000,000" >&2
    exit 1
fi

echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

# The API docs build without a broken or private intra-doc link.
echo "== cargo doc --no-deps (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

# The tests of the libraries, binaries and test targets, then the doc tests. The examples
# (benchmarks and load generators) are not built here: clippy --all-targets above has checked
# and linted them, and building them cost about a minute of CI.
echo "== cargo test"
# The Python tests below rely on a `cargo build` of this same selection (same features).
TESTS=(--workspace --locked --lib --bins --tests)
cargo test "${TESTS[@]}"
cargo test --workspace --locked --doc

# The Python package (python/): its pytest suite in a virtual environment under target/, on
# the extension module of the workspace member python/ (target/debug/lib_senet.so), built by
# a `cargo build` of the same selection as `cargo test` above, so with the same features: it
# only links that library (a cdylib without tests, which `cargo test` leaves alone), with the
# rules and bots crates optimised in the dev profile as always. It is laid out as maturin
# lays out the wheel (python/pyproject.toml: module-name senet._senet,
# python-source .). A `pip install ./python` here would have maturin compile the crates once
# more for its own selection and features, about three minutes of CI; `maturin sdist` checks
# the packaging (pyproject.toml, the crates it takes) without compiling. The tests also
# compare with target/debug/senet.
echo "== Python package: sdist, then pytest in target/pyenv on the workspace's build"
if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
    else
        echo "the Python tests need python3 with venv; install it as root: apt-get install -y python3-venv" >&2
        exit 1
    fi
fi
PYENV="$PWD/target/pyenv"
[ -x "$PYENV/bin/python" ] || python3 -m venv "$PYENV"
"$PYENV/bin/pip" install --quiet "maturin>=1.16,<2" pytest numpy
cargo build "${TESTS[@]}"
test -x target/debug/senet
test -f target/debug/lib_senet.so || { echo "cargo build made no target/debug/lib_senet.so (python/)" >&2; exit 1; }
"$PYENV/bin/maturin" sdist --manifest-path python/Cargo.toml --out target/pysdist \
    > target/pysdist.log 2>&1 || { cat target/pysdist.log >&2; exit 1; }
PYPKG="$PWD/target/pypkg"
rm -rf "$PYPKG"
mkdir -p "$PYPKG"
cp -r python/senet "$PYPKG/senet"
cp target/debug/lib_senet.so "$PYPKG/senet/_senet.abi3.so"
# -p no:cacheprovider: leave no .pytest_cache in the tree. pytest exits 5 when it collects
# no test, which fails this script like any failure.
PYTHONPATH="$PYPKG" SENET_BIN="$PWD/target/debug/senet" "$PYENV/bin/pytest" -q -p no:cacheprovider python/tests

# Every later cargo command here selects the whole workspace (`--workspace --test NAME`), as
# `cargo test --workspace` did: selecting one package resolves other features and rebuilt
# serde, tokio, the senet crates and more, about two minutes per phase.

# `senet serve` on PostgreSQL: the store suite, the API, two servers on one database and
# servers killed mid-game, each test on a throwaway cluster it starts and removes (initdb on
# a loopback port; as root it runs as the user postgres). Ignored by a plain `cargo test`.
echo "== PostgreSQL tests (throwaway clusters)"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
    else
        echo "the PostgreSQL tests need the Debian package postgresql;" >&2
        echo "install it as root: apt-get install -y postgresql" >&2
        exit 1
    fi
fi
cargo test --workspace --test postgres --locked -- --ignored --test-threads=1 \
    --skip an_arena_of_eight_players_on_two_servers_pairs_once_and_scores_its_games
# The arena of issue 57 (8 simulated players on two servers on PostgreSQL for 3 minutes) is
# mostly waiting: it runs in the background beside the browser tests below, its output kept
# in target/arena-test.log and shown when it ends; the script fails if it fails.
ARENA_LOG="$PWD/target/arena-test.log"
cargo test --workspace --test postgres --locked -- --ignored --exact \
    an_arena_of_eight_players_on_two_servers_pairs_once_and_scores_its_games --nocapture \
    > "$ARENA_LOG" 2>&1 &
ARENA_PID=$!
trap 'kill "$ARENA_PID" 2>/dev/null || true' EXIT

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
# axe-core (the npm package) for the accessibility test, which injects it into the test's
# Chromium: installed under target/npm when missing (SENET_AXE may name another copy).
AXE="${SENET_AXE:-$PWD/target/npm/node_modules/axe-core/axe.min.js}"
if [ ! -f "$AXE" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ]; then
            apt-get update
            DEBIAN_FRONTEND=noninteractive apt-get install -y npm
        else
            echo "the accessibility test needs npm (for axe-core); install it as root: apt-get install -y npm" >&2
            exit 1
        fi
    fi
    npm install --prefix "$PWD/target/npm" --no-audit --no-fund axe-core
fi
export SENET_AXE="$AXE"
# Three at a time (each test has its own server, chromedriver, browsers and directories; they
# mostly wait on the page, so on two cores three take 303 s where two took 417 s, 2026-12-05);
# the test that kills and restarts a server on the same port runs alone, so that no other test
# can take the port in between.
cargo test --workspace --test browser --locked -- --ignored --test-threads=3 \
    --skip a_killed_server_restarts_and_the_game_goes_on
cargo test --workspace --test browser --locked -- --ignored --exact \
    a_killed_server_restarts_and_the_game_goes_on
# The site's operator and players (issue 56): a server stopped with SIGTERM and started again
# on its port (so, alone), a report read with senet admin, deleting one's player. (Challenges
# in the browser are tested across two servers with the deployment, below.)
cargo test --workspace --test browser_site --locked -- --ignored --test-threads=1
# The engine in the page (issue 54): a bot game, a hint, the bar and the review made by the
# page's engine, with the server's search counter unmoved.
cargo test --workspace --test browser_engine --locked -- --ignored
# Play with no server (issue 54): the service worker keeps the page; with the server stopped,
# a bot game on every rule set and a hot-seat game with a hint are played in the page, then
# the server is started again on its port (so, alone) and the page uploads every record.
cargo test --workspace --test browser_offline --locked -- --ignored
# Puzzles (issue 57): solved by a click and missed by keyboard, the rating moving both ways,
# the puzzle of the day, axe on the page in both themes. Tournaments: an arena made with the
# page's form, joined by another player live, started, both sent to their game, the result
# in the standings, axe on the tournament pages in both themes.
cargo test --workspace --test browser_puzzles --locked -- --ignored

echo "== the arena on two servers (PostgreSQL; started before the browser tests)"
if ! wait "$ARENA_PID"; then
    cat "$ARENA_LOG" >&2
    echo "the arena test failed (log above: $ARENA_LOG)" >&2
    exit 1
fi
trap - EXIT
grep -E '^arena:|^test |test result' "$ARENA_LOG"

# The deployment of docs/deploy.md, tested as shipped: nginx on deploy/nginx/senet.conf (only
# its `# [site]` lines replaced) terminating TLS with a certificate made by openssl, in front
# of two servers on one throwaway PostgreSQL cluster; curl checks the redirect, the Secure
# cookie and the forwarded client addresses, and two players meet, play a rated game and see
# their ratings in headless Chromium through it. Beside it, two servers on one database with a
# browser each: a challenge made on one is seen live and accepted on the other (issue 57).
# Ignored by a plain `cargo test`.
echo "== deployment test (nginx, TLS, two servers on PostgreSQL, Chromium)"
DEPLOY_PKGS=()
{ [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1; } || DEPLOY_PKGS+=(nginx)
command -v openssl >/dev/null 2>&1 || DEPLOY_PKGS+=(openssl)
command -v curl >/dev/null 2>&1 || DEPLOY_PKGS+=(curl)
if [ "${#DEPLOY_PKGS[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${DEPLOY_PKGS[@]}"
    else
        echo "the deployment test needs the Debian packages ${DEPLOY_PKGS[*]};" >&2
        echo "install them as root: apt-get install -y ${DEPLOY_PKGS[*]}" >&2
        exit 1
    fi
fi
cargo test --workspace --test deploy --locked -- --ignored

# The page's engine in WebAssembly (issue 54): built by scripts/build-wasm.sh (which installs
# Debian's rustc-web, cargo-web, rust-web-src and lld when missing), then asked in node the
# questions the native engine answered: 64,000 answers over 2,000 positions of every rule set
# (status, view, throws, legal moves, play, the moves of random, greedy, expectimax:1 and
# every level, hints, values, one whole game's analysis each), perft from every start and the
# move counts of the rules crate's regression files. The cases' writer is built like the
# tests above (the workspace's selection, the dev profile), so nothing is compiled again.
echo "== WebAssembly engine: the same answers as the native engine (node)"
if ! command -v node >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs
    else
        echo "the WebAssembly engine's test needs node; install it as root: apt-get install -y nodejs" >&2
        exit 1
    fi
fi
# (The engine was built at the start, by scripts/build-wasm.sh.)
cargo build --workspace --locked --example equivalence_cases
target/debug/examples/equivalence_cases target/wasm/equivalence.jsonl 2000
node crates/senet-wasm/tests/equivalence.mjs target/wasm/senet_engine.wasm target/wasm/equivalence.jsonl
