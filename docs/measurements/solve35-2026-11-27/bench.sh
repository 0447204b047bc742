#!/bin/bash
cd /tmp/t35
A=/work/wt35solve/target/release/senet
B=/tmp/senet-before
for k in 2 3; do
  uptime > after$k.load; /usr/bin/time -v nice -n 5 $A solve kendall5 --pieces 3 --threads 2 --json --dir /tmp/t35/a > after$k.json 2> after$k.err
  uptime > before$k.load; /usr/bin/time -v nice -n 5 $B solve kendall5 --pieces 3 --threads 2 --json --dir /tmp/t35/b > before$k.json 2> before$k.err
done
/usr/bin/time -v nice -n 5 $A solve kendall5 --pieces 3 --threads 2 --bits 16 --json --dir /tmp/t35/a16 > after16.json 2> after16.err
/usr/bin/time -v nice -n 5 $B solve kendall5 --pieces 3 --threads 2 --bits 16 --json --dir /tmp/t35/b16 > before16.json 2> before16.err
echo done
