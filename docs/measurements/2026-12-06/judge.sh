#!/bin/bash
# judge.sh NAME [BOTS]: the corpus figure of nets/NAME's network as the wide (expert) one
n=$1; bots=${2:-expert,expectimax:1@wide}
ln -sf kendall5.txt nets/$n/kendall5-wide.txt
SENET_TABLES=T SENET_NETS=nets/$n /work/main/target/release/senet ladder --exact corpus.jsonl --exact-bots $bots --no-analysis --json > judge/$n.json 2>> judge/err.log
/work/venv/bin/python /work/main/scripts/exact_from_corpus.py --summary corpus.jsonl judge/$n.json judge/base.json
