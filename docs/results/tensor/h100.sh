#!/usr/bin/env bash
# On the device machine (the H100), in one call, after ../shared/gpu-browser's Chromium is installed in
# /opt/gpu-browser: the page runs matmul_subgroup_matrix (u8 and i8, every workgroup shape) and
# matmul_pipelined/k16 at n = 256, 2048 and 4096; then the vendor's library (library.py). nvidia-smi logs
# clocks beside all of it. Needs dist/ (`cargo xtask dist`).
#   bash docs/results/tensor/h100.sh
set -u
log="$OUT/log.txt"
stamp() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 \
    > "$OUT/clocks.csv" 2>&1 &
smi=$!
stamp "chromium: matmul_subgroup_matrix and matmul_pipelined/k16"
python3 /opt/gpu-browser/run-page.py --serve dist --out /tmp/page --timeout 400 --click '#run' \
    --window 1280x2400 --wait-selector '#results[data-done]' \
    --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
    'index.html?kernels=matmul_subgroup_matrix,matmul_pipelined/k16&values=256,2048,4096' >> "$log" 2>&1
cp /tmp/page/eval.json "$OUT/chromium.json"; cp /tmp/page/*.png "$OUT/" 2>/dev/null
stamp "library"
python3 docs/results/tensor/library.py > "$OUT/library.json" 2>> "$log"
stamp "done"
kill $smi
