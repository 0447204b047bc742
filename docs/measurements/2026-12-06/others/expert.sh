#!/bin/bash
# expert (the 64-unit network) against expert@ref (the 16-unit one), duplicate pairs, 2 threads
for r in senat houses kendall; do  # kendall was stopped unfinished
  /work/main/target/release/senet match --rules $r --a expert --b expert@ref --pairs ${PAIRS:-500} --seed 1 --threads 2 > $r-expert-s1.txt 2>&1
  echo "$r $(sed -n 1,2p $r-expert-s1.txt | tr '\n' ' ')" >> summary
done
touch done.all
