#!/bin/bash
# run.sh NAME GAMES SEED EXPLORE LAMBDA EPOCHS LR [INIT]
set -e
cd /work/fvi
n=$1; init=${8:-nets/base/kendall5.txt}
[ -f ret/$n.data ] || SENET_TABLES=T SENET_NETS=${GEN:-nets/base} /work/main/target/release/senet fvi returns --rules kendall5 --games $2 --seed $3 --lambda $5 --explore $4 --exclude held.pool --export ret/$n.data
mkdir -p nets/$n
/work/venv/bin/python /work/main/scripts/train_endgame.py ret/$n.data --main --hidden 256 --epochs $6 --lr $7 --batch 4096 --seed 1 --backend numpy --init $init --out nets/$n/kendall5.txt > ret/$n.log 2>&1
bash judge.sh $n > ret/$n.judge 2>&1
echo "$n $*: $(tail -1 ret/$n.log)" >> ret/summary
tail -2 ret/$n.judge >> ret/summary
