#!/usr/bin/env bash
# On the device machine, from the repository's root: what NVIDIA's driver reports of the matmul kernels'
# pipelines, natively as wgpu builds them, with and without wgpu's checks. Carried: .device-bin
# (pipeline-stats, built with `cargo build --release --offline` in this folder and copied there), .bench
# (the release CLI as wgsweep-main.xz, for the f32 kernels' WGSL through `wgsweep source`), .gl (the Vulkan
# loader).
set -u
O=${OUT:-/tmp/pipeline-stats}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
xz -dc .bench/wgsweep-main.xz > /tmp/wgsweep && chmod +x /tmp/wgsweep
stats=.device-bin/pipeline-stats
nvidia-smi -L > "$O/stats.txt"
for variant in k8_16x8 k16; do
    /tmp/wgsweep source "matmul_pipelined/$variant" > "/tmp/$variant.wgsl"
done
for checks in default unchecked; do
    for kernel in 64x64@256 64x64@128 32x64@256 32x64@128 32x32@256 32x32@128; do
        echo "== matmul_cooperative_matrix_f16/$kernel, $checks" >> "$O/stats.txt"
        $stats $checks "matmul_cooperative_matrix_f16/$kernel" matmul_subgroup_matrix N=4096 >> "$O/stats.txt" 2>&1
    done
    echo "== matmul_pipelined/k8_16x8, $checks" >> "$O/stats.txt"
    $stats $checks /tmp/k8_16x8.wgsl matmul_pipelined_tall N=4096 ALIGNED=1 INSIDE=1 BK=8 TILE_VEC4S=512 \
        >> "$O/stats.txt" 2>&1
    echo "== matmul_pipelined/k16, $checks" >> "$O/stats.txt"
    $stats $checks /tmp/k16.wgsl matmul_pipelined N=4096 ALIGNED=1 INSIDE=1 BK=16 TILE_VEC4S=1024 \
        >> "$O/stats.txt" 2>&1
done
