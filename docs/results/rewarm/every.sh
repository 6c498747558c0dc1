#!/usr/bin/env bash
# One device call, from the repository's root, after the gpu-browser kit is staged (page-pace/ab.sh says
# how): every kernel ticked in the page (dist) in Chromium on a first visit's footing (a fresh profile, the
# driver's pipeline cache emptied), its result, screenshot and nvidia-smi's clock log into $OUT.
set -u
O=${OUT:-/tmp/every-run}; mkdir -p "$O"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 500 > "$O/clocks.csv" 2>&1 &
smi=$!
rm -rf ~/.nv ~/.cache/nvidia
python3 /opt/gpu-browser/run-page.py --serve dist --out /tmp/every --timeout 560 --window 1280x2400 \
    --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia \
    --click '#tick-all' --click '#run' --wait-selector '#results[data-done]' \
    --eval 'JSON.parse(document.getElementById("result-json").textContent)' index.html > "$O/log.txt" 2>&1
kill $smi
cp /tmp/every/eval.json "$O/h200-every.json" && gzip -f "$O/h200-every.json"
cp /tmp/every/screenshot.png "$O/h200-every.png"
