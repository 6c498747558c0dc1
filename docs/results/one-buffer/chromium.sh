#!/usr/bin/env bash
# On the device machine, from the repository's root, after the gpu-browser kit is staged (page-pace/ab.sh says
# how): built pages side by side in Chromium 156 with Dawn's f16 toggle, the subgroup-matrix kernels at
# n = 2048 and 4096, in the order ORDER names them (default "main final main"; each $C/dist-NAME), then the
# library (f16-matrix/library.py); nvidia-smi's clock log beside. Carried: $C and .gl.
set -u
O=$OUT; C=${C:-.bench/carry4}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
n=0
for side in ${ORDER:-main final main}; do
    n=$((n + 1)); log "chromium $side ($n)"
    python3 /opt/gpu-browser/run-page.py --serve $C/dist-$side --out "/tmp/ab-$n" --timeout 300 --click '#run' \
        --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia --window 1280x2400 \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
        "index.html?kernels=matmul_subgroup_matrix,matmul_subgroup_matrix_f16&values=2048,4096" >> "$O/log.txt" 2>&1
    cp "/tmp/ab-$n/eval.json" "$O/chromium-$side-$n.json"
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/*.json
