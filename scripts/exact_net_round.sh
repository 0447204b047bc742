#!/usr/bin/env bash
# One round of issue 34's main network trained on exact values, measured on a held-out set.
#
#   cargo build --release -p senet
#   scripts/exact_net_round.sh OUT RULES SET
#
# TABLES must hold RULES's exact tables (4 pieces a side: `senet solve RULES --pieces 4`), and
# SET is a held-out exact test set of RULES made from them (`senet exactset`). The round:
#  1. plays GAMES self-play games of expectimax:1 and keeps a quarter of the positions the main
#     network values (a side with more than three pieces on the board), never one of SET's
#     (`senet train --net --export --searched --exclude SET`). Each is valued by the
#     analysis's search at DEPTH throws, which stops at the tables: positions the tables cover
#     get their exact value, the others a search whose leaves inside the tables are exact;
#  2. trains the main network on them from INIT (scripts/train_endgame.py --main, NumPy),
#     into OUT/nets/RULES.txt (SENET_NETS=OUT/nets plays with it);
#  3. measures `expert` and the analysis on SET with the network in use (or NETS, the round
#     before's folder) and with the new one (`senet ladder --exact`), in the same run:
#     OUT/before.md and OUT/after.md (and .json).
# The next round: NETS=OUT/nets INIT=OUT/nets/RULES.txt with another SEED.
#
# Environment: TABLES (required), NETS (folder of the networks the values are searched with;
# default the embedded ones), INIT (default crates/senet-bots/src/nets/RULES.txt or NETS's),
# GAMES (20000), DEPTH (2), SEED (6001), HIDDEN (64), EPOCHS (30), LR (1e-3), PYTHON (python3,
# with NumPy), SENET (target/release/senet).
set -euo pipefail
out=${1:?usage: scripts/exact_net_round.sh OUT RULES SET}
rules=${2:?usage: scripts/exact_net_round.sh OUT RULES SET}
set=${3:?usage: scripts/exact_net_round.sh OUT RULES SET}
tables=${TABLES:?TABLES must name the folder of the exact tables}
games=${GAMES:-20000}
depth=${DEPTH:-2}
seed=${SEED:-6001}
hidden=${HIDDEN:-64}
epochs=${EPOCHS:-30}
lr=${LR:-1e-3}
python=${PYTHON:-python3}
senet=${SENET:-target/release/senet}
nets=${NETS:-}
init=${INIT:-}
if [ -z "$init" ]; then
  if [ -n "$nets" ] && [ -f "$nets/$rules.txt" ]; then
    init=$nets/$rules.txt
  else
    init=crates/senet-bots/src/nets/$rules.txt
  fi
fi
mkdir -p "$out/nets"
with_nets() {
  if [ -n "$nets" ]; then SENET_NETS=$nets "$@"; else env -u SENET_NETS "$@"; fi
}
echo "== $rules: $games games, positions valued at depth $depth (seed $seed)" >&2
start=$(date +%s)
with_nets env SENET_TABLES="$tables" "$senet" train --rules "$rules" --net \
  --export "$out/data" --searched "$games" --depth "$depth" --bot expectimax:1 \
  --seed "$seed" --exclude "$set" | tee "$out/data.txt" >&2
echo "   $(($(date +%s) - start)) s" >&2
echo "== $rules: training from $init" >&2
start=$(date +%s)
"$python" scripts/train_endgame.py "$out/data" --main --hidden "$hidden" --epochs "$epochs" \
  --lr "$lr" --seed 1 --backend numpy --init "$init" --out "$out/nets/$rules.txt" 2>&1 \
  | tail -3 >&2
echo "   $(($(date +%s) - start)) s" >&2
echo "== $rules: measured on $set, before and after" >&2
with_nets "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
  --out "$out/before.md" --json > "$out/before.json"
SENET_NETS=$out/nets "$senet" ladder --exact "$set" --dir "$tables" --exact-bots expert \
  --out "$out/after.md" --json > "$out/after.json"
echo "done: $out" >&2
