#!/usr/bin/env bash
# On the device machine, from the repository's root: release CLIs side by side on the f16 cooperative-matrix
# kernel (n = 2048 and 4096, both check modes), in the order ORDER names them (default "main final main";
# /tmp/wgsweep-NAME each, unpacked from $C/bins.tar.xz, stripped binaries named s-NAME), then what the driver
# reports of the WGSL files in $C/wgsl (docs/results/pipeline-stats, its binary as $C/pipeline-stats.xz;
# files named main-* were compiled with the override TURNED the kernel had then), then the library
# (f16-matrix/library.py); nvidia-smi's clock log beside. Carried: $C and .gl (the Vulkan loader).
set -u
O=$OUT; C=${C:-.bench/carry4}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
tar xJf $C/bins.tar.xz -C /tmp; for b in /tmp/s-*; do mv $b /tmp/wgsweep-${b#/tmp/s-}; done; chmod +x /tmp/wgsweep-*
xz -dc $C/pipeline-stats.xz > /tmp/pipeline-stats; chmod +x /tmp/pipeline-stats
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
log() { echo "$(date -u +%T) $*" | tee -a "$O/log.txt"; }
nvidia-smi -L >> "$O/log.txt"
n=0
for b in ${ORDER:-main final main}; do
    n=$((n + 1)); log "native $b ($n)"
    /tmp/wgsweep-$b run --kernels matmul_cooperative_matrix_f16 --values 2048,4096 --shader-checks both \
        --json "$O/native-$b-$n.json" >> "$O/log.txt" 2>&1
done
log stats
for f in $C/wgsl/*.wgsl; do
    for checks in default unchecked; do
        turned=$([[ $f == */main-* ]] && echo "TURNED=$([[ $checks == default ]] && echo 1 || echo 0)")
        echo "== $(basename $f) $checks" >> "$O/stats.txt"
        /tmp/pipeline-stats $checks $f matmul_subgroup_matrix N=4096 $turned >> "$O/stats.txt" 2>&1
    done
done
log library
python3 docs/results/f16-matrix/library.py > "$O/library.json" 2>> "$O/log.txt"
kill $smi
log done
gzip $O/stats.txt $O/*.json
