#!/bin/sh
# expert against the expert of issue 55's filing on kendall5, in duplicate pairs with each
# throw's luck taken out (docs/bots.md, "Luck-adjusted matches").
# The filing-day expert: the same level (search, node budget, endgame networks, tables) with
# the 64-unit main network that nets/kendall5.txt held when the issue was filed
# (f50cfb9^, 2026-11-27's dea75dc), put in $SENET_NETS as kendall5.txt so that
# expert@tuned searches with it. expert itself searches with nets/kendall5-wide.txt, which
# $SENET_NETS does not replace here. T: the 3-piece tables (senet solve --rules kendall5).
# Usage: match.sh SENET T OUT
set -e
SENET=$1 T=$2 OUT=$3
mkdir -p "$OUT/nets"
git show f50cfb9^:crates/senet-bots/src/nets/kendall5.txt > "$OUT/nets/kendall5.txt"
export SENET_TABLES="$T" SENET_NETS="$OUT/nets"
"$SENET" match --rules kendall5 --a expert --b expert@tuned --pairs 600 --seed 1 --threads 1 \
    --luck expectimax:2@wide --json > "$OUT/expert-filed-s1.json" &
"$SENET" match --rules kendall5 --a expert --b expert@tuned --pairs 300 --seed 2 --threads 1 \
    --luck expectimax:2@wide --json > "$OUT/expert-filed-s2.json"
wait
# The check that the adjusted score measures what the plain one does: a cheap pair of bots,
# enough pairs for the plain interval to be narrow (embedded networks, no tables).
unset SENET_NETS SENET_TABLES
"$SENET" match --rules kendall5 --a expectimax:1 --b greedy --pairs 20000 --seed 3 --threads 1 \
    --luck expectimax:1@wide --json > "$OUT/e1-greedy-s3.json"
