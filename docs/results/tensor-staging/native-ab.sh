#!/usr/bin/env bash
# Native A/B in one device call, from the repository's root: the f16 cooperative-matrix kernel of the
# release CLI "before" (.bench/wgsweep-main) and "after" (.device-bin/wgsweep), before, after, before, under
# both check modes at n = 2048 and 4096, then the library (f16-matrix/library.py); nvidia-smi's clock log
# beside. Carried: .bench, .device-bin (or the binaries xz-compressed in .bench, unpacked by the caller), .gl.
set -u
O=${OUT:-/tmp/tensor-staging}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
n=0
for side in before after before; do
    cli=.device-bin/wgsweep; [[ $side == before ]] && cli=.bench/wgsweep-main
    n=$((n + 1)); log "native $side ($n)"
    $cli run --kernels matmul_cooperative_matrix_f16 --values 2048,4096 --shader-checks both \
        --json "$O/native-$side-$n.json" >> "$O/log.txt" 2>&1
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
