#!/usr/bin/env bash
# Issue 34's four-piece endgame network: trained on the exact values of a 4-piece table and
# measured on a held-out set with the tables cut to three pieces a side (so the network, not a
# lookup, values the four-a-side positions).
#
#   cargo build --release -p senet
#   senet solve RULES --pieces 4 --bits 16 --dir T        # 1 to 2 h on 2 cores (docs/solve.md)
#   TABLES=T scripts/end4_round.sh OUT RULES SET
#
# SET is a held-out exact test set of RULES with 4 pieces a side (`senet exactset RULES --pieces
# 4`; the one of docs/bots.md is in docs/measurements/). The round:
#  1. writes SAMPLE positions of the 4-piece table's levels with four pieces of a side on the
#     board (seeded), never one of SET's positions or of what their moves lead to, with their
#     exact values (`senet train --endgame --pieces 4 --export --sample --exclude SET`);
#  2. trains the four-piece endgame network on them (scripts/train_endgame.py, NumPy) into
#     OUT/nets/RULES-end4.txt (SENET_NETS=OUT/nets plays with it; to adopt it, copy it to
#     crates/senet-bots/src/nets/);
#  3. measures `expert` and the analysis on SET without it and with it (`senet ladder --exact`,
#     whose `expert` rows are with the tables cut to three pieces and whole), in the same run:
#     OUT/before.md and OUT/after.md (and .json).
#
# Environment: TABLES (required), SAMPLE (6000000), SEED (34), HIDDEN (256), EPOCHS (20), LR
# (1e-3), INIT (a weights file to start from; default none), PYTHON (python3, with NumPy),
# SENET (target/release/senet).
set -euo pipefail
out=${1:?usage: scripts/end4_round.sh OUT RULES SET}
rules=${2:?usage: scripts/end4_round.sh OUT RULES SET}
set=${3:?usage: scripts/end4_round.sh OUT RULES SET}
tables=${TABLES:?TABLES must name the folder of the exact tables}
sample=${SAMPLE:-6000000}
seed=${SEED:-34}
hidden=${HIDDEN:-256}
epochs=${EPOCHS:-20}
lr=${LR:-1e-3}
python=${PYTHON:-python3}
senet=${SENET:-target/release/senet}
init=()
[ -n "${INIT:-}" ] && init=(--init "$INIT")
mkdir -p "$out/nets"
echo "== $rules: $sample positions of the 4-piece table (seed $seed), none of $set" >&2
start=$(date +%s)
"$senet" train --rules "$rules" --endgame --pieces 4 --dir "$tables" --export "$out/end4.data" \
  --sample "$sample" --seed "$seed" --exclude "$set" | tee "$out/data.txt" >&2
echo "   $(($(date +%s) - start)) s" >&2
echo "== $rules: training $hidden units, $epochs epochs" >&2
start=$(date +%s)
"$python" scripts/train_endgame.py "$out/end4.data" --pieces 4 --hidden "$hidden" \
  --epochs "$epochs" --lr "$lr" --seed 1 --backend numpy "${init[@]}" --out "$out/nets/$rules-end4.txt" 2>&1 \
  | tail -3 >&2
echo "   $(($(date +%s) - start)) s" >&2
echo "== $rules: measured on $set, before and after" >&2
env -u SENET_NETS "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
  --out "$out/before.md" --json > "$out/before.json"
SENET_NETS=$out/nets "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
  --out "$out/after.md" --json > "$out/after.json"
echo "done: $out" >&2
