# The default suite natively (as `wgsweep run` runs it: with and without wgpu's checks) and in Chromium, each
# configuration's time recorded, with the clocks; each run's estimate said before it starts is kept beside it.
# $1 names the round (learn, check).
set -u
ROUND=${1:-learn}
if [ ! -x /opt/gpu-browser/chromium/chromium ]; then
  cat /tmp/gbp/gbpiece.0 /tmp/gbp/gbpiece.1 /tmp/gbp/gbpiece.2 /tmp/gbp/gbpiece.3 > /tmp/gb.tar && mkdir -p /tmp/gbx && tar -xf /tmp/gb.tar -C /tmp/gbx && rm /tmp/gb.tar
  bash /tmp/gbx/part1/install.sh part1 /tmp/gbx/part1 2>&1 | tail -1
  bash /tmp/gbx/part2/install.sh part2 /tmp/gbx/part2 2>&1 | tail -1
  for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
fi
R=/tmp/paces-$ROUND; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu --format=csv -lms 250 >> $R/clocks.csv &
CR="python3 /opt/gpu-browser/run-page.py --window 1280x2400"
stamp() { echo "$1 $(date +%T.%N)" >> $R/marks.txt; }
stamp native
timeout 200 .device-bin/wgsweep run --label "native (Vulkan), default suite" --json $R/h100-native-default-suite.json > $R/native.txt 2>&1; echo "exit $?"
stamp chromium
timeout 200 $CR --serve dist --out $R/chromium --timeout 180 --wait-selector '#device:not([hidden])' \
  --wait-js '(window.expectedText = document.getElementById("expected-duration").textContent).includes("expected")' \
  --click '#run' --wait-selector '#results[data-done]' \
  --eval '({expected: window.expectedText, result: document.getElementById("result-json").textContent})' "index.html" > $R/chromium.log 2>&1; echo "exit $?"
stamp end
kill %1
tar czf $OUT/paces-$ROUND.tgz -C /tmp paces-$ROUND
cat $R/marks.txt; grep -a "expected" $R/native.txt | head -2; tail -3 $R/native.txt; tail -2 $R/chromium.log
