#!/bin/bash
# gen.sh RULES NAME GAMES SEED EXPLORE [GENDIR]: λ-returns (λ 1) of self-play with the networks of GENDIR
r=$1; n=$2; d=${6:-}
env SENET_TABLES=T ${d:+SENET_NETS=$d} /usr/bin/time -f "%e s" /work/main/target/release/senet fvi returns --rules $r --games $3 --seed $4 --lambda 1 --explore $5 --export ret/$n.data > ret/$n.log 2>&1
