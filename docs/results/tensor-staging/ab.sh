#!/usr/bin/env bash
# A/B in one device call, from the repository's root, after the gpu-browser kit is staged (page-pace/ab.sh
# says how): the subgroup-matrix kernels of a build before a change ("before": the release CLI in
# .bench/wgsweep-main, the page in .bench/dist-main) against one after it (.device-bin/wgsweep, dist; the
# binaries may travel xz-compressed in .bench), natively and in Chromium (the page before, after, before),
# then the library (f16-matrix/library.py). nvidia-smi logs the clocks beside all of it. Carried: .bench,
# .device-bin, dist, .gl (the Vulkan loader). Used for the matrix copies and the turned stores; NATIVE and
# PAGE name other kernels (the f32 pipelined ones, for the swizzle).
set -u
O=${OUT:-/tmp/matrix-copies}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
for side in before after; do
    cli=.device-bin/wgsweep; [[ $side == before ]] && cli=.bench/wgsweep-main
    log "native $side"
    $cli run --kernels "${NATIVE:-matmul_cooperative_matrix_f16}" --values 2048,4096 --shader-checks both \
        --json "$O/native-$side.json" >> "$O/log.txt" 2>&1
done
k=${PAGE:-matmul_subgroup_matrix/u8_32x64,matmul_subgroup_matrix/u8_32x32,matmul_subgroup_matrix_f16}
n=0
for side in before after before; do
    page=dist; [[ $side == before ]] && page=.bench/dist-main
    n=$((n + 1)); log "chromium $side ($n)"
    python3 /opt/gpu-browser/run-page.py --serve $page --out "/tmp/ab-$n" --timeout 300 --click '#run' \
        --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia --window 1280x2400 \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
        "index.html?kernels=$k&values=2048,4096" >> "$O/log.txt" 2>&1
    cp "/tmp/ab-$n/eval.json" "$O/chromium-$side-$n.json"
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
