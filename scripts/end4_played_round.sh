#!/usr/bin/env bash
# Issue 34's four-piece endgame network, one round on played positions (docs/bots.md, "Rounds
# on played positions": the recipe that met the bars on `kendall5`): new positions met in play,
# valued exactly by the 4-piece table, train the network on from the last round's, and `expert`
# and the analysis are measured on the held-out set with the tables cut to three pieces a side.
#
#   cargo build --release -p senet
#   senet solve RULES --pieces 4 --bits 16 --dir T        # 1 to 2 h on 2 cores (docs/solve.md)
#   senet exactset RULES --pieces 4 --dir T -o SET         # the held-out set
#   TABLES=T INIT=PREV SEEDS="1001 1002" scripts/end4_played_round.sh OUT RULES SET
#
# The round:
#  1. for each seed of SEEDS, writes the positions met in PLAYED endgames of `expectimax:2` and
#     one move on, with their exact values, never one of SET's positions or of what their moves
#     lead to (`senet train --endgame --pieces 4 --export --played --exclude SET`): OUT/played-SEED.data;
#  2. trains the four-piece network on them (the first file, the second with --extra) from INIT
#     (scripts/train_endgame.py, NumPy) into OUT/nets/RULES-end4.txt (SENET_NETS=OUT/nets plays
#     with it; to adopt it, copy it to crates/senet-bots/src/nets/);
#  3. measures `expert` and the analysis on SET with it (`senet ladder --exact`): OUT/after.md
#     (and .json); with BEFORE=1 also without it, in the same run: OUT/before.md.
#
# Environment: TABLES (required), INIT (the weights to start from; required: a round goes on from
# the last, and a rule set's first round from another rule set's four-piece network with
# TRANSFER=1), SEEDS (one or two, "1001 1002"), PLAYED (40000), HIDDEN (512), EPOCHS (3), LR (1.2e-4),
# TRAIN_SEED (1), TRANSFER (0), BEFORE (0), KEEP (0: the data files are deleted after training,
# about 1.3 GB each), PYTHON (python3, with NumPy), SENET (target/release/senet).
set -euo pipefail
usage="usage: TABLES=T INIT=PREV scripts/end4_played_round.sh OUT RULES SET"
out=${1:?$usage}
rules=${2:?$usage}
set=${3:?$usage}
tables=${TABLES:?TABLES must name the folder of the exact tables}
init=${INIT:?INIT must name the weights to start from}
read -r -a seeds <<< "${SEEDS:-1001 1002}"
[ ${#seeds[@]} -ge 1 ] && [ ${#seeds[@]} -le 2 ] \
  || { echo "SEEDS: one or two seeds (the trainer takes one --extra file), got '${SEEDS:-}'" >&2; exit 2; }
played=${PLAYED:-40000}
hidden=${HIDDEN:-512}
epochs=${EPOCHS:-3}
lr=${LR:-1.2e-4}
python=${PYTHON:-python3}
senet=${SENET:-target/release/senet}
transfer=()
[ "${TRANSFER:-0}" = 1 ] && transfer=(--transfer)
mkdir -p "$out/nets"
files=()
for s in "${seeds[@]}"; do
  echo "== $rules: positions met in $played endgames (seed $s), none of $set" >&2
  start=$(date +%s)
  "$senet" train --rules "$rules" --endgame --pieces 4 --dir "$tables" \
    --export "$out/played-$s.data" --played "$played" --seed "$s" --exclude "$set" \
    | tee -a "$out/data.txt" >&2
  echo "   $(($(date +%s) - start)) s" >&2
  files+=("$out/played-$s.data")
done
extra=()
[ ${#files[@]} -eq 2 ] && extra=(--extra "${files[1]}")
echo "== $rules: training $hidden units, $epochs epochs, lr $lr, from $init" >&2
start=$(date +%s)
"$python" scripts/train_endgame.py "${files[0]}" --pieces 4 --hidden "$hidden" \
  --epochs "$epochs" --lr "$lr" --seed "${TRAIN_SEED:-1}" --backend numpy --init "$init" \
  "${transfer[@]}" "${extra[@]}" --out "$out/nets/$rules-end4.txt" 2>&1 | tee "$out/train.log" \
  | tail -3 >&2
echo "   $(($(date +%s) - start)) s" >&2
[ "${KEEP:-0}" = 1 ] || rm -f "${files[@]}"
echo "== $rules: measured on $set" >&2
if [ "${BEFORE:-0}" = 1 ]; then
  env -u SENET_NETS "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
    --out "$out/before.md" --json > "$out/before.json"
fi
SENET_NETS=$out/nets "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
  --out "$out/after.md" --json > "$out/after.json"
echo "done: $out" >&2
