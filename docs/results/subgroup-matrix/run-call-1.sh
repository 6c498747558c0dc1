#!/bin/bash
# Issue 27's first step on the H100: what subgroup matrices (cooperative matrices) the adapter offers,
# natively through wgpu and in Chromium, and whether Chromium's run and give right answers; after the
# gpu-browser chunks c1-c3 were staged in /opt/stage.
set -o pipefail
O=/tmp/o3; mkdir -p $O
S=/opt/stage; C=.gpu-browser/chunks/c4
cat $S/cr.0 $S/cr.1 $S/cr.2 > $S/chromium.tar.xz
mkdir -p $S/part1 $S/part2
head -c 62652416 $S/chromium.tar.xz > $S/part1/chromium.tar.xz.00
tail -c +62652417 $S/chromium.tar.xz > $S/part2/chromium.tar.xz.01
for p in part1 part2; do cp $C/SHA256SUMS $C/install.sh $C/run-page.py $C/README.md $C/PACK-INFO $S/$p/; done
cp -r $C/libs.tar.xz $S/fonts $S/gl $S/part2/
bash $S/part1/install.sh part1 $S/part1 >/dev/null && bash $S/part2/install.sh part2 $S/part2 | tail -1 || exit 1
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $O/clocks.csv &
.bench/wgsweep devices > $O/native-devices.txt 2>&1; cat $O/native-devices.txt
R="python3 /opt/gpu-browser/run-page.py --serve dist --window 1280x1600 --timeout 120"
$R --out $O/probe --wait-selector '#device:not([hidden])' --click '#device summary' --eval "$(cat .bench/matrix-probe.js)" index.html
python3 -c "import json; r=json.load(open('$O/probe/eval.json')); print(json.dumps(r.get('configs'))); [print(t) for t in r.get('trials', [])]; print(r.get('error', ''))"
kill %1
cd $O && tar czf $OUT/issue27-h100.tgz . && ls -la $OUT
