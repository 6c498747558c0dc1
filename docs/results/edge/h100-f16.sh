#!/usr/bin/env bash
# On the device machine (the H100), in one call: STREAM's vec4 kernels and matmul_pipelined/k8 in f32 and in
# f16, natively (wgpu offers shader-f16 on Vulkan) and in Chromium (which may not: the page then says why
# it skipped them); nvidia-smi logs clocks beside it. Needs the Vulkan loader (.gl), a release wgsweep at
# .bench/wgsweep, and for Chromium dist/ and ../shared/gpu-browser installed.
#   bash docs/results/edge/h100-f16.sh [chromium]
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 \
    > "$OUT/f16-clocks.csv" 2>&1 &
smi=$!
log="$OUT/f16-log.txt"
stamp() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
stream=copy/vec4,copy/vec4_f16,scale/vec4,scale/vec4_f16,add/vec4,add/vec4_f16,triad/vec4,triad/vec4_f16,dot/vec4,dot/vec4_f16
stamp "native stream"
.bench/wgsweep run --kernels "$stream" --shader-checks unchecked --json "$OUT/f16-native-stream.json" >> "$log" 2>&1
stamp "native matmul"
.bench/wgsweep run --kernels matmul_pipelined/k8,matmul_pipelined/k8_f16 --values 1024,2048,4096 \
    --shader-checks all --json "$OUT/f16-native-matmul.json" >> "$log" 2>&1
if [ "${1:-}" = chromium ]; then
    stamp "chromium"
    python3 /opt/gpu-browser/run-page.py --serve dist --out /tmp/page-f16 --timeout 580 --click '#run' \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
        "index.html?kernels=$stream,matmul_pipelined/k8,matmul_pipelined/k8_f16&values=1024,2048,4096" >> "$log" 2>&1
    cp /tmp/page-f16/eval.json "$OUT/f16-chromium.json"
fi
stamp "done"
kill $smi
