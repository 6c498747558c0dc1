#!/bin/bash
# Issue 27, a first int8 matrix product on Chromium's subgroup matrices beside torch._int_mm, after the
# gpu-browser chunks c1-c3 were staged in /opt/stage.
set -o pipefail
O=/tmp/o5; mkdir -p $O
S=/opt/stage; C=.gpu-browser/chunks/c4
cat $S/cr.0 $S/cr.1 $S/cr.2 > $S/chromium.tar.xz
mkdir -p $S/part1 $S/part2
head -c 62652416 $S/chromium.tar.xz > $S/part1/chromium.tar.xz.00
tail -c +62652417 $S/chromium.tar.xz > $S/part2/chromium.tar.xz.01
for p in part1 part2; do cp $C/SHA256SUMS $C/install.sh $C/run-page.py $C/README.md $C/PACK-INFO $S/$p/; done
cp -r $C/libs.tar.xz $S/fonts $S/gl $S/part2/
bash $S/part1/install.sh part1 $S/part1 >/dev/null && bash $S/part2/install.sh part2 $S/part2 | tail -1 || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $O/clocks.csv &
python3 .bench/int8-torch.py > $O/torch-int-mm.json 2> $O/torch.log; cat $O/torch-int-mm.json; tail -3 $O/torch.log
python3 /opt/gpu-browser/run-page.py --serve dist --out $O/probe --timeout 120 --wait-selector '#device:not([hidden])' --eval "$(cat .bench/int8-gemm-probe.js)" index.html
cat $O/probe/eval.json
kill %1
cd $O && tar czf $OUT/issue27-int8.tgz . && ls -la $OUT
