#!/usr/bin/env bash
# On the device machine, from the repository's root, after the gpu-browser kit is staged (page-pace/ab.sh says
# how): KERNELS (default `matmul_pipelined/k8_16x8`) at n = 2048 and 4096 in built pages side by side in Chromium 156 ($C/dist-NAME,
# in the order ORDER names them), then in release CLIs natively, both check modes ($C/bins.tar.xz, stripped
# binaries s-NAME, in the order NATIVE names them), then cuBLAS's SGEMM (f16-matrix/library.py); nvidia-smi's
# clock log beside. Carried: $C and .gl.
set -u
O=/tmp/res; C=${C:-.bench/carry8}; rm -rf "$O"; mkdir -p "$O"
K=${KERNELS:-matmul_pipelined/k8_16x8}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source docs/results/page-pace/install-kit.sh
tar xJf $C/bins.tar.xz -C /tmp; for b in /tmp/s-*; do mv $b /tmp/wgsweep-${b#/tmp/s-}; done; chmod +x /tmp/wgsweep-*
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
n=0
for side in ${ORDER:-new pair new pair}; do
    n=$((n + 1)); log "chromium $side ($n)"
    python3 /opt/gpu-browser/run-page.py --serve $C/dist-$side --out "/tmp/ab-$n" --timeout 300 --click '#run' \
        --window 1280x2400 --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' \
        "index.html?kernels=$K&values=2048,4096" >> "$O/log.txt" 2>&1
    cp "/tmp/ab-$n/eval.json" "$O/chromium-$side-$n.json"
done
for b in ${NATIVE:-new kept new kept}; do
    n=$((n + 1)); log "native $b ($n)"
    /tmp/wgsweep-$b run --kernels $K --values 2048,4096 --shader-checks both \
        --json "$O/native-$b-$n.json" >> "$O/log.txt" 2>&1
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/*.json
tar cf "$OUT/res.tar" -C "$O" .
