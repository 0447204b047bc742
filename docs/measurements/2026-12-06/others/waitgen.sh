#!/bin/bash
# waitgen.sh NAME: wait until ret/NAME.log says the data is written
until grep -q "written to" ret/$1.log 2>/dev/null; do sleep 10; done
