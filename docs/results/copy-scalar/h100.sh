#!/usr/bin/env bash
# On the device machine, one call: wgsweep's copy natively (every shader-check mode), the probe kernels of
# this folder as a user's kernels, and the CUDA copies of copy_scalar.cu, with nvidia-smi's clocks beside.
# Needs the Vulkan loader (.gl) and a release wgsweep at .device-bin/wgsweep.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
D=docs/results/copy-scalar
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 250 > "$OUT/clocks.csv" 2>&1 &
smi=$!
log="$OUT/log.txt"
stamp() { echo "$(date -u +%H:%M:%S) $*" >> "$log"; }
stamp "native copy"
.device-bin/wgsweep run --kernels copy --shader-checks all --workgroup-sizes 128,256,512,1024 --json "$OUT/native-copy.json" >> "$log" 2>&1
for k in array_length flat two_per_invocation; do
    stamp "kernel $k"
    .device-bin/wgsweep kernel "$D/$k.wgsl" --json "$OUT/kernel-$k.json" >> "$log" 2>&1
done
stamp "cuda"
nvcc -O3 -arch=sm_90 -o /tmp/copy "$D/copy_scalar.cu" > "$OUT/cuda.txt" 2>&1 && /tmp/copy >> "$OUT/cuda.txt" 2>&1
stamp "native copy again"
.device-bin/wgsweep run --kernels copy/scalar --shader-checks unchecked --workgroup-sizes 128,256,512,1024 --json "$OUT/native-copy-again.json" >> "$log" 2>&1
stamp "done"
kill $smi
