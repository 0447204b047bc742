#!/usr/bin/env bash
# Builds the page's engine (issue 54): crates/senet-wasm for wasm32-unknown-unknown, into
# target/wasm (its own target dir, so it never waits on or invalidates the host build), and
# leaves it at target/wasm/senet_engine.wasm and target/wasm-dist/senet_engine.wasm (where
# `senet serve`'s build embeds it from). Prints its size.
#
# rustup's stable toolchain stays the default for everything else: this uses Debian's
# `rustc-web` and `cargo-web` (/usr/bin/rustc, /usr/bin/cargo), whose standard library is
# built here from `rust-web-src` (`-Z build-std`, allowed by RUSTC_BOOTSTRAP), and `lld`'s
# `wasm-ld`. The packages are installed when missing (as root). std is built once per target
# dir (about 1.5 minutes on 2 cores); later builds only rebuild what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

need=()
[ -x /usr/bin/rustc ] && /usr/bin/rustc --version >/dev/null 2>&1 || need+=(rustc-web)
[ -x /usr/bin/cargo ] && /usr/bin/cargo --version >/dev/null 2>&1 || need+=(cargo-web)
[ -d /usr/lib/rustlib/src/rust/library ] || need+=(rust-web-src)
command -v wasm-ld >/dev/null 2>&1 || need+=(lld)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
    else
        echo "building the engine needs the Debian packages ${need[*]};" >&2
        echo "install them as root: apt-get install -y rustc-web cargo-web rust-web-src lld" >&2
        exit 1
    fi
fi

TARGET_DIR="$ROOT/target/wasm"
REGISTRY="${CARGO_HOME:-$HOME/.cargo}/registry/src"
# No path of this checkout, of the cargo registry or of the library sources in the binary
# (panic messages name source files).
REMAP="--remap-path-prefix=$ROOT=/senet --remap-path-prefix=$REGISTRY=/registry"
REMAP="$REMAP --remap-path-prefix=/usr/lib/rustlib/src/rust=/rust"

# getrandom 0.3 (reached through rand) has no source of randomness here: its custom backend,
# defined by crates/senet-wasm to refuse (the engine seeds everything). WebAssembly's 128-bit
# SIMD (every current browser has it; node since 16) halves the time of a search: the
# networks' passes, written for four lanes, become vector code, with the same results (no
# operation is reordered). No file or line in panic messages (smaller; paths stay out).
FLAGS="--cfg getrandom_backend=\"custom\" -C target-feature=+simd128 -Z location-detail=none"

start=$(date +%s)
RUSTFLAGS="$FLAGS $REMAP ${SENET_WASM_RUSTFLAGS:-}" \
RUSTC=/usr/bin/rustc \
RUSTDOC=/usr/bin/rustdoc \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
RUSTC_BOOTSTRAP=1 \
    /usr/bin/cargo build --locked -p senet-wasm --lib --profile wasm \
    --target wasm32-unknown-unknown --target-dir "$TARGET_DIR" \
    -Z build-std=std,panic_abort
end=$(date +%s)

out="$TARGET_DIR/wasm32-unknown-unknown/wasm/senet_engine.wasm"
cp "$out" "$TARGET_DIR/senet_engine.wasm"
mkdir -p "$ROOT/target/wasm-dist"
# Replaced whole (a rename), so that a build reading it never sees half a file.
cp "$out" "$ROOT/target/wasm-dist/.senet_engine.wasm.tmp"
mv "$ROOT/target/wasm-dist/.senet_engine.wasm.tmp" "$ROOT/target/wasm-dist/senet_engine.wasm"
size=$(stat -c %s "$TARGET_DIR/senet_engine.wasm")
echo "target/wasm/senet_engine.wasm: $size bytes ($(( (size + 1023) / 1024 )) KiB), built in $((end - start)) s"
