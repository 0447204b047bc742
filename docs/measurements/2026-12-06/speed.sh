#!/bin/bash
# speed.sh: the old (senet-old, wide of 2026-12-05) and new (e07r2 embedded) builds alternated
cd /work/fvi
NEW=/work/main/target/release/senet; OLD=/work/fvi/senet-old
$NEW random-game kendall5 --seed 5 > k5.json
for r in 1 2 3; do
  for b in OLD NEW; do
    bin=${!b}
    /usr/bin/time -f "$b analyze wall %e s user %U s" $bin analyze k5.json > an-$b.txt
  done
done
for r in 1 2; do
  for b in OLD NEW; do
    bin=${!b}
    echo "== $b botspeed round $r"
    $bin botspeed --rules kendall5 --bots expert,expectimax:3 --positions 1500
  done
done
