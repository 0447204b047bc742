#!/bin/bash
# m.sh RULES NET SEED [BOT]: BOT (expectimax:1) with nets/NET against BOT@ref, 20,000 duplicate pairs
b=${4:-expectimax:1}; p=${PAIRS:-20000}
SENET_NETS=nets/$2 /work/main/target/release/senet match --rules $1 --a $b --b $b@ref --pairs $p --seed $3 --threads ${THREADS:-1} > matches/$2-$b-s$3.txt 2>&1
echo "$2 $b s$3 $(sed -n 2p matches/$2-$b-s$3.txt)" | tee -a matches/summary
