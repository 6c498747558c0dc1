#!/usr/bin/env bash
# A/B on the H100, one call after gpu-browser's install: the subgroup-matrix kernels staging one K-chunk a
# barrier (`807af65`: its page in dist-main/, its release CLI in .bench/wgsweep-main) against two
# (`4ce4ca2`: dist/, .bench/wgsweep), natively and in Chromium (one-chunk page first and last), then the
# library (library.py). nvidia-smi logs clocks beside all of it.
O=$OUT; nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > $O/ab2-clocks.csv 2>&1 &
smi=$!
for b in wgsweep-main wgsweep; do
  echo "$(date -u +%T) native $b" >> $O/ab2-log.txt
  .bench/$b run --kernels matmul_cooperative_matrix_f16 --values 2048,4096 --shader-checks both --json $O/ab2-native-$b.json >> $O/ab2-log.txt 2>&1
done
k="matmul_subgroup_matrix/u8_32x64,matmul_subgroup_matrix/u8_32x32,matmul_subgroup_matrix_f16"
for d in dist-main dist dist-main; do
  echo "$(date -u +%T) $d" >> $O/ab2-log.txt
  python3 /opt/gpu-browser/run-page.py --serve $d --out /tmp/ab-$d --timeout 300 --click '#run' \
    --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia --window 1280x2400 --wait-selector '#results[data-done]' \
    --eval 'JSON.parse(document.getElementById("result-json").textContent)' "index.html?kernels=$k&values=2048,4096" >> $O/ab2-log.txt 2>&1
  n=1; while [ -e $O/ab2-$d-$n.json ]; do n=$((n+1)); done; cp /tmp/ab-$d/eval.json $O/ab2-$d-$n.json
done
echo "$(date -u +%T) library" >> $O/ab2-log.txt
python3 docs/results/f16-matrix/library.py > $O/ab2-library.json 2>> $O/ab2-log.txt
kill $smi
