#!/bin/bash
# Issue 26 on the H100, one call after the gpu-browser chunks c1-c3 were staged in /opt/stage: the reductions
# (subgroups among them) and every compute peak natively and in Chromium, side by side; and why Chromium
# offers no shader-f16 (vulkaninfo, chrome://gpu, flags). Everything lands in $OUT as a few tar files.
set -o pipefail
O=/tmp/o; mkdir -p $O
S=/opt/stage; C=.gpu-browser/chunks/c4
cat $S/cr.0 $S/cr.1 $S/cr.2 > $S/chromium.tar.xz
mkdir -p $S/part1 $S/part2
head -c 62652416 $S/chromium.tar.xz > $S/part1/chromium.tar.xz.00
tail -c +62652417 $S/chromium.tar.xz > $S/part2/chromium.tar.xz.01
for p in part1 part2; do cp $C/SHA256SUMS $C/install.sh $C/run-page.py $C/README.md $C/PACK-INFO $S/$p/; done
cp -r $C/libs.tar.xz $S/fonts $S/gl $S/part2/
bash $S/part1/install.sh part1 $S/part1 && bash $S/part2/install.sh part2 $S/part2 | tail -2 || exit 1
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate,utilization.gpu,temperature.gpu --format=csv -lms 500 > $O/clocks.csv &
nvidia-smi > $O/nvidia-smi.txt

# What Vulkan offers this GPU: the features Dawn's shader-f16 and subgroups depend on.
mkdir -p /tmp/vt && dpkg -x .bench/vulkan-tools_*.deb /tmp/vt
LD_LIBRARY_PATH=/opt/gpu-browser/lib /tmp/vt/usr/bin/vulkaninfo > $O/vulkaninfo.txt 2>&1
grep -nE "shaderFloat16|storageBuffer16BitAccess|uniformAndStorageBuffer16BitAccess|storageInputOutput16|shaderSubgroupExtendedTypes|VK_KHR_shader_float16_int8|VK_KHR_16bit_storage|integerDotProduct4x8BitPacked|apiVersion|driverVersion|subgroupSize|cooperativeMatrix" $O/vulkaninfo.txt | head -60 > $O/vulkan-features.txt

# Natively, with wgpu's checks (the browser always checks).
B=.bench/wgsweep
$B devices > $O/native-devices.txt 2>&1
$B run --kernels reduce --shader-checks default --json $O/native-reduce.json > $O/native-reduce.txt 2>&1
$B run --kernels peak --shader-checks default --json $O/native-peak.json > $O/native-peak.txt 2>&1
tail -4 $O/native-reduce.txt $O/native-peak.txt

# In Chromium.
R="python3 /opt/gpu-browser/run-page.py --serve dist --window 1280x2400 --timeout 560"
J='document.getElementById("result-json").textContent'
for k in reduce peak; do
  $R --out $O/page-$k --wait-selector '#device:not([hidden])' --click '#run' --wait-selector '#results[data-done]' --eval "$J" "index.html?kernels=$k"
  cp $O/page-$k/eval.json $O/chromium-$k.json
done
# shader-f16: what Dawn reports (chrome://gpu, shadow roots included), and the adapter's features under flags.
T='(function text(root) { let t = root.textContent || ""; root.querySelectorAll("*").forEach(e => { if (e.shadowRoot) t += "\n" + text(e.shadowRoot); }); return t; })(document)'
python3 /opt/gpu-browser/run-page.py --out $O/gpu-info --sleep 4 --eval "$T" --allow-fallback 'chrome://gpu'
i=0
for flags in "" "--enable-dawn-features=allow_unsafe_apis" "--enable-dawn-features=allow_unsafe_apis,vulkan_use_storage_input_output_16" "--enable-features=WebGPUDeveloperFeatures,WebGPUExperimentalFeatures"; do
  i=$((i+1)); args=(); for f in $flags; do args+=("--flag=$f"); done
  $R --out $O/flags-$i "${args[@]}" --wait-selector '#device:not([hidden])' --eval 'document.getElementById("device-facts").textContent' index.html
  echo "flags-$i: $flags" >> $O/flags.txt; grep -o '"features": \[[^]]*\]' $O/flags-$i/summary.json >> $O/flags.txt
done
kill %1
cd $O && tar czf $OUT/issue26-h100.tgz . && ls -la $OUT
