# Issue 25, natively on the H100: the default suite with 10 samples a configuration (as before) and twice
# sampling for ±1 % (the CLI's default now), timed; the two runs of one build then compared for verdicts.
set -o pipefail
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
B=.bench/wgsweep
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $OUT/clocks-native.csv &
$B devices 2>&1 | tee -a $OUT/native.log
$B run --precision 0 --json $OUT/fixed-10.json > $OUT/fixed-10.txt 2>&1
for i in 1 2; do
  s=$(date +%s.%N); $B run --json $OUT/precision-1pct-$i.json > $OUT/precision-1pct-$i.txt 2>&1; e=$(date +%s.%N)
  echo "precision-1pct-$i wall $(echo "$e - $s" | bc)" | tee -a $OUT/native.log
done
$B compare $OUT/precision-1pct-1.json $OUT/precision-1pct-2.json > $OUT/compare-1-2.txt 2>&1
$B compare $OUT/fixed-10.json $OUT/precision-1pct-1.json > $OUT/compare-fixed-1.txt 2>&1
tail -3 $OUT/compare-1-2.txt $OUT/compare-fixed-1.txt
kill %1
