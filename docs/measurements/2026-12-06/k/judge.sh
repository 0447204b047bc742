#!/bin/bash
# judge.sh NAME [BOTS]: the corpus figures of nets/NAME/kendall5.txt as the main network k
n=$1; bots=${2:-greedy@tuned,expectimax:1,expectimax:2,expectimax:3}
SENET_TABLES=T SENET_NETS=nets/$n ./senet ladder --exact corpus.jsonl --exact-bots $bots --no-analysis --json > judge/$n.json 2>> judge/err.log
/work/venv/bin/python /work/main/scripts/exact_from_corpus.py --summary corpus.jsonl judge/$n.json judge/base.json
