#!/bin/bash
# tr.sh NAME DATA INIT EPOCHS LR [extra args]: train a 64-unit kendall5 main network, then judge it
n=$1; d=$2; init=$3; e=$4; lr=$5; shift 5
mkdir -p nets/$n
/work/venv/bin/python /work/main/scripts/train_endgame.py $d --main --hidden 64 --epochs $e --lr $lr --batch 4096 --seed 1 --backend numpy --init $init --out nets/$n/kendall5.txt "$@" > nets/$n/train.log 2>&1
echo "$n $*: $(tail -1 nets/$n/train.log)" >> summary
bash judge.sh $n >> summary 2>&1
