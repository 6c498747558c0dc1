#!/usr/bin/env bash
# One device call, from the repository's root, after the gpu-browser kit is staged (page-pace/ab.sh says
# how): the page of a build before a change (.bench/dist-main) against one after it (dist) in Chromium, each
# run on a first visit's footing: a fresh profile (run-page.py's) and the driver's pipeline cache emptied, so
# that every pipeline compiles. PAGE (the matmul_pipelined kernels at n = 2048 and 4096) after, before,
# after, before; then the default suite after and before. nvidia-smi logs the clocks beside all of it.
set -u
O=${OUT:-/tmp/rewarm}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 250 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T.%N) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
page() { # side, name, query
    local dist=dist; [[ $1 == before ]] && dist=.bench/dist-main
    rm -rf ~/.nv ~/.cache/nvidia
    log "chromium $1 $2"
    python3 /opt/gpu-browser/run-page.py --serve $dist --out "/tmp/rw-$2" --timeout 300 --click '#run' \
        --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia --window 1280x2400 \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' "index.html$3" >> "$O/log.txt" 2>&1
    cp "/tmp/rw-$2/eval.json" "$O/chromium-$2.json"
    log "chromium $1 $2 done"
}
k=${PAGE:-matmul_pipelined}
n=0
for side in after before after before; do
    n=$((n + 1)); page $side "$side-$n" "?kernels=$k&values=2048,4096"
done
page after suite-after ""
page before suite-before ""
kill $smi
log done
