#!/usr/bin/env bash
# On the device machine, from the repository's root: the page's default suite in Chromium on the GPU, a
# build before a change (.bench/dist-main) and after it (dist), alternately, twice each, nvidia-smi's clocks
# beside; each run's result and a line of its pace. Carried: dist and .bench (dist-main: the build before).
# The gpu-browser kit (../shared/gpu-browser/pack.sh's part1 and part2) no longer travels beside the tree in
# two calls: staged first, in calls straight after one another (the machine stays warm 30 s), each
# carrying one piece of `tar -cf - part1 part2 | split -b 13000000 -d -a 1 - gbpiece.` (in
# .gpu-browser/tiny/tN/: with the tree's 48 MB, 18 MB pieces went over the 64 MiB a call carries, as 25 MB
# ones had beside 42) and running `mkdir -p /tmp/gbp && cp .gpu-browser/tiny/tN/* /tmp/gbp/`; the script
# joins and installs them.
set -u
source docs/results/page-pace/install-kit.sh
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu --format=csv -lms 500 > "$OUT/clocks.csv" 2>/dev/null &
clocks=$!
# A machine's first page run is its GPU driver's first compile of every pipeline (its cache outlives the
# browser's profile): 32.5 s against 27.7 s next on one H200, so a run of the build before goes first, not
# counted.
python3 /opt/gpu-browser/run-page.py --serve .bench/dist-main --out /tmp/cold --timeout 300 --click '#run' \
    --wait-selector '#results[data-done]' index.html | tail -1
for run in before-1:.bench/dist-main after-1:dist before-2:.bench/dist-main after-2:dist; do
    name=${run%%:*}
    echo "$name $(date +%T.%N)" >> "$OUT/marks.txt"
    python3 /opt/gpu-browser/run-page.py --serve "${run#*:}" --out "/tmp/$name" --timeout 300 --click '#run' \
        --wait-selector '#results[data-done]' \
        --eval 'JSON.parse(document.getElementById("result-json").textContent)' index.html | tail -1
    python3 - "/tmp/$name/eval.json" "$OUT/h200-chromium-suite-$name.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
json.dump(result, open(sys.argv[2], "w"))
pace, valid = result["pace"], sum(r.get("valid") is True for r in result["results"])
print(f"{len(result['results'])} configurations, {valid} valid; wall {pace['wall_s']:.1f} s, GPU busy "
      f"{pace['gpu_busy_s'] / pace['wall_s']:.0%}; references {pace['references_s']:.1f} s, validation "
      f"{pace['validation_s']:.1f} s; long tasks {result['environment']['long_tasks']}")
PY
done
echo "end $(date +%T.%N)" >> "$OUT/marks.txt"
# Left running, the clock logger would hold the call open to its limit.
kill $clocks
