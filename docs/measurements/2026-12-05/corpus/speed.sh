#!/bin/bash
# expectimax:3 per move, kendall5, botspeed's 3000 positions seed 1: the network of 2026-11-27, k, and the peer; alternated
POS=/tmp/peer/positions-kendall5-3000-seed1.txt
echo "# $(lscpu | grep 'Model name' | sed 's/  */ /g'), $(nproc) CPUs; $(date -u '+%F %T UTC')"
bs() { "/work/fvi4/senet" botspeed --rules kendall5 --bots expectimax:3 --positions 3000 --seed 1 | grep -E '^\| kendall5' | sed "s/^/$1 /"; }
for r in 1 2 3; do
  echo "== round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  if (( r % 2 == 1 )); then order="today k peer"; else order="peer k today"; fi
  for s in $order; do case $s in
    today) env -u SENET_NETS bash -c "$(declare -f bs); bs today";;
    k) SENET_NETS=/work/fvi4/k1 bash -c "$(declare -f bs); bs k";;
    peer) /tmp/peer/harness/target/release/peer_speed $POS --bot expectimax:3;;
  esac; done
done
echo "== end $(date -u +%T)"
