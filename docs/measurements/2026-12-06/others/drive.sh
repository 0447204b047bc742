#!/bin/bash
# drive.sh: the held-out sets, then two rounds of λ-returns for senat, houses and kendall
cd /work/oth
S=/work/main/target/release/senet
i=0
for r in kendall senat houses; do i=$((i+1))
  SENET_TABLES=T $S fvi returns --rules $r --games 6000 --seed 6900$i --lambda 1 --explore 0 --keep 0.25 --export ret/$r-held.data > ret/$r-held.log 2>&1
done
tr() { ./tr.sh "$@"; touch done.$1; }
./gen.sh senat s1 120000 62101 0.07
tr s1 senat ret/s1.data nets/w64-senat/senat.txt 10 3e-4 &
./gen.sh houses h1 120000 63101 0.07
tr h1 houses ret/h1.data nets/w64-houses/houses.txt 10 3e-4 &
./gen.sh kendall k1 120000 61201 0.02
tr k1 kendall ret/k1.data nets/w64-kendall/kendall.txt 10 3e-4 &
until [ -e done.s1 ]; do sleep 10; done
./gen.sh senat s2 120000 62201 0.07 nets/s1
tr s2 senat ret/s2.data nets/s1/senat.txt 10 3e-4 &
until [ -e done.h1 ]; do sleep 10; done
./gen.sh houses h2 120000 63201 0.07 nets/h1
tr h2 houses ret/h2.data nets/h1/houses.txt 10 3e-4 &
until [ -e done.k1 ]; do sleep 10; done
./gen.sh kendall k2 120000 61301 0.02 nets/k1
tr k2 kendall ret/k2.data nets/k1/kendall.txt 10 3e-4 &
wait
echo all done > done.all
