#!/bin/bash
# expectimax:3 per move on kendall5 (botspeed's 3000 positions, seed 1): this build's
# default network (k, 64 units), the wide one (@wide) and the peer engine, alternated; then
# expert with each network, and the analysis of `senet random-game kendall5 --seed 5`.
# SENET=target/release/senet PEER=peer_speed POS=positions-kendall5-3000-seed1.txt
SENET=${SENET:-target/release/senet}
echo "# $(lscpu | grep 'Model name' | sed 's/  */ /g'), $(nproc) CPUs; $(date -u '+%F %T UTC')"
bs() { "$SENET" botspeed --rules kendall5 --bots "$1" --positions 3000 --seed 1 | grep -E '^\| kendall5'; }
for r in 1 2 3; do
  echo "== round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  if (( r % 2 == 1 )); then order="k wide peer"; else order="peer wide k"; fi
  for s in $order; do case $s in
    k) bs expectimax:3;;
    wide) bs expectimax:3@wide;;
    peer) "$PEER" "$POS" --bot expectimax:3;;
  esac; done
done
echo "== expert, one core, no tables $(date -u +%T)"
bs expert
bs expert@tuned
echo "== analysis, the default tables $(date -u +%T)"
"$SENET" random-game kendall5 --seed 5 > /tmp/speed-g5.json
for r in 1 2 3; do
  /usr/bin/time -f "analyze (wide) %e s" "$SENET" analyze /tmp/speed-g5.json > /dev/null
done
echo "== end $(date -u +%T)"
