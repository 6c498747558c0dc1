#!/usr/bin/env bash
# On the device machine, from the repository's root: release CLIs side by side on KERNELS (default
# `matmul_pipelined/k8_16x8`) at n = 2048 and 4096 in the check modes CHECKS (default both), ROUNDS times (default
# 3) in the order ORDER names them (/tmp/wgsweep-NAME each, unpacked from $C/bins.tar.xz, stripped binaries named
# s-NAME); then cuBLAS's SGEMM (f16-matrix/library.py); nvidia-smi's clock log beside. Carried: $C and .gl.
set -u
O=/tmp/res; C=${C:-.bench/carry7}; rm -rf "$O"; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
tar xJf $C/bins.tar.xz -C /tmp; for b in /tmp/s-*; do mv $b /tmp/wgsweep-${b#/tmp/s-}; done; chmod +x /tmp/wgsweep-*
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
for round in $(seq ${ROUNDS:-3}); do
    for b in ${ORDER:-new opaque pair pairopaque}; do
        log "$b ($round)"
        /tmp/wgsweep-$b run --kernels ${KERNELS:-matmul_pipelined/k8_16x8} --values 2048,4096 --shader-checks ${CHECKS:-both} \
            --json "$O/$b-$round.json" >> "$O/log.txt" 2>&1
    done
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/*.json
tar cf "$OUT/res.tar" -C "$O" .
