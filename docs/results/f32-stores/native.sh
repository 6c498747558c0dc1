#!/usr/bin/env bash
# On the device machine, from the repository's root: the f32 kernel `matmul_pipelined/k8_16x8` as built in,
# and as a user's kernel three ways (C/tall0.wgsl as `wgsweep source` prints it; tall1 with A's k-rows one
# vec4 longer; tall2 as tall1, its tiles taken GROUP rows at a time), n = 2048 and 4096, both check modes,
# ROUNDS times in turn; then cuBLAS's SGEMM (f16-matrix/library.py); nvidia-smi's clock log beside.
# Carried: $C (the release CLI, stripped, as wgsweep.xz, and the WGSL files) and .gl (the Vulkan loader).
set -u
O=/tmp/res; C=${C:-.bench/carry7}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
xz -dc $C/wgsweep.xz > /tmp/wgsweep; chmod +x /tmp/wgsweep
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
for round in $(seq ${ROUNDS:-3}); do
    log "built-in ($round)"
    /tmp/wgsweep run --kernels matmul_pipelined/k8_16x8 --values 2048,4096 --shader-checks both \
        --json "$O/builtin-$round.json" >> "$O/log.txt" 2>&1
    for v in ${VARIANTS:-tall0 tall1 tall2}; do
        log "$v ($round)"
        /tmp/wgsweep kernel $C/$v.wgsl --shader-checks both --json "$O/$v-$round.json" >> "$O/log.txt" 2>&1
    done
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/*.json
tar cf "$OUT/res.tar" -C "$O" .
grep -E "^[0-9]{2}:|k8_16x8|_tall|SGEMM" $O/log.txt | grep -v "^note" | head -80
