# Issue 25 in Chromium on the H100: the default suite twice sampling for ±1 % (the page's default on a GPU)
# and once keeping exactly 10 samples, after the gpu-browser pack's chunks were staged in /opt/stage.
set -o pipefail
S=/opt/stage; C=.gpu-browser/chunks/c4
mkdir -p $S/part1 $S/part2
cat $S/p00.0 $S/p00.1 > $S/part1/chromium.tar.xz.00
cat $S/p01.0 $C/p01.1 > $S/part2/chromium.tar.xz.01
cp $C/SHA256SUMS $C/install.sh $C/run-page.py $C/README.md $C/PACK-INFO $S/part1/
cp -r $C/libs.tar.xz $C/fonts $C/gl $C/SHA256SUMS $C/install.sh $C/run-page.py $C/README.md $C/PACK-INFO $S/part2/
bash $S/part1/install.sh part1 $S/part1 && bash $S/part2/install.sh part2 $S/part2 | tail -2 || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $OUT/clocks-chromium.csv &
R="python3 /opt/gpu-browser/run-page.py --serve dist --window 1280x2400 --timeout 560"
J='document.getElementById("result-json").textContent'
for run in 1 2; do
  $R --out /tmp/s$run --wait-selector '#device:not([hidden])' --click '#run' --wait-selector '#results[data-done]' --eval "$J" 'index.html' && cp /tmp/s$run/eval.json $OUT/chromium-suite-1pct-$run.json
done
$R --out /tmp/s0 --wait-selector '#device:not([hidden])' --click '#run' --wait-selector '#results[data-done]' --eval "$J" 'index.html?precision=0' && cp /tmp/s0/eval.json $OUT/chromium-suite-fixed-10.json
kill %1
