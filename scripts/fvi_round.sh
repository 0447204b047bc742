#!/usr/bin/env bash
# One round of fitted value iteration over the middle game (issue 55, docs/bots.md):
#   scripts/fvi_round.sh OUT RULES POOL HELD [PREV]
# backs up every position of POOL (`senet fvi sample`) one throw deep with the networks of the
# folder PREV (default: the embedded ones) and the tables of SENET_TABLES, trains the main
# network from PREV's (or the embedded one) on those targets, and writes the Bellman residual
# on the held-out pool HELD before and after. OUT/RULES.txt is the round's network
# (SENET_NETS=OUT plays with it). THROWS backs up that many throws deep instead (T^THROWS(V));
# RELAX over-relaxes the targets (V + RELAX (T^THROWS(V) - V), `senet fvi backup --relax`);
# HIDDEN, EPOCHS, LR, BATCH and SEED set the training;
# PYTHON the interpreter with NumPy (default python3), SENET the binary (default target/release/senet, built by `cargo build --release -p senet`).
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,10p "$0" >&2; exit 2; }
out=$1 rules=$2 pool=$3 held=$4 prev=${5:-}
senet=${SENET:-target/release/senet}
mkdir -p "$out"
with_prev() { if [ -n "$prev" ]; then SENET_NETS=$prev "$@"; else env -u SENET_NETS "$@"; fi; }
init=${prev:+$prev/$rules.txt}
init=${init:-crates/senet-bots/src/nets/$rules.txt}
with_prev "$senet" fvi residual "$held" | tee "$out/residual-before.txt"
with_prev "$senet" fvi backup "$pool" --export "$out/backup.data" --throws "${THROWS:-1}" --relax "${RELAX:-1}"
"${PYTHON:-python3}" scripts/train_endgame.py "$out/backup.data" --main --hidden "${HIDDEN:-64}" \
    --epochs "${EPOCHS:-8}" --lr "${LR:-3e-4}" --batch "${BATCH:-4096}" --seed "${SEED:-1}" \
    --backend numpy --init "$init" --out "$out/$rules.txt" 2>&1 | tee "$out/train.log"
SENET_NETS=$out "$senet" fvi residual "$held" | tee "$out/residual.txt"
rm -f "$out/backup.data"
