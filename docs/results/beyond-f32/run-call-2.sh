#!/bin/bash
# Issue 26 on the H100, natively: the compute peaks with wgpu's bounds checks only and with no checks (its
# default checks guard every loop, which the FMA chains pay for many times over), and what Vulkan offers.
set -o pipefail
O=/tmp/o2; mkdir -p $O
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $O/clocks-native.csv &
mkdir -p /tmp/vt && for f in .bench/*.deb; do dpkg -x $f /tmp/vt; done
LD_LIBRARY_PATH=/tmp/vt/usr/lib/x86_64-linux-gnu /tmp/vt/usr/bin/vulkaninfo > $O/vulkaninfo.txt 2>&1
grep -nE "shaderFloat16|storageBuffer16BitAccess|uniformAndStorageBuffer16BitAccess|storageInputOutput16|shaderSubgroupExtendedTypes|VK_KHR_shader_float16_int8|VK_KHR_16bit_storage|integerDotProduct4x8BitPacked|apiVersion|driverVersion|SubgroupSize|cooperativeMatrix|VK_KHR_cooperative_matrix|shaderInt8" $O/vulkaninfo.txt | head -80 > $O/vulkan-features.txt
B=.bench/wgsweep
for checks in bounds-only unchecked; do
  $B run --kernels peak --shader-checks $checks --json $O/native-peak-$checks.json > $O/native-peak-$checks.txt 2>&1
done
tail -3 $O/native-peak-*.txt
kill %1
cd $O && tar czf $OUT/issue26-h100-native.tgz . && ls -la $OUT
