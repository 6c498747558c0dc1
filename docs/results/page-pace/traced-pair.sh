#!/usr/bin/env bash
# On the device machine, the kit staged (ab.sh says how): the default suite in two builds of the page made
# with their debug lines (`log` without `release_max_level_warn`, trunk build --release), .bench/trace-before
# and .bench/trace-after, one run each at `?log=trace`, every line the page writes kept with its time
# (console-lines.js), nvidia-smi's clocks beside.
set -u
nvidia-smi --query-gpu=timestamp,clocks.sm,utilization.gpu --format=csv -lms 500 > "$OUT/trace-clocks.csv" 2>/dev/null &
clocks=$!
for build in before after; do
    python3 /opt/gpu-browser/run-page.py --serve ".bench/trace-$build" --out "/tmp/trace-$build" --timeout 300 \
        --wait-js "$(cat docs/results/page-pace/console-lines.js)" --click '#run' --wait-selector '#results[data-done]' \
        --eval 'window.consoleLines' 'index.html?log=trace' | tail -1
    gzip -c "/tmp/trace-$build/eval.json" > "$OUT/trace-$build.json.gz"
done
kill $clocks
