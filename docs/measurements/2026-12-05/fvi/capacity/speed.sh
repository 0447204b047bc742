#!/bin/bash
# expectimax:3 per move, kendall5, 3000 positions seed 1: today's network, the 128-unit s128b, the peer; alternated
POS=/tmp/peer/positions-kendall5-3000-seed1.txt
echo "# $(lscpu | grep 'Model name' | sed 's/  */ /g'), $(nproc) CPUs; $(date -u '+%F %T UTC')"
bs() { "capacity/senet" botspeed --rules kendall5 --bots expectimax:3 --positions 3000 --seed 1 | grep -E '^\| kendall5' | sed "s/^/$1 /"; }
for r in 1 2 3; do
  echo "== round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  if (( r % 2 == 1 )); then order="today w128 peer"; else order="peer w128 today"; fi
  for s in $order; do case $s in
    today) env -u SENET_NETS bash -c "$(declare -f bs); bs today";;
    w128) SENET_NETS=capacity/t3w bash -c "$(declare -f bs); bs t3w";;
    peer) /tmp/peer/harness/target/release/peer_speed $POS --bot expectimax:3;;
  esac; done
done
echo "== end $(date -u +%T)"
