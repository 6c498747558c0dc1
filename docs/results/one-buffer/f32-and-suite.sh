#!/usr/bin/env bash
set -u
# On the device machine, from the repository's root: the f32 tries of one-buffer-h200.md (release CLIs
# s-new and s-F1..s-F3, stripped, in $C/bins.tar.xz; F1..F3 the patches in f32/) and the default suite
# natively before and after the re-found K (s-main, s-new), the measure module's trace counted for "warm, a
# sample" (K found again), then the library; nvidia-smi's clock log beside. Carried: $C and .gl.
O=/tmp/res; mkdir -p $O; C=.bench/carry5
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
tar xJf $C/bins.tar.xz -C /tmp; for b in /tmp/s-*; do mv $b /tmp/wgsweep-${b#/tmp/s-}; done; chmod +x /tmp/wgsweep-*
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
n=0
for b in new F1 F2 F3 new; do
    n=$((n + 1)); log "f32 $b ($n)"
    /tmp/wgsweep-$b run --kernels matmul_pipelined/k8_16x8 --values 2048,4096 --shader-checks both \
        --json "$O/f32-$b-$n.json" >> "$O/log.txt" 2>&1
done
for b in main new main new; do
    n=$((n + 1)); log "default suite $b ($n)"
    RUST_LOG=wgsweep::measure=trace /tmp/wgsweep-$b run --json "$O/suite-$b-$n.json" 2> "$O/trace-$n.txt" >> "$O/log.txt"
    grep -c "warm, a sample" "$O/trace-$n.txt" | tee -a "$O/log.txt"
    grep "warm, a sample" "$O/trace-$n.txt" | head -5 >> "$O/log.txt"
    rm "$O/trace-$n.txt"
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/*.json
grep -E "^[0-9]{2}:|^[0-9]+$|configurations|^time" $O/log.txt
