#!/bin/bash
# tr.sh NAME RULES DATA INIT EPOCHS LR [extra args]: train a 64-unit main network
# (one training at a time: a 20-million-position set takes 12 GB)
exec 9>/work/oth/train.lock; flock 9
while pgrep -f "train_endgame.py ret/" > /dev/null; do sleep 5; done
n=$1; r=$2; d=$3; init=$4; e=$5; lr=$6; shift 6
mkdir -p nets/$n
/work/venv/bin/python /work/main/scripts/train_endgame.py $d --main --hidden 64 --epochs $e --lr $lr --batch 4096 --seed 1 --backend numpy --init $init --out nets/$n/$r.txt "$@" > nets/$n/train.log 2>&1
# the fit on the held-out games' returns (explore 0)
/work/venv/bin/python /work/main/scripts/train_endgame.py ret/$r-held.data --main --hidden 64 --epochs 0 --init nets/$n/$r.txt --out /tmp/ev-$n.txt 2>&1 | tail -1 > nets/$n/held.txt
echo "$n: $(tail -1 nets/$n/train.log) | held $(cat nets/$n/held.txt)" >> summary
