#!/usr/bin/env bash
# On the device machine (the H100), in one call, after ../shared/gpu-browser's Chromium is installed in
# /opt/gpu-browser: natively, matmul_pipelined/k16 and /k8_16x8 and matmul_cooperative_matrix_f16 at n = 2048
# and 4096 under every shader check; in Chromium started with Dawn's f16 on NVIDIA, the f16 and 8-bit
# subgroup-matrix products (every variant and shape) and the f32 and f16 pipelined ones; then the library
# (library.py). nvidia-smi logs clocks beside all of it.
# Needs dist/ (`cargo xtask dist`) and .bench/wgsweep (a release build).
#   bash docs/results/f16-matrix/h100.sh
set -u
log="$OUT/log.txt"
stamp() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 \
    > "$OUT/clocks.csv" 2>&1 &
smi=$!
stamp "native: the device, matmul_pipelined/k16 and k8_16x8, matmul_cooperative_matrix_f16"
.bench/wgsweep devices > "$OUT/devices.txt" 2>&1
.bench/wgsweep run --kernels matmul_pipelined/k16,matmul_pipelined/k8_16x8,matmul_cooperative_matrix_f16 \
    --values 2048,4096 --shader-checks all --json "$OUT/native.json" >> "$log" 2>&1
stamp "chromium (f16 on NVIDIA): the subgroup-matrix and pipelined products"
kernels=matmul_subgroup_matrix_f16,matmul_subgroup_matrix,matmul_pipelined/k16,matmul_pipelined/k8_16x8,matmul_pipelined/k8_f16
python3 /opt/gpu-browser/run-page.py --serve dist --out /tmp/page --timeout 500 --click '#run' \
    --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia \
    --window 1280x2400 --wait-selector '#results[data-done]' \
    --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
    "index.html?kernels=$kernels&values=2048,4096" >> "$log" 2>&1
cp /tmp/page/eval.json "$OUT/chromium.json"; cp /tmp/page/screenshot.png "$OUT/chromium.png" 2>/dev/null
stamp "library"
python3 docs/results/f16-matrix/library.py > "$OUT/library.json" 2>> "$log"
stamp "done"
kill $smi
