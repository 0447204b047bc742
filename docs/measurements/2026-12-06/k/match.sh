#!/bin/bash
# match.sh NET: NET's network (m/NET/kendall5.txt) against the 64-unit network it replaces
# (m/NET/kendall5-wide.txt, played as @wide), in duplicate pairs with the luck taken out; run
# in the working folder (README.md)
n=$1
for spec in "expectimax:1 4000" "greedy@tuned 4000" "expectimax:2 1000"; do
  set -- $spec
  b=${1%@tuned}@wide
  SENET_NETS=m/$n ./senet match --rules kendall5 --a $1 --b $b --pairs $2 --seed 1 --threads 2 --luck expectimax:1 --json > m/$n-$(echo ${1%@tuned} | tr -d :).json
done
