#!/usr/bin/env bash
# On the device machine (the H100), in one call: wgsweep's matmul and reductions natively (every shader-check
# mode), the vendor's library on the same GPU (library.py: cuBLAS SGEMM, torch.sum), then, where Chromium is
# installed (../shared/gpu-browser), the same kernels in the page; nvidia-smi logs clocks beside all of it.
# Also matmul_pipelined's algorithm in CUDA (matmul_pipelined.cu), which Nsight Compute can profile.
# Needs the Vulkan loader (.gl), a release wgsweep at .bench/wgsweep and, for Chromium, dist/.
#   bash docs/results/edge/h100.sh [chromium]
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 \
    > "$OUT/clocks.csv" 2>&1 &
smi=$!
log="$OUT/log.txt"
stamp() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
stamp "native matmul"
.bench/wgsweep run --kernels matmul_blocked/8x8,matmul_pipelined --values 1024,2048,4096 --shader-checks all \
    --json "$OUT/native-matmul.json" >> "$log" 2>&1
stamp "native reduce"
# The sums at the library's largest size, 2^28 elements (1 GiB).
.bench/wgsweep run --kernels grid/u32,grid/f32,subgroup/u32,subgroup/f32 --size 268435456 --shader-checks all \
    --json "$OUT/native-reduce.json" >> "$log" 2>&1
stamp "library"
python3 docs/results/edge/library.py > "$OUT/library.json" 2>> "$log"
stamp "the pipelined matmul in CUDA"
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/mm docs/results/edge/matmul_pipelined.cu > "$OUT/cuda.txt" 2>&1 \
    && /tmp/mm >> "$OUT/cuda.txt" 2>&1
if [ "${1:-}" = chromium ]; then
    stamp "chromium matmul"
    python3 /opt/gpu-browser/run-page.py --serve dist --out /tmp/page --timeout 580 --click '#run' \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
        'index.html?kernels=matmul_blocked/8x8,matmul_pipelined,reduce&values=1024,2048,4096' >> "$log" 2>&1
    cp /tmp/page/eval.json "$OUT/chromium.json"
fi
stamp "done"
kill $smi
