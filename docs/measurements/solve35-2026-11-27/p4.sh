#!/bin/bash
cd /tmp/t35
A=/work/wt35solve/target/release/senet
uptime > p4.load
nice -n 5 $A solve kendall5 --pieces 4 --threads 2 --bits 16 --json --dir /tmp/t35/p4 > p4.json 2> p4.err &
pid=$!
start=$(date +%s.%N)
echo $pid > p4.pid
while kill -0 $pid 2>/dev/null; do
  now=$(date +%s.%N)
  echo "$(echo "$now - $start" | bc) $(grep -E 'VmRSS' /proc/$pid/status | awk '{print $2}') $(awk '{print $14+$15}' /proc/$pid/stat)" >> p4.rss
  sleep 5
  el=$(echo "$(date +%s.%N) - $start" | bc | cut -d. -f1)
  if [ "$el" -gt 780 ]; then kill $pid; fi
done
echo done >> p4.rss
