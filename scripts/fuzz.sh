#!/usr/bin/env bash
# Fuzzes the position and record parsers and `apply` (target fuzz/fuzz_targets/notation.rs).
# Usage: scripts/fuzz.sh [SECONDS]   (default 600). Needs cargo-fuzz and a nightly toolchain:
#   cargo install cargo-fuzz && rustup toolchain install nightly
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
corpus=fuzz/corpus/notation
mkdir -p "$corpus"
cargo build -q -p senet
senet=target/debug/senet
# Seed corpus: for each rule set a record (mode 1), positions (mode 0), position+move (mode 3).
for rules in $("$senet" rules --json | grep -o '"id": *"[a-z0-9]*"' | sed 's/.*"\([a-z0-9]*\)"$/\1/'); do
  for seed in 1 2 3; do
    rec=$("$senet" random-game "$rules" --seed "$seed")
    printf '\001%s' "$rec" > "$corpus/rec-$rules-$seed"
    pos=$(printf '%s' "$rec" | grep -o '"position":"[^"]*"' | head -1 | sed 's/"position":"\(.*\)"/\1/')
    printf '\000%s' "$pos" > "$corpus/pos-$rules-$seed"
    start=$("$senet" new "$rules")
    printf '\000%s' "$start" > "$corpus/start-$rules"
    printf '\003%s\n%s' "$start" "10-11" > "$corpus/move-$rules"
  done
done
cargo +nightly fuzz run notation "$corpus" -- -max_total_time="$secs" -rss_limit_mb=2048
