#!/bin/bash
# drive2.sh: a third round of senat and houses, after drive.sh's last games
cd /work/oth
./waitgen.sh k2
./gen.sh senat s3 120000 62301 0.07 nets/s2
./tr.sh s3 senat ret/s3.data nets/s2/senat.txt 10 3e-4 &
until [ -e done.h2 ]; do sleep 10; done
./gen.sh houses h3 120000 63301 0.07 nets/h2
./tr.sh h3 houses ret/h3.data nets/h2/houses.txt 10 3e-4
wait
touch done.drive2
