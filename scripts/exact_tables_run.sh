#!/usr/bin/env bash
# Issue 34's measurement in one run, for a machine with the cores and memory for 4-piece tables
# (the lent 16-core machine: it has no Rust toolchain, so build here and carry the binaries).
#
#   cargo build --release -p senet && cargo build --release -p senet-bots --example water
#   scripts/exact_tables_run.sh OUT [RULES...]        # default RULES: kendall5 kendall senat houses
#
# For each rule set, in order: `senet solve RULES --pieces $PIECES --bits 16` into $TABLES (the
# solve's JSON and level reports, with the Bellman residual), a held-out exact test set of
# $DECISIONS decisions with $PIECES pieces a side (`senet exactset`), the levels and the
# analysis measured on it (`senet ladder --exact`, Markdown and JSON: `expert` and the analysis
# with the tables cut to $PIECES - 1 pieces, as they played before, and whole), and the water
# study (`examples/water`). Everything it writes goes to OUT; the tables stay in $TABLES.
#
# Environment: PIECES (default 4), DECISIONS (1000), THREADS (all cores), MEMORY (GiB the
# successor graph may take, default 12), TABLES (default OUT/tables), SEED (1),
# SENET (default target/release/senet), WATER (default target/release/examples/water).
set -euo pipefail
out=${1:?usage: scripts/exact_tables_run.sh OUT [RULES...]}
shift
rules=("$@")
[ ${#rules[@]} -gt 0 ] || rules=(kendall5 kendall senat houses)
pieces=${PIECES:-4}
decisions=${DECISIONS:-1000}
threads=${THREADS:-0}
memory=${MEMORY:-12}
seed=${SEED:-1}
senet=${SENET:-target/release/senet}
water=${WATER:-target/release/examples/water}
tables=${TABLES:-$out/tables}
mkdir -p "$out" "$tables"
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -v)
for r in "${rules[@]}"; do
  echo "== $r: solve ($pieces pieces)" >&2
  "${timed[@]}" "$senet" solve "$r" --pieces "$pieces" --threads "$threads" --bits 16 \
    --memory "$memory" --json --dir "$tables" > "$out/solve-$r.json" 2> "$out/solve-$r.err" \
    || { tail -5 "$out/solve-$r.err" >&2; exit 1; }
  grep -E "level|Elapsed|Maximum resident" "$out/solve-$r.err" | tail -4 >&2
  echo "== $r: exact set" >&2
  "$senet" exactset "$r" --pieces "$pieces" --decisions "$decisions" --seed "$seed" \
    --dir "$tables" -o "$out/$r-$pieces.jsonl" >&2
  echo "== $r: ladder --exact" >&2
  "$senet" ladder --exact "$out/$r-$pieces.jsonl" --dir "$tables" --out "$out/$r-$pieces.md" \
    --json > "$out/$r-$pieces.json"
  if [ -x "$water" ]; then
    echo "== $r: water" >&2
    "$water" "$r" "$tables" > "$out/water-$r.md" 2> "$out/water-$r.err" || true
  fi
done
echo "done: $out" >&2
